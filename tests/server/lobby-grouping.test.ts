/**
 * The lobby sends its watchers the news of a turn of the server's event loop in one frame: several
 * changes made in one turn (here a player's messages written in one write on their socket, which the
 * server reads at once) reach a watcher as ONE lobbyHooksChanged holding them all, and what the
 * turn made and unmade at once is never shown. After it the watcher holds the list a new watcher gets.
 */
import { describe, expect, it } from 'vitest';
import type { Hook } from '../../machines/protocol/messages';
import { lobbyUntil, useServerPerTest, watchLobby, type Msg, type TestClient } from './helpers';

const site = useServerPerTest();
let wall = 1_700_000_000_000;

/** A casual game of `initial` seconds, the poster white. */
const game = (initial: number) => ({ options: { timeControl: { initial, increment: 0 }, rated: false, color: 'white' } });
const post = (initial: number) => ({ type: 'postHook', payload: game(initial) }) as const;

/** The lobbyHooksChanged frames `c` received after its first `skip`. */
const changesAfter = (c: TestClient, skip: number) => c.received.filter((m): m is Msg & { type: 'lobbyHooksChanged' } => m.type === 'lobbyHooksChanged').slice(skip);

/** A server, a poster whose first game (300 s) every watcher holds, and two watchers. */
async function lobbyWithOneGame(): Promise<{ poster: TestClient; watchers: TestClient[]; first: Hook }> {
  await site.start({ lobbyClock: () => wall });
  const poster = await site.connect();
  const watchers = [await site.connect(), await site.connect()];
  for (const w of watchers) expect(await watchLobby(w)).toEqual([]);
  poster.send('postHook', game(300));
  const [[first]] = await Promise.all(watchers.map((w) => lobbyUntil(w, 'the first game', (h) => h.length === 1)));
  return { poster, watchers, first };
}

describe('the news of one turn in one frame', () => {
  it('two games posted in one turn (each replacing the last) reach a watcher as one change: the last in, the first out, the one between never shown', async () => {
    const { poster, watchers, first } = await lobbyWithOneGame();
    const before = watchers.map((w) => changesAfter(w, 0).length);
    wall += 1_000;
    poster.sendTogether([post(600), post(900)]);
    const held = await Promise.all(watchers.map((w) => lobbyUntil(w, 'the last game', (h) => h.length === 1 && h[0].timeControl.initial === 900)));
    await poster.roundTrip();
    for (const [i, w] of watchers.entries()) {
      await w.roundTrip();
      expect(changesAfter(w, before[i])).toEqual([{ type: 'lobbyHooksChanged', updated: [held[i][0]], removed: [first.id] }]);
    }
    expect(held[0][0].by.id).toBe(poster.playerId);
    expect(poster.received.filter((m) => m.type === 'error')).toEqual([]);
    expect(await watchLobby(await site.connect())).toEqual(held[0]);
  });

  it('a game posted and cancelled in one turn is never shown: the watcher is told only that the game before it went', async () => {
    const { poster, watchers, first } = await lobbyWithOneGame();
    const before = watchers.map((w) => changesAfter(w, 0).length);
    wall += 1_000;
    poster.sendTogether([post(600), { type: 'cancelHook' }]);
    await Promise.all(watchers.map((w) => lobbyUntil(w, 'no game', (h) => h.length === 0)));
    await poster.roundTrip();
    for (const [i, w] of watchers.entries()) {
      await w.roundTrip();
      expect(changesAfter(w, before[i])).toEqual([{ type: 'lobbyHooksChanged', updated: [], removed: [first.id] }]);
    }
    expect(await watchLobby(await site.connect())).toEqual([]);
  });
});
