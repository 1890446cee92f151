/**
 * The site's list of live games across two nodes in this process, on the test Redis and
 * PostgreSQL: a follower on either node lists the games of both; a spectator on one node of a
 * game the other plays is counted for its players; a game that ends leaves every node's list;
 * a node that leaves takes its part of the list with it... once its games are played elsewhere.
 */
import { afterEach, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { liveListUntil, pairPlayers, playMoves, startTestServer, useClients, type Pair } from '../server/helpers';
import { testSite, type TestSite } from './site';

let site: TestSite;
const servers: RunningServer[] = [];
const clients = useClients();

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await site?.destroy();
});

/** Two players whose sockets are on `server`, paired into one game that `server` plays. */
async function gameOn(server: RunningServer, names: [string, string]): Promise<Pair> {
  const pair = await pairPlayers(server.url, names);
  clients.track(pair.white, pair.black);
  return pair;
}

it('lists the games of every node on every node, with their moves and their spectators on all nodes', async () => {
  site = testSite();
  for (let i = 0; i < 2; i++) servers.push(await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32) }));
  const [a, b] = servers;
  const onA = await gameOn(a, ['Alice', 'Bob']);
  const onB = await gameOn(b, ['Carol', 'Dan']);
  const followers = [await clients.connect(a.url), await clients.connect(b.url)];
  for (const f of followers) f.send('watchLiveGames');
  for (const f of followers) {
    const both = await liveListUntil(f, 'both nodes’ games', (l) => l.length === 2);
    expect(both.map((g) => g.gameId).sort()).toEqual([onA.gameId, onB.gameId].sort());
    expect(both.find((g) => g.gameId === onB.gameId)).toMatchObject({ white: { name: 'Carol' }, black: { name: 'Dan' } });
  }

  // a move on B reaches A's follower
  await playMoves(onB, ['d2d4']);
  await liveListUntil(followers[0], 'the move on B', (l) => l.some((g) => g.gameId === onB.gameId && g.moves === 1 && g.lastMove === 'd2d4'));

  // spectators of A's game on both nodes: counted together, for the list and for A's players
  const watchers = [await clients.connect(b.url), await clients.connect(b.url), await clients.connect(a.url)];
  for (const w of watchers) {
    w.send('watchGame', { gameId: onA.gameId });
    await w.next('watchStart');
  }
  await liveListUntil(followers[1], 'three spectators', (l) => l.some((g) => g.gameId === onA.gameId && g.spectators === 3));
  expect((await onA.white.next('spectators', (m) => m.count === 3)).gameId).toBe(onA.gameId);
  expect((await watchers[0].next('spectators', (m) => m.count === 3)).gameId).toBe(onA.gameId);

  // A's game ends: it leaves B's list too
  onA.white.send('resign', { gameId: onA.gameId });
  await liveListUntil(followers[1], 'only B’s game', (l) => l.length === 1 && l[0].gameId === onB.gameId);
});
