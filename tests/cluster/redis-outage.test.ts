/**
 * Redis briefly unreachable (its port cut by a relay, then opened again): the nodes say so on
 * /healthz (503, "redis": false), refuse new searches with a clear message, and once Redis is
 * back they are healthy again without a restart, and the game in progress plays on to its end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { NEW_GAMES_REFUSED } from '../../server/cluster/node';
import { TestClient, playMoves, startTestServer, type Msg, type Pair } from '../server/helpers';
import { testSite, REDIS_URL, type TestSite } from './site';
import { RedisProxy, hostPort } from './redisProxy';

let site: TestSite;
let proxy: RedisProxy;
const servers: RunningServer[] = [];
const clients: TestClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await proxy?.stop();
  await site?.destroy();
});

async function health(server: RunningServer): Promise<{ status: number; redis: boolean | null }> {
  const res = await fetch(server.url + '/healthz');
  const body = (await res.json()) as { redis: boolean | null };
  return { status: res.status, redis: body.redis };
}

/** Waits (polling /healthz, at most `ms`) until every node answers `status`. */
async function allAnswer(status: number, ms = 10_000): Promise<void> {
  const until = performance.now() + ms;
  while ((await Promise.all(servers.map(health))).some((h) => h.status !== status)) {
    if (performance.now() > until) throw new Error(`nodes did not all answer ${status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Redis briefly unreachable', () => {
  it('turns the nodes unhealthy and refuses new games, then recovers without a restart and the game plays on', async () => {
    site = testSite();
    proxy = new RedisProxy(hostPort(REDIS_URL));
    await proxy.start();
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ cluster: { ...site.options, redisUrl: proxy.url }, serverSecret: 'x'.repeat(32) }));
    const [a, b] = servers;
    const alice = await TestClient.connect(a.url);
    const bob = await TestClient.connect(b.url);
    const carol = await TestClient.connect(b.url);
    clients.push(alice, bob, carol);
    alice.send('findGame', { username: 'Alice' });
    await alice.next('matchmakingStatus', (m) => m.status === 'queued');
    bob.send('findGame', { username: 'Bob' });
    const [sa] = await Promise.all([alice.next('gameStart'), bob.next('gameStart')]);
    const white = sa.color === 'white' ? alice : bob;
    const p: Pair = { white, black: white === alice ? bob : alice, gameId: sa.gameId as string };
    await playMoves(p, ['e2e4', 'e7e5']);

    await proxy.block();
    await allAnswer(503);
    expect((await health(b)).redis).toBe(false);
    carol.send('findGame', { username: 'Carol' });
    const refused = await carol.next('matchmakingStatus');
    expect(refused).toMatchObject({ status: 'idle', message: NEW_GAMES_REFUSED });

    await proxy.unblock();
    await allAnswer(200);
    expect((await health(b)).redis).toBe(true);
    // the game goes on where it stood, to its end
    await playMoves(p, ['d1h5', 'b8c6', 'f1c4', 'g8f6']);
    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'h5', to: 'f7' } });
    const ends = await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
    for (const e of ends as Msg[]) expect(e).toMatchObject({ winner: 'white', reason: 'checkmate' });
    // and new games start again
    carol.send('findGame', { username: 'Carol' });
    await carol.next('matchmakingStatus', (m) => m.status === 'queued');
  }, 30_000);
});
