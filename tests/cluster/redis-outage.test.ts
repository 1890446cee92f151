/**
 * Redis briefly unreachable (its port cut by a relay, then opened again): the nodes say so on
 * /healthz (503, "redis": false), refuse new searches and new games against the AI with a clear
 * message, and once their lease is uncertain ("lease": false) refuse every move and resignation
 * with nothing played. Once Redis is back they are healthy again without a restart, and the games
 * in progress, against a player and against the AI, play on to their end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { quickAi } from '../ai/quickAi';
import { NEW_GAMES_REFUSED } from '../../server/cluster/node';
import { CANNOT_PLAY_NOW } from '../../server/game/games';
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

async function health(server: RunningServer): Promise<{ status: number; redis: boolean | null; lease: boolean }> {
  const res = await fetch(server.url + '/healthz');
  const body = (await res.json()) as { redis: boolean | null; lease: boolean };
  return { status: res.status, redis: body.redis, lease: body.lease };
}

/** Waits (polling /healthz, at most `ms`) until every node's health passes `ok`. */
async function allReport(what: string, ok: (h: Awaited<ReturnType<typeof health>>) => boolean, ms = 10_000): Promise<void> {
  const until = performance.now() + ms;
  while (!(await Promise.all(servers.map(health))).every(ok)) {
    if (performance.now() > until) throw new Error(`nodes did not all report ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const allAnswer = (status: number) => allReport(`status ${status}`, (h) => h.status === status);


describe('Redis briefly unreachable', () => {
  it('turns the nodes unhealthy and refuses new games, then recovers without a restart and the game plays on', async () => {
    site = testSite();
    proxy = new RedisProxy(hostPort(REDIS_URL));
    await proxy.start();
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ cluster: { ...site.options, redisUrl: proxy.url }, serverSecret: 'x'.repeat(32), ai: quickAi() }));
    const [a, b] = servers;
    const alice = await TestClient.connect(a.url);
    const bob = await TestClient.connect(b.url);
    const carol = await TestClient.connect(b.url);
    const dave = await TestClient.connect(b.url);
    clients.push(alice, bob, carol, dave);
    alice.send('findGame', { username: 'Alice' });
    await alice.next('matchmakingStatus', (m) => m.status === 'queued');
    bob.send('findGame', { username: 'Bob' });
    const [sa] = await Promise.all([alice.next('gameStart'), bob.next('gameStart')]);
    const white = sa.color === 'white' ? alice : bob;
    const p: Pair = { white, black: white === alice ? bob : alice, gameId: sa.gameId as string };
    await playMoves(p, ['e2e4', 'e7e5']);
    // dave plays the AI on node b
    dave.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const aiGameId = (await dave.next('gameCreated')).gameId as string;
    dave.send('playerMoveAI', { gameId: aiGameId, move: { from: 'e2', to: 'e4' } });
    await dave.next('moveMade', (m) => m.gameId === aiGameId, 10_000);

    await proxy.block();
    await allAnswer(503);
    expect((await health(b)).redis).toBe(false);
    carol.send('findGame', { username: 'Carol' });
    const refused = await carol.next('matchmakingStatus');
    expect(refused).toMatchObject({ status: 'idle', message: NEW_GAMES_REFUSED });
    carol.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    expect(await carol.next('error')).toMatchObject({ code: 'unavailable', message: NEW_GAMES_REFUSED });
    // once no node is sure of its lease, nothing is played: a move against a player or the AI, a resignation
    await allReport('an uncertain lease', (h) => !h.lease);
    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'd1', to: 'h5' } });
    expect(await p.white.next('moveRejected')).toMatchObject({ gameId: p.gameId, message: CANNOT_PLAY_NOW.message });
    dave.send('playerMoveAI', { gameId: aiGameId, move: { from: 'g1', to: 'f3' } });
    expect(await dave.next('moveRejected')).toMatchObject({ gameId: aiGameId, message: CANNOT_PLAY_NOW.message });
    dave.send('resign', { gameId: aiGameId });
    expect(await dave.next('error')).toMatchObject(CANNOT_PLAY_NOW);

    await proxy.unblock();
    await allAnswer(200);
    expect((await health(b)).redis).toBe(true);
    // the game against the AI goes on from where it stood: the refused move was not played
    dave.send('playerMoveAI', { gameId: aiGameId, move: { from: 'g1', to: 'f3' } });
    expect(await dave.next('moveMade', (m) => m.gameId === aiGameId, 10_000)).toBeTruthy();
    dave.send('resign', { gameId: aiGameId });
    expect(await dave.next('gameOver', (m) => m.gameId === aiGameId, 10_000)).toMatchObject({ reason: 'resignation' });
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
