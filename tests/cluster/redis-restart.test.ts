/**
 * Redis restarted empty (SHUTDOWN NOSAVE, then started again with nothing, as a Redis without
 * persistence comes back): the nodes lose their leases and every key of the site, and find them
 * gone once Redis answers. The truth of each game is its log in PostgreSQL: each node owns its
 * games again, their players keep their seats on whichever node their socket is, and every game,
 * against a player (on one node or across two) or against the AI, plays on to its end. Nothing is
 * dropped or aborted. A game another node took over meanwhile (its first node held up past its
 * lease) stays with the node that played it last: the log has moves the first node did not write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { RunningServer } from '../../server/app';
import { ClusterKeys } from '../../server/cluster/keys';
import { quickAi } from '../ai/quickAi';
import { TestClient, playMoves, startTestServer, type Msg, type Pair } from '../server/helpers';
import { freePort, nodeEnv } from './balancedSite';
import { killProcess, startProcess, type Proc } from '../server/serverProcess';
import { testSite, until, type TestSite } from './site';

let site: TestSite | undefined;
let redisDir = '';
let redisServer: ChildProcess | null = null;
/** resolves once the test's Redis process has ended */
let redisExited: Promise<unknown> = Promise.resolve();
const servers: RunningServer[] = [];
const procs: Proc[] = [];
const clients: TestClient[] = [];

afterEach(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGCONT');
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(procs.splice(0).map(killProcess));
  redisServer?.kill('SIGKILL');
  redisServer = null;
  if (redisDir) rmSync(redisDir, { recursive: true, force: true });
  // the site's schema (its keys went with the test's own Redis)
  await site?.destroy();
  site = undefined;
});

/** A Redis of the test's own, without persistence (as deploy/compose.yaml ran it), on `port`. */
async function startRedis(port: number): Promise<void> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir], { stdio: 'ignore' });
  redisServer = child;
  redisExited = new Promise((r) => child.once('exit', r));
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on('error', () => {});
  try {
    await until('Redis to answer', async () => (await probe.ping().catch(() => '')) === 'PONG', 10_000);
  } finally {
    probe.disconnect();
  }
}

/** Stops the test's Redis without saving (SHUTDOWN NOSAVE) and waits until its process has ended. */
async function stopRedisNoSave(port: number): Promise<void> {
  const admin = new Redis({ port, host: '127.0.0.1', retryStrategy: () => null });
  admin.on('error', () => {});
  await admin.call('SHUTDOWN', 'NOSAVE').catch(() => {});
  admin.disconnect();
  await redisExited;
}

async function health(server: { url: string }): Promise<{ status: number; lease: boolean }> {
  const res = await fetch(server.url + '/healthz');
  return { status: res.status, lease: ((await res.json()) as { lease: boolean }).lease };
}

async function connect(server: { url: string }, guest: { playerId: string; secret: string } | null = null): Promise<TestClient> {
  const c = await TestClient.connect(server.url, guest);
  clients.push(c);
  return c;
}

async function pair(first: TestClient, second: TestClient): Promise<Pair> {
  first.send('findGame', { username: 'First' });
  await first.next('matchmakingStatus', (m) => m.status === 'queued');
  second.send('findGame', { username: 'Second' });
  const [a, b] = await Promise.all([first.next('gameStart'), second.next('gameStart')]);
  expect(a.gameId).toBe(b.gameId);
  const white = a.color === 'white' ? first : second;
  return { white, black: white === first ? second : first, gameId: a.gameId as string };
}

/**
 * The test's Redis and two server processes on it (node a started first: it runs the pool), with
 * a game across them, played on node a.
 */
async function twoNodeProcesses(): Promise<{ port: number; a: Proc; b: Proc; onA: TestClient; onB: TestClient; p: Pair; site: TestSite }> {
  redisDir = mkdtempSync(join(tmpdir(), 'redis-restart-'));
  const port = await freePort();
  await startRedis(port);
  const started = testSite();
  site = started;
  for (const i of [1, 2]) procs.push(await startProcess({ ...nodeEnv(started, join(redisDir, `node${i}`)), REDIS_URL: `redis://127.0.0.1:${port}` }));
  const [a, b] = procs;
  const onA = await connect(a);
  const onB = await connect(b);
  return { port, a, b, onA, onB, p: await pair(onA, onB), site: started };
}

describe('Redis restarted empty', () => {
  it('loses no game: each node owns its games again from the log, and every game plays on to its end', async () => {
    redisDir = mkdtempSync(join(tmpdir(), 'redis-restart-'));
    const port = await freePort();
    await startRedis(port);
    site = testSite();
    const options = { ...site.options, redisUrl: `redis://127.0.0.1:${port}` };
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ cluster: options, serverSecret: 'x'.repeat(32), ai: quickAi() }));
    const [a, b] = servers;
    // a game across the two nodes, one on node b alone, and one against the AI on node b
    const across = await pair(await connect(a), await connect(b));
    const onB = await pair(await connect(b), await connect(b));
    for (const p of [across, onB]) await playMoves(p, ['e2e4', 'e7e5']);
    const solo = await connect(b);
    solo.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const aiGameId = (await solo.next('gameCreated')).gameId as string;
    solo.send('playerMoveAI', { gameId: aiGameId, move: { from: 'e2', to: 'e4' } });
    await solo.next('gameMove', (m) => m.gameId === aiGameId && m.nextTurn === 'white', 10_000);

    // Redis goes away without saving; the nodes notice their leases can no longer be sure
    await stopRedisNoSave(port);
    await until('every node to stop playing', async () => (await Promise.all(servers.map(health))).every((h) => !h.lease));
    // ... and it comes back empty
    await startRedis(port);
    await until('every node to play again', async () => (await Promise.all(servers.map(health))).every((h) => h.status === 200 && h.lease));

    // each game's owner is in Redis again, and its players' seats
    const redis = new Redis({ port, host: '127.0.0.1' });
    const keys = new ClusterKeys(options.prefix);
    try {
      await until('the owners to be known again', async () => (await redis.mget(keys.owner(across.gameId), keys.owner(onB.gameId), keys.owner(aiGameId))).every((o) => o !== null));
      for (const p of [across, onB]) {
        for (const c of [p.white, p.black]) expect(await redis.get(keys.seat(c.playerId))).toBe(p.gameId);
      }
    } finally {
      redis.disconnect();
    }
    // the game against the AI is one of the nodes' games like the others
    expect(servers.map((s) => s.stats().liveGames).reduce((x, y) => x + y)).toBe(3);

    // every player finds their game on their own node, and every game plays on to its end
    for (const p of [across, onB]) {
      for (const c of [p.white, p.black]) {
        c.send('checkActiveGame', {});
        expect(await c.next('activeGameStatus', (m) => m.gameId !== null)).toMatchObject({ gameId: p.gameId });
      }
      await playMoves(p, ['d1h5', 'b8c6', 'f1c4', 'g8f6']);
      p.white.send('gameMove', { gameId: p.gameId, move: { from: 'h5', to: 'f7' } });
      const ends = (await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')])) as Msg[];
      for (const e of ends) expect(e).toMatchObject({ gameId: p.gameId, winner: 'white', reason: 'checkmate' });
    }
    solo.send('playerMoveAI', { gameId: aiGameId, move: { from: 'g1', to: 'f3' } });
    expect(await solo.next('gameMove', (m) => m.gameId === aiGameId && m.nextTurn === 'white', 10_000)).toBeTruthy();
    solo.send('resign', { gameId: aiGameId });
    expect(await solo.next('gameEnd', (m) => m.gameId === aiGameId, 10_000)).toMatchObject({ reason: 'resignation' });
    // nobody saw a game dropped or aborted
    for (const c of clients) expect(c.received.filter((m) => m.type === 'gameEnd' && m.reason === 'aborted')).toEqual([]);
    // and new games start again
    const [x, y] = [await connect(a), await connect(b)];
    await pair(x, y);
  }, 60_000);

  it('leaves a game another node took over to that node: the node that lost it does not claim it back', async () => {
    const { port, a, b, onA, onB, p, site: started } = await twoNodeProcesses();
    // the player on node b is to move when node a stops
    await playMoves(p, p.white === onB ? ['e2e4', 'e7e5'] : ['e2e4', 'e7e5', 'g1f3']);
    const keys = new ClusterKeys(started.options.prefix);
    const redis = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 50, maxRetriesPerRequest: null });
    redis.on('error', () => {});
    try {
      const nodeB = ((await (await fetch(b.url + '/healthz')).json()) as { node: string }).node;
      // node a is held up past its lease: node b takes the game over, and its player moves there
      a.child.kill('SIGSTOP');
      await until('node b to take the game over', async () => (await redis.get(keys.owner(p.gameId))) === nodeB);
      // the takeover shows the player on node b the game as it stands
      await onB.next('gameStart', (m) => m.gameId === p.gameId, 10_000);
      const [from, to] = p.white === onB ? ['d2', 'd4'] : ['b8', 'c6'];
      onB.send('gameMove', { gameId: p.gameId, move: { from, to } });
      await onB.next('gameMove', (m) => (m.move as { to: string }).to === to, 10_000);
      // Redis restarts empty; node a goes on first, while node b is held up in turn: node a finds
      // the game without an owner, and the log with a move it did not write; it leaves the game
      b.child.kill('SIGSTOP');
      await stopRedisNoSave(port);
      await startRedis(port);
      a.child.kill('SIGCONT');
      await until('node a to play again', async () => (await health(a)).lease);
      await until('node a to drop the game', async () => ((await (await fetch(a.url + '/healthz')).json()) as { games: number }).games === 0);
      expect(await redis.get(keys.owner(p.gameId))).toBe(null);
      // node b goes on and owns the game again
      b.child.kill('SIGCONT');
      await until('the game to be owned again', async () => (await redis.get(keys.owner(p.gameId))) !== null);
      expect(await redis.get(keys.owner(p.gameId))).toBe(nodeB);
    } finally {
      redis.disconnect();
    }
    // the player whose socket was on node a comes back through node b and plays on
    const back = await connect(b, { playerId: onA.playerId, secret: onA.secret });
    back.send('rejoinGame', { gameId: p.gameId });
    const start = await back.next('gameStart', (m) => m.gameId === p.gameId, 10_000);
    const plies = (start.currentState as { moves: unknown[] }).moves.length;
    expect(plies).toBe(p.white === onB ? 3 : 4);
    const [from, to] = p.white === onB ? ['d7', 'd5'] : ['f1', 'c4'];
    back.send('gameMove', { gameId: p.gameId, move: { from, to } });
    await Promise.all([back.next('gameMove', (m) => (m.move as { to: string }).to === to), onB.next('gameMove', (m) => (m.move as { to: string }).to === to)]);
  }, 60_000);

  it("takes over the games of a node that died while Redis was away, from their log", async () => {
    const { port, a, b, onA, onB, p, site: started } = await twoNodeProcesses();
    await playMoves(p, ['e2e4', 'e7e5']);
    // Redis goes away; node a dies meanwhile; Redis comes back empty: nobody knows node a was there
    await stopRedisNoSave(port);
    await killProcess(a);
    await startRedis(port);
    // node b finds the game without an owner and takes it over: its player sees it as it stands
    const shown = await onB.next('gameStart', (m) => m.gameId === p.gameId, 20_000);
    expect((shown.currentState as { moves: unknown[] }).moves).toHaveLength(2);
    // the player whose node died comes back through node b and the game plays on
    const back = await connect(b, { playerId: onA.playerId, secret: onA.secret });
    back.send('checkActiveGame', {});
    expect(await back.next('activeGameStatus', (m) => m.gameId !== null, 10_000)).toMatchObject({ gameId: p.gameId });
    const white = p.white === onB ? onB : back;
    const black = white === onB ? back : onB;
    await playMoves({ white, black, gameId: p.gameId }, ['g1f3', 'b8c6']);
  }, 60_000);
});
