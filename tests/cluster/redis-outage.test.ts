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


/**
 * Two nodes on Redis through the relay, Alice's socket on the first and Bob's on the second, in a
 * game together (`ai`: the nodes run the AI too).
 */
async function twoNodesPlaying(ai: boolean): Promise<{ a: RunningServer; b: RunningServer; alice: TestClient; bob: TestClient; p: Pair }> {
  site = testSite();
  proxy = new RedisProxy(hostPort(REDIS_URL));
  await proxy.start();
  for (let i = 0; i < 2; i++) servers.push(await startTestServer({ cluster: { ...site.options, redisUrl: proxy.url }, serverSecret: 'x'.repeat(32), ...(ai ? { ai: quickAi() } : {}) }));
  const [a, b] = servers;
  const alice = await TestClient.connect(a.url);
  const bob = await TestClient.connect(b.url);
  clients.push(alice, bob);
  alice.send('findGame', { username: 'Alice' });
  await alice.next('matchmakingStatus', (m) => m.status === 'queued');
  bob.send('findGame', { username: 'Bob' });
  const [sa] = await Promise.all([alice.next('gameStart'), bob.next('gameStart')]);
  const white = sa.color === 'white' ? alice : bob;
  return { a, b, alice, bob, p: { white, black: white === alice ? bob : alice, gameId: sa.gameId as string } };
}

/**
 * `c` looks for a game until it is queued, for at most `ms`: just after an outage its node may
 * still hold it in the game that ended until the owner's word of the end arrives.
 */
async function searchWithin(c: TestClient, username: string, ms: number): Promise<void> {
  const until = performance.now() + ms;
  for (;;) {
    c.drain(); // an answer of an earlier search is not this one's
    c.send('findGame', { username });
    const status = await c.next('matchmakingStatus');
    if (status.status === 'queued') return;
    if (performance.now() > until) throw new Error(`${username} was still refused a search after ${ms} ms: ${String(status.message)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Redis briefly unreachable', () => {
  it('turns the nodes unhealthy and refuses new games, then recovers without a restart and the game plays on', async () => {
    const { b, p } = await twoNodesPlaying(true);
    const carol = await TestClient.connect(b.url);
    const dave = await TestClient.connect(b.url);
    clients.push(carol, dave);
    await playMoves(p, ['e2e4', 'e7e5']);
    // dave plays the AI on node b
    dave.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const aiGameId = (await dave.next('gameCreated')).gameId as string;
    dave.send('playerMoveAI', { gameId: aiGameId, move: { from: 'e2', to: 'e4' } });
    await dave.next('gameMove', (m) => m.gameId === aiGameId && m.nextTurn === 'white', 10_000);

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
    expect(await dave.next('gameMove', (m) => m.gameId === aiGameId && m.nextTurn === 'white', 10_000)).toBeTruthy();
    dave.send('resign', { gameId: aiGameId });
    expect(await dave.next('gameEnd', (m) => m.gameId === aiGameId, 10_000)).toMatchObject({ reason: 'resignation' });
    // the game goes on where it stood, to its end
    await playMoves(p, ['d1h5', 'b8c6', 'f1c4', 'g8f6']);
    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'h5', to: 'f7' } });
    const ends = await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
    for (const e of ends as Msg[]) expect(e).toMatchObject({ winner: 'white', reason: 'checkmate' });
    // and new games start again
    carol.send('findGame', { username: 'Carol' });
    await carol.next('matchmakingStatus', (m) => m.status === 'queued');
  }, 30_000);

  it("holds a move across nodes while Redis is away and sends it once Redis is back: the player gets an answer, never silence", async () => {
    const { a, b, alice, bob, p } = await twoNodesPlaying(false);
    // the player whose socket is not on the node that plays the game
    const ownerIsA = ((await (await fetch(a.url + '/healthz')).json()) as { games: number }).games === 1;
    const remote = ownerIsA ? bob : alice;
    if (remote === p.black) await playMoves(p, ['e2e4']);
    const [from, to] = remote === p.white ? ['e2', 'e4'] : ['e7', 'e5'];

    await proxy.block();
    await allAnswer(503);
    remote.send('gameMove', { gameId: p.gameId, move: { from, to } });
    await proxy.unblock();
    await allAnswer(200);
    // played, or refused while the owner's lease was still uncertain: either way the player hears
    const played = remote.next('gameMove', (m) => (m.move as { to: string }).to === to, 15_000);
    const refused = remote.next('moveRejected', () => true, 15_000);
    for (const answered of [played, refused]) answered.catch(() => {});
    const answer = await Promise.race([played, refused]);
    if (answer.type === 'moveRejected') expect(answer).toMatchObject({ gameId: p.gameId, message: CANNOT_PLAY_NOW.message });
    const metrics = await (await fetch((ownerIsA ? b : a).url + '/metrics')).text();
    expect(metrics).toMatch(/chess_cross_node_messages_total\{direction="held"\} [1-9]/);
  }, 40_000);
  it('clears the seats of a game that ended while Redis was away once it is back, so its players can be paired again', async () => {
    const { a, b, alice, bob, p } = await twoNodesPlaying(false);
    await playMoves(p, ['e2e4', 'e7e5']);
    // the player whose socket is on the node that plays the game resigns as Redis goes away
    const ownerIsA = ((await (await fetch(a.url + '/healthz')).json()) as { games: number }).games === 1;
    const local = ownerIsA ? alice : bob;
    await proxy.block();
    local.send('resign', { gameId: p.gameId });
    expect(await local.next('gameEnd')).toMatchObject({ gameId: p.gameId, reason: 'resignation' });
    await proxy.unblock();
    await allAnswer(200);
    // both look for a game again: within a few seconds neither is held by the game that is over
    // (the owner clears its seats in Redis as soon as it is back)
    await searchWithin(alice, 'Alice', 5000);
    await searchWithin(bob, 'Bob', 5000);
    const starts = await Promise.all([alice.next('gameStart', (m) => m.gameId !== p.gameId, 15_000), bob.next('gameStart', (m) => m.gameId !== p.gameId, 15_000)]);
    expect(starts[0].gameId).toBe(starts[1].gameId);
  }, 40_000);
});
