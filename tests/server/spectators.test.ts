/**
 * Spectators of live games on the real uWebSockets.js server with real WebSocket clients: a
 * spectator gets the game as it stands, then the players' own move, clock and end frames, and
 * nothing meant for a player only; the limits and bad input are refused with a clear error
 * that changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Archive, StoreResult } from '../../server/archive/index';
import { DEFAULT_CLOCK_REPORT_MS } from '../../machines/game/defaults';
import type { PlayerRating } from '../../machines/protocol/messages';
import { TestClient, pairPlayers, playMoves, timedGame, useServerPerTest, type Msg } from './helpers';

const site = useServerPerTest();

async function spectator(url: string): Promise<TestClient> {
  const c = await TestClient.connect(url);
  site.track(c);
  return c;
}

async function watching(url: string, gameId: string): Promise<{ c: TestClient; start: Msg }> {
  const c = await spectator(url);
  c.send('watchGame', { gameId });
  return { c, start: await c.next('watchStart') };
}

describe('watching a live game', () => {
  it('gets the game as it stands, every move as the players get it, and the end; nothing for players only', async () => {
    const server = await site.start();
    const p = await pairPlayers(server.url, ['Alice', 'Bob']);
    site.track(p.white, p.black);
    await playMoves(p, ['e2e4', 'e7e5']);
    const { c, start } = await watching(server.url, p.gameId);
    expect(start).toMatchObject({
      gameId: p.gameId,
      white: { name: 'Alice', guest: true },
      black: { name: 'Bob', guest: true },
      timerDuration: 600,
      currentState: { turn: 'white', seq: 2, moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }], timers: { white: 600, black: 600 } },
    });
    expect(start.currentState).not.toHaveProperty('drawOfferFrom');
    // names only: no player id, no secret
    const text = JSON.stringify(start);
    for (const secret of [p.white.playerId, p.black.playerId, p.white.secret, p.black.secret]) expect(text).not.toContain(secret);

    const [played] = await playMoves(p, ['g1f3']);
    expect(await c.next('gameMove')).toEqual(played);

    // a draw offer and a disconnection are the players' business
    p.black.send('offerDraw', { gameId: p.gameId });
    await p.white.next('drawOffer');
    p.white.send('declineDraw', { gameId: p.gameId });
    await p.black.next('drawDeclined');

    p.black.send('resign', { gameId: p.gameId });
    const end = await p.white.next('gameEnd');
    expect(await c.next('gameEnd')).toEqual(end);
    expect(end).toMatchObject({ winner: 'white', reason: 'resignation' });
    // (the lobby's playerCount comes to every socket, the spectator count to the game's spectators and players)
    const seen = c.received.map((m) => m.type).filter((t) => t !== 'playerCount' && t !== 'spectators');
    expect(seen).toEqual(['connectionAck', 'watchStart', 'gameMove', 'gameEnd']);
    // a spectator is no player: its socket has no game
    c.send('checkActiveGame', {});
    expect(await c.next('activeGameStatus')).toMatchObject({ gameId: null });
  });

  it("gets the running clock's timerUpdate as the players do (test clock)", async () => {
    const t = await timedGame();
    const server = site.own(t.server);
    site.track(t.p.white, t.p.black);
    await playMoves(t.p, ['e2e4', 'e7e5']);
    const { c } = await watching(server.url, t.p.gameId);
    await t.clock.advance(DEFAULT_CLOCK_REPORT_MS, 100);
    const [mine, theirs] = await Promise.all([c.next('timerUpdate'), t.p.white.next('timerUpdate')]);
    expect(mine).toEqual(theirs);
    expect(mine).toMatchObject({ gameId: t.p.gameId, timers: { white: 600 - DEFAULT_CLOCK_REPORT_MS / 1000, black: 600 } });
  });

  it('with the games journaled, gets the same frames in the same order, after the same commit', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'watch-journal-'));
    try {
      const server = await site.start({ durableDir: dataDir });
      const p = await pairPlayers(server.url);
      site.track(p.white, p.black);
      const { c, start } = await watching(server.url, p.gameId);
      expect(start.currentState).toMatchObject({ seq: 0 });
      const played = await playMoves(p, ['e2e4', 'c7c5', 'g1f3']);
      p.white.send('resign', { gameId: p.gameId });
      const end = await p.black.next('gameEnd');
      expect([await c.next('gameMove'), await c.next('gameMove'), await c.next('gameMove'), await c.next('gameEnd')]).toEqual([...played, end]);
    } finally {
      await site.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('hears gameArchived after gameEnd when the archive stores the game before the journal has committed its end', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'watch-archive-'));
    // stored at once: the archive answers before the journal's fdatasync of the end
    const archive: Archive = {
      store: async (): Promise<StoreResult> => ({ stored: true, ratings: null }),
      ratingOf: async (): Promise<PlayerRating> => ({ rating: 1500, provisional: true }),
      claimGuestGames: async () => 0,
      handler: () => ({ status: 404 }),
    };
    try {
      const server = await site.start({ durableDir: dataDir, accounts: { mount() {}, verifyAccessToken: async () => null, close: async () => {}, archive } });
      const p = await pairPlayers(server.url);
      site.track(p.white, p.black);
      await playMoves(p, ['e2e4', 'e7e5']);
      const { c } = await watching(server.url, p.gameId);
      p.white.send('resign', { gameId: p.gameId });
      expect(await c.next('gameEnd')).toMatchObject({ gameId: p.gameId, winner: 'black' });
      expect(await c.next('gameArchived')).toEqual({ type: 'gameArchived', gameId: p.gameId });
    } finally {
      await site.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is answered again on a repeated watchGame (a resync) without counting twice, and stops on unwatchGame', async () => {
    const server = await site.start({ watch: { gamesPerSocket: 1, watchersPerGame: 1, watchersTotal: 1 } });
    const p = await pairPlayers(server.url);
    site.track(p.white, p.black);
    const { c } = await watching(server.url, p.gameId);
    c.send('watchGame', { gameId: p.gameId });
    expect(await c.next('watchStart')).toMatchObject({ gameId: p.gameId });
    c.send('unwatchGame', { gameId: p.gameId });
    expect(await c.next('watchStopped')).toEqual({ type: 'watchStopped', gameId: p.gameId });
    await playMoves(p, ['e2e4']);
    c.send('unwatchGame', { gameId: p.gameId });
    expect(await c.next('error')).toMatchObject({ code: 'not_watching', gameId: p.gameId });
    expect(c.received.filter((m) => m.type === 'gameMove')).toEqual([]);
    // the slot is free again
    const other = await watching(server.url, p.gameId);
    expect(other.start.currentState).toMatchObject({ seq: 1 });
  });
});

describe('refusals', () => {
  it('refuses an unknown or ended game, and bad input, with a clear error', async () => {
    const server = await site.start();
    const c = await spectator(server.url);
    c.send('watchGame', { gameId: 'game_nosuchgame' });
    expect(await c.next('error')).toMatchObject({ code: 'unknown_game', gameId: 'game_nosuchgame', message: 'This game is not being played now.' });
    c.send('watchGame', {});
    expect(await c.next('error')).toMatchObject({ code: 'invalid_payload' });
    c.send('watchGame', { gameId: 'x'.repeat(65) });
    expect(await c.next('error')).toMatchObject({ code: 'invalid_payload' });
    c.send('unwatchGame', { gameId: 7 });
    expect(await c.next('error')).toMatchObject({ code: 'invalid_payload' });

    const p = await pairPlayers(server.url);
    site.track(p.white, p.black);
    p.white.send('resign', { gameId: p.gameId });
    await p.black.next('gameEnd');
    c.send('watchGame', { gameId: p.gameId });
    expect(await c.next('error')).toMatchObject({ code: 'unknown_game', gameId: p.gameId });
  });

  it('keeps to the games per socket, the watchers per game and on the server; a refusal changes nothing', async () => {
    const server = await site.start({ watch: { gamesPerSocket: 1, watchersPerGame: 2, watchersTotal: 3 } });
    const g1 = await pairPlayers(server.url, ['A1', 'B1']);
    const g2 = await pairPlayers(server.url, ['A2', 'B2']);
    site.track(g1.white, g1.black, g2.white, g2.black);

    const a = await watching(server.url, g1.gameId);
    a.c.send('watchGame', { gameId: g2.gameId });
    expect(await a.c.next('error')).toMatchObject({ code: 'watch_limit', gameId: g2.gameId });

    await watching(server.url, g1.gameId);
    const third = await spectator(server.url);
    third.send('watchGame', { gameId: g1.gameId });
    expect(await third.next('error')).toMatchObject({ code: 'watchers_full', gameId: g1.gameId });

    await watching(server.url, g2.gameId); // the server's third
    third.send('watchGame', { gameId: g2.gameId });
    expect(await third.next('error')).toMatchObject({ code: 'watchers_full', message: expect.stringContaining('server') });

    // the refused watches changed nothing: the first spectator follows its game only, the third none
    await playMoves(g2, ['d2d4']);
    await playMoves(g1, ['e2e4']);
    expect(await a.c.next('gameMove')).toMatchObject({ gameId: g1.gameId, san: 'e4' });
    expect(a.c.received.filter((m) => m.type === 'gameMove' && m.gameId === g2.gameId)).toEqual([]);
    expect(third.received.some((m) => m.type === 'gameMove')).toBe(false);

    // a spectator's closed socket frees its place
    await a.c.close();
    third.send('watchGame', { gameId: g1.gameId });
    expect(await third.next('watchStart')).toMatchObject({ gameId: g1.gameId });
  });
});
