/**
 * A player's lobby messages read in one turn on a site of two nodes (on the test Redis), where each
 * reading and change of the lobby waits for Redis: two games posted in one write still leave the
 * player one game, the last, in every node's list as a new watcher gets it.
 */
import { describe, expect, it } from 'vitest';
import { lobbyUntil, watchLobby } from '../server/helpers';
import { useNodesPerTest } from './nodesPerTest';

const site = useNodesPerTest();

/** A casual game of `initial` seconds, the poster white. */
const game = (initial: number) => ({ options: { timeControl: { initial, increment: 0 }, rated: false, color: 'white' } });

describe("a player's lobby messages read in one turn, on two nodes", () => {
  it('two games posted in one write leave the player one game, the last, on both nodes', async () => {
    const [a, b] = await site.start(2);
    const poster = await site.connect(a);
    const watchers = [await site.connect(a), await site.connect(b)];
    for (const w of watchers) expect(await watchLobby(w)).toEqual([]);
    poster.send('postHook', game(300));
    await Promise.all(watchers.map((w) => lobbyUntil(w, 'the first game', (h) => h.length === 1)));

    poster.sendTogether([
      { type: 'postHook', payload: game(600) },
      { type: 'postHook', payload: game(900) },
    ]);
    await Promise.all(watchers.map((w) => lobbyUntil(w, 'the last game', (h) => h.some((x) => x.timeControl.initial === 900))));
    await poster.roundTrip();
    const fresh = [await watchLobby(await site.connect(a)), await watchLobby(await site.connect(b))];
    expect(fresh[0].map((h) => [h.by.id, h.timeControl.initial])).toEqual([[poster.playerId, 900]]);
    expect(fresh[1]).toEqual(fresh[0]);
    for (const w of watchers) expect(await lobbyUntil(w, 'the list a new watcher gets', (h) => h.length === 1)).toEqual(fresh[0]);
  });
});
