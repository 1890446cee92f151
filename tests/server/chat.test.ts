/**
 * Game chat on the real server with real WebSocket clients: the players' room reaches the two
 * players only, the spectators' room the spectators only (players do not see it during the
 * game); text is checked and kept as text; each author's flood limit answers with a clear
 * refusal; an operator may turn guest chat off. The lines come back with the game on a rejoin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAT_TEXT } from '../../server/chat/chat';
import { CHAT } from '../../machines/protocol/constants';
import type { PlayerRating } from '../../machines/protocol/messages';
import type { Archive, FinishedGame, StoreResult } from '../../server/archive/index';
import { TestClient, pairPlayers, playMoves, startTestServer, useServerPerTest, type Msg, type Pair } from './helpers';

const site = useServerPerTest();

async function game(opts: Parameters<typeof startTestServer>[0] = {}): Promise<Pair> {
  const server = await site.start(opts);
  const p = await pairPlayers(server.url, ['Alice', 'Bob']);
  site.track(p.white, p.black);
  return p;
}

async function watcher(gameId: string): Promise<TestClient> {
  const c = await site.connect();
  c.send('watchGame', { gameId });
  await c.next('watchStart');
  return c;
}

const say = (c: TestClient, gameId: string, room: 'player' | 'spectator', text: string) => c.send('chatSend', { gameId, room, text });
const lines = (c: TestClient) => c.received.filter((m) => m.type === 'chatMessage');

describe('the player room', () => {
  it('reaches both players with the name and colour the game gives the author, and no spectator', async () => {
    const p = await game();
    const s = await watcher(p.gameId);
    say(p.white, p.gameId, 'player', '  good luck <b>have fun</b>\u0007 ');
    const expected = { type: 'chatMessage', gameId: p.gameId, room: 'player', name: 'Alice', guest: true, color: 'white', text: 'good luck <b>have fun</b>' };
    expect(await p.white.next('chatMessage')).toEqual(expected);
    expect(await p.black.next('chatMessage')).toEqual(expected);
    await s.roundTrip();
    await p.white.roundTrip();
    expect(lines(s)).toEqual([]);
  });

  it('refuses a line too long, an empty one, and a stranger, changing nothing', async () => {
    const p = await game();
    say(p.white, p.gameId, 'player', 'x'.repeat(CHAT.maxLength + 1));
    expect(await p.white.next('error')).toMatchObject({ code: 'invalid_payload', message: `chatSend: payload.text must be at most ${CHAT.maxLength} characters` });
    say(p.white, p.gameId, 'player', ' \n ');
    expect(await p.white.next('error')).toMatchObject({ code: 'invalid_payload', message: 'chatSend: payload.text must not be empty' });
    const stranger = await site.connect();
    say(stranger, p.gameId, 'player', 'hello');
    expect(await stranger.next('error')).toMatchObject({ code: 'chat_refused', message: CHAT_TEXT.notYourGame, gameId: p.gameId });
    await p.black.roundTrip();
    expect(lines(p.black)).toEqual([]);
  });

  it('comes back with the game when a player rejoins', async () => {
    const p = await game();
    say(p.black, p.gameId, 'player', 'hi');
    await p.white.next('chatMessage');
    p.white.send('rejoinGame', { gameId: p.gameId });
    const start = await p.white.next('gameStart');
    expect(start.chat).toEqual([{ room: 'player', name: 'Bob', guest: true, color: 'black', text: 'hi' }]);
  });
});

describe('the spectator room', () => {
  it('reaches every spectator and neither player during the game', async () => {
    const p = await game();
    const [s1, s2] = [await watcher(p.gameId), await watcher(p.gameId)];
    say(s1, p.gameId, 'spectator', 'what a game');
    const expected = { type: 'chatMessage', gameId: p.gameId, room: 'spectator', name: 'Anonymous Player', guest: true, text: 'what a game' };
    expect(await s1.next('chatMessage')).toEqual(expected);
    expect(await s2.next('chatMessage')).toEqual(expected);
    await playMoves(p, ['e2e4']); // anything the spectators were sent before this move reached the players first
    await Promise.all([p.white.roundTrip(), p.black.roundTrip()]);
    expect([...lines(p.white), ...lines(p.black)]).toEqual([]);
    // a spectator who comes later is shown the room's lines; the players' room stays theirs
    say(p.white, p.gameId, 'player', 'secret plan');
    await p.black.next('chatMessage');
    const late = await site.connect();
    late.send('watchGame', { gameId: p.gameId });
    expect((await late.next('watchStart')).chat).toEqual([{ room: 'spectator', name: 'Anonymous Player', guest: true, text: 'what a game' }]);
  });

  it('is closed to the players during their game and to sockets that do not watch', async () => {
    const p = await game();
    say(p.white, p.gameId, 'spectator', 'hello watchers');
    expect(await p.white.next('error')).toMatchObject({ code: 'chat_refused', message: CHAT_TEXT.playersNotInSpectatorRoom });
    const outsider = await site.connect();
    say(outsider, p.gameId, 'spectator', 'hello');
    expect(await outsider.next('error')).toMatchObject({ code: 'chat_refused', message: CHAT_TEXT.notWatching });
    const s = await watcher(p.gameId);
    say(s, p.gameId, 'player', 'psst');
    expect(await s.next('error')).toMatchObject({ code: 'chat_refused', message: CHAT_TEXT.notYourGame });
  });
});

describe('the record', () => {
  it('keeps both rooms\' lines, in order, with the archived game', async () => {
    const stored: FinishedGame[] = [];
    const archive: Archive = {
      store: async (g: FinishedGame): Promise<StoreResult> => (stored.push(g), { stored: true, ratings: null }),
      ratingOf: async (): Promise<PlayerRating> => ({ rating: 1500, provisional: true }),
      claimGuestGames: async () => 0,
      handler: () => ({ status: 404 }),
    };
    const p = await game({ accounts: { mount() {}, verifyAccessToken: async () => null, close: async () => {}, archive } });
    const s = await watcher(p.gameId);
    say(p.white, p.gameId, 'player', 'hello');
    await p.black.next('chatMessage');
    say(s, p.gameId, 'spectator', 'go white');
    await s.next('chatMessage');
    p.black.send('resign', { gameId: p.gameId });
    await s.next('gameArchived');
    expect(stored[0].chat).toEqual([
      { room: 'player', name: 'Alice', guest: true, color: 'white', text: 'hello' },
      { room: 'spectator', name: 'Anonymous Player', guest: true, text: 'go white' },
    ]);
  });
});

describe('a restart', () => {
  it('keeps both rooms: the journal holds the lines with the moves, and the game comes back with them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chat-journal-'));
    const durable = { durableDir: dataDir, serverSecret: 's'.repeat(40) };
    try {
      const p = await game(durable);
      await playMoves(p, ['e2e4', 'e7e5']);
      say(p.white, p.gameId, 'player', 'before the restart');
      await p.black.next('chatMessage');
      const s = await watcher(p.gameId);
      say(s, p.gameId, 'spectator', 'still watching');
      await s.next('chatMessage');
      const white = { playerId: p.white.playerId, secret: p.white.secret };
      await site.stop();

      await site.start(durable);
      const back = await site.connect(white);
      back.send('rejoinGame', { gameId: p.gameId });
      const start = await back.next('gameStart');
      expect(start).toMatchObject({ currentState: { seq: 2 }, chat: [{ room: 'player', name: 'Alice', color: 'white', text: 'before the restart' }] });
      const later = await site.connect();
      later.send('watchGame', { gameId: p.gameId });
      expect((await later.next('watchStart')).chat).toEqual([{ room: 'spectator', name: 'Anonymous Player', guest: true, text: 'still watching' }]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('limits', () => {
  it(`allows ${CHAT.lines} lines in ${CHAT.windowMs / 1000} s, then refuses with how long to wait; a repeated line is refused`, async () => {
    const p = await game();
    for (let i = 1; i <= CHAT.lines; i++) say(p.white, p.gameId, 'player', `line ${i}`);
    say(p.white, p.gameId, 'player', 'one too many');
    const refusal = await p.white.next('error');
    expect(refusal).toMatchObject({ code: 'chat_rate_limited', gameId: p.gameId });
    expect(refusal.message).toMatch(/^You are sending messages too fast\. Wait \d+ s\.$/);
    await p.black.roundTrip();
    expect(lines(p.black).map((m: Msg) => m.text)).toEqual(Array.from({ length: CHAT.lines }, (_, i) => `line ${i + 1}`));
    // the other player has a budget of their own, but may not say the same line twice running
    say(p.black, p.gameId, 'player', 'gg');
    await p.white.next('chatMessage', (m) => m.text === 'gg');
    say(p.black, p.gameId, 'player', 'gg');
    expect(await p.black.next('error')).toMatchObject({ code: 'chat_rate_limited', message: CHAT_TEXT.repeated });
  });

  it('with guest chat off, refuses guests in both rooms and they still read nothing new', async () => {
    const p = await game({ chat: { guests: false } });
    say(p.white, p.gameId, 'player', 'hello');
    expect(await p.white.next('error')).toMatchObject({ code: 'chat_refused', message: CHAT_TEXT.guestsOff });
    const s = await watcher(p.gameId);
    say(s, p.gameId, 'spectator', 'hello');
    expect(await s.next('error')).toMatchObject({ code: 'chat_refused', message: CHAT_TEXT.guestsOff });
    await p.black.roundTrip();
    expect(lines(p.black)).toEqual([]);
  });
});
