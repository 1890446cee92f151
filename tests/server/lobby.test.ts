/**
 * Custom games in the lobby on the real server, as players meet them: one posts a game, the
 * others watching the lobby see it at once, one joins and both go to the game on its time control;
 * a hook leaves the lobby when it is joined, cancelled, replaced, or once its creator has been gone
 * a while (the lobby's wall clock is the test's). A rated game is for signed-in players only.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Hook } from '../../machines/protocol/messages';
import { LOBBY_RULES } from '../../machines/lobby/rules';
import { TestClient, lobbyOf, lobbyUntil, useServerPerTest, watchLobby, type Msg } from './helpers';

const BLITZ = { initial: 300, increment: 3 };

const site = useServerPerTest();
let wall = 1_700_000_000_000;

async function start(): Promise<RunningServer> {
  return site.start({ lobbyClock: () => wall, lobbySweepMs: 20 });
}

async function player(): Promise<TestClient> {
  return site.connect();
}

/** A new player who watches the lobby (its whole list arrived). */
async function watching(): Promise<TestClient> {
  const c = await player();
  await watchLobby(c);
  return c;
}

/** The watcher's list of the lobby, once it satisfies `pred`. */
const lobby = (c: TestClient, pred: (hooks: Hook[]) => boolean) => lobbyUntil(c, String(pred), pred);

describe('custom games in the lobby', () => {
  it('lists a posted game live to every watcher; the player who joins it and its creator start it on its time control', async () => {
    await start();
    const ann = await player();
    const ben = await player();
    const cat = await player();
    for (const c of [ben, cat]) expect(await watchLobby(c)).toEqual([]);
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'black' }, username: 'Ann' });
    const [seen] = await Promise.all([lobby(ben, (h) => h.length === 1), lobby(cat, (h) => h.length === 1)]);
    const hook = seen[0];
    expect(hook).toMatchObject({ by: { id: ann.playerId, name: 'Ann', guest: true }, timeControl: BLITZ, rated: false, color: 'black' });

    ben.send('joinHook', { hookId: hook.id, username: 'Ben' });
    const [a, b] = await Promise.all([ann.next('gameStart'), ben.next('gameStart')]);
    expect(a.gameId).toBe(b.gameId);
    expect(a).toMatchObject({ color: 'black', opponentName: 'Ben', timeControl: BLITZ, timerDuration: 300 });
    expect(b).toMatchObject({ color: 'white', opponentName: 'Ann', timeControl: BLITZ });
    // joined: it is gone from every list, and nobody else can join it
    await lobby(cat, (h) => h.length === 0);
    cat.send('joinHook', { hookId: hook.id });
    expect((await cat.next('error')).code).toBe('hook_unavailable');
  });

  it('keeps one game per player (a new one replaces it), takes it off when cancelled, and refuses one while its creator plays', async () => {
    await start();
    const ann = await player();
    const watcher = await player();
    expect(await watchLobby(watcher)).toEqual([]);
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'random' } });
    await lobby(watcher, (h) => h.length === 1 && h[0].timeControl.initial === 300);
    ann.send('postHook', { options: { timeControl: { initial: 15, increment: 0 }, rated: false, color: 'white' } });
    const replaced = await lobby(watcher, (h) => h.length === 1 && h[0].timeControl.initial === 15);
    expect(replaced[0].color).toBe('white');
    ann.send('cancelHook');
    await lobby(watcher, (h) => h.length === 0);
    // own game: refused; a bad time control: refused, nothing listed
    ann.send('postHook', { options: { timeControl: { initial: 10, increment: 0 }, rated: false, color: 'white' } });
    expect((await ann.next('error')).code).toBe('invalid_payload');
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'white' } });
    const own = (await lobby(watcher, (h) => h.length === 1))[0];
    ann.send('joinHook', { hookId: own.id });
    expect((await ann.next('error')).code).toBe('hook_unavailable');
    // while in a game, no game may be posted
    watcher.send('joinHook', { hookId: own.id });
    await ann.next('gameStart');
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'white' } });
    expect((await ann.next('error')).code).toBe('active_game');
  });

  it('sends a watcher the whole list once, then only what changed; after posts, a replacement, a cancel and a join it holds the list a new watcher gets', async () => {
    await start();
    const [ann, ben, cat, dan, eve] = await Promise.all([player(), player(), player(), player(), player()]);
    const watcher = await player();
    expect(await watchLobby(watcher)).toEqual([]);
    const changes = () => watcher.received.filter((m): m is Msg & { type: 'lobbyHooksChanged' } => m.type === 'lobbyHooksChanged');
    const post = (c: TestClient, initial: number) => {
      wall += 1_000; // posted a second apart: the list's order is theirs
      c.send('postHook', { options: { timeControl: { initial, increment: 0 }, rated: false, color: 'white' } });
    };

    post(ann, 300);
    const [annFirst] = await lobby(watcher, (h) => h.length === 1);
    expect(changes().at(-1)).toMatchObject({ updated: [annFirst], removed: [] });
    post(ben, 180);
    await lobby(watcher, (h) => h.length === 2);
    post(cat, 600);
    await lobby(watcher, (h) => h.length === 3);
    // a replacement is one change: the new game in, the old one out
    post(ann, 900);
    const replaced = await lobby(watcher, (h) => h.some((x) => x.timeControl.initial === 900));
    const annSecond = replaced.find((h) => h.by.id === ann.playerId)!;
    expect(changes().at(-1)).toMatchObject({ updated: [annSecond], removed: [annFirst.id] });
    cat.send('cancelHook');
    await lobby(watcher, (h) => !h.some((x) => x.by.id === cat.playerId));
    const bens = replaced.find((h) => h.by.id === ben.playerId)!;
    dan.send('joinHook', { hookId: bens.id });
    await Promise.all([ben.next('gameStart'), dan.next('gameStart')]);
    await lobby(watcher, (h) => !h.some((x) => x.id === bens.id));
    post(eve, 120);
    const held = await lobby(watcher, (h) => h.length === 2);

    // oldest first, as a new watcher is sent them; the whole list went to the watcher once
    const fresh = await watchLobby(await player());
    expect(held).toEqual(fresh);
    expect(fresh.map((h) => h.by.id)).toEqual([ann.playerId, eve.playerId]);
    expect(watcher.received.filter((m) => m.type === 'lobbyHooks')).toHaveLength(1);
    expect(changes().every((m) => m.updated.length + m.removed.length <= 2)).toBe(true);
  });

  it('sends the changes only to the socket that asked: the same player back on a new socket gets nothing until it watches, then the whole list', async () => {
    await start();
    const ann = await player();
    const first = await player();
    expect(await watchLobby(first)).toEqual([]);
    await first.close();
    const again = await site.connect({ playerId: first.playerId, secret: first.secret });
    expect(again.playerId).toBe(first.playerId);
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'white' } });
    const [listed] = await lobby(await watching(), (h) => h.length === 1);
    await again.roundTrip();
    expect(again.received.filter((m) => m.type === 'lobbyHooks' || m.type === 'lobbyHooksChanged')).toEqual([]);
    expect(await watchLobby(again)).toEqual([listed]);
  });

  it('keeps a rated game for signed-in players: a guest may not post one', async () => {
    await start();
    const guest = await player();
    guest.send('postHook', { options: { timeControl: BLITZ, rated: true, color: 'white' } });
    const err = await guest.next('error');
    expect(err.code).toBe('rated_needs_account');
    expect(String(err.message)).toMatch(/signed-in/);
  });

  it('takes a game off the lobby once its creator has been gone a while, not while they are connected', async () => {
    await start();
    const ann = await player();
    const watcher = await player();
    expect(await watchLobby(watcher)).toEqual([]);
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'white' } });
    await lobby(watcher, (h) => h.length === 1);
    // connected: seen at every sweep, however long it waits
    wall += 10 * LOBBY_RULES.hookUnseenMs;
    await watcher.roundTrip();
    expect(await watcher.gets('lobbyHooksChanged', 200)).toBe(false);
    expect(lobbyOf(watcher)).toHaveLength(1);
    await ann.close();
    wall += LOBBY_RULES.hookUnseenMs + 1;
    await lobby(watcher, (h) => h.length === 0);
  });

  it('takes a game off the lobby when its creator starts another game', async () => {
    await start();
    const ann = await player();
    const cat = await player();
    const watcher = await player();
    expect(await watchLobby(watcher)).toEqual([]);
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'white' } });
    await lobby(watcher, (h) => h.length === 1);
    ann.send('findGame', { username: 'Ann' });
    await ann.next('matchmakingStatus', (m) => m.status === 'queued');
    cat.send('findGame', { username: 'Cat' });
    await ann.next('gameStart');
    await lobby(watcher, (h) => h.length === 0);
  });
});
