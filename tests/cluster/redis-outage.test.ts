/**
 * Redis briefly unreachable (its port cut by a relay, then opened again): the nodes say so on
 * /healthz (503, "redis": false), refuse new searches and new games against the AI with a clear
 * message, and once their lease is uncertain ("lease": false) refuse every move and resignation
 * with nothing played. Once Redis is back they are healthy again without a restart, the games
 * in progress, against a player and against the AI, play on to their end, and a game that ended
 * while Redis was away holds neither player's first search. A game that ends on a node cut off
 * from Redis alone holds neither of its players on the other node: its log holds the end; and
 * once that node's games are taken over, its player on another node is told the end from there,
 * as when the owner vanishes just as the end is written; a rated game's ratingChange follows the
 * end there, whichever node scored it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { openDb, type Db } from '../../server/accounts/db';
import { migrate } from '../../server/accounts/migrate';
import { createArchive, type Archive } from '../../server/archive/index';
import type { AccountsModule } from '../../server/wiring';
import { tokenAccounts } from '../server/tokenAccounts';
import { TEN_PLIES } from '../archive/ratedMoves';
import { quickAi } from '../ai/quickAi';
import { NEW_GAMES_REFUSED } from '../../server/cluster/node';
import { CANNOT_PLAY_NOW } from '../../server/game/games';
import { TestClient, lobbyUntil, playMoves, startTestServer, watchLobby, type Msg, type Pair } from '../server/helpers';
import { nodeName, testSite, until, REDIS_URL, type TestSite } from './site';
import { RedisProxy, hostPort } from './redisProxy';
import { ClusterKeys } from '../../server/cluster/keys';
import { Redis } from 'ioredis';
import pg from 'pg';

let site: TestSite;
/** one relay in front of Redis for each node: cut together (the outage), held back one node at a time */
const relays: RedisProxy[] = [];
/** when a test asks for them, one relay in front of PostgreSQL for each of the two playing nodes */
const dbRelays: RedisProxy[] = [];
const servers: RunningServer[] = [];
const clients: TestClient[] = [];
/** when a test plays a rated game: the accounts' database, and the directory openDb asks for */
let accountsDb: { db: Db; dataDir: string } | null = null;

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all([...relays.splice(0), ...dbRelays.splice(0)].map((r) => r.stop()));
  await accountsDb?.db.close();
  if (accountsDb) rmSync(accountsDb.dataDir, { recursive: true, force: true });
  accountsDb = null;
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

/** Redis goes away for every node, and comes back. */
const blockRedis = () => Promise.all(relays.map((r) => r.block()));
const unblockRedis = () => Promise.all(relays.map((r) => r.unblock()));

/** The node Redis records game `gameId` was played on, once it ended there (null: no record). */
async function playedRecord(gameId: string): Promise<string | null> {
  const redis = new Redis(REDIS_URL);
  try {
    return await redis.get(new ClusterKeys(site.options.prefix).played(gameId));
  } finally {
    redis.disconnect();
  }
}

/** Alice's and Bob's accounts, for a rated game. */
const ACCOUNT_IDS = { Alice: '0b8a2f0e-54a4-4f0e-9d3a-7a0b1c2d3e11', Bob: '0b8a2f0e-54a4-4f0e-9d3a-7a0b1c2d3e12' };

/** Accounts for the site's nodes: Alice's and Bob's, with the real archive in the site's schema. */
interface RatedAccounts {
  /** node `i`'s accounts: its archive writes fail while `failing` holds `i` (its database away) */
  forNode(i: number): AccountsModule;
  failing: Set<number>;
  /** how many of node `i`'s archive writes the archive has answered (the node has heard the answer) */
  answered(i: number): number;
  /** an access token of the account of `name` */
  token(name: keyof typeof ACCOUNT_IDS): Promise<string>;
}

async function ratedAccounts(): Promise<RatedAccounts> {
  const dataDir = mkdtempSync(join(tmpdir(), 'redis-outage-'));
  const db = await openDb({ dataDir, databaseUrl: site.options.databaseUrl, schema: site.options.databaseSchema });
  accountsDb = { db, dataDir };
  await migrate(db);
  for (const id of Object.values(ACCOUNT_IDS)) await db.query(`INSERT INTO users (id, email, encrypted_password) VALUES ($1, $2, 'x')`, [id, `${id}@example.test`]);
  const archive = createArchive(db, pino({ level: 'silent' }), async () => null);
  const { accounts, sign } = await tokenAccounts();
  const failing = new Set<number>();
  const answers: number[] = [];
  const answer = (i: number) => (answers[i] = (answers[i] ?? 0) + 1);
  const nodeArchive = (i: number): Archive => ({
    ...archive,
    store: (game) => (failing.has(i) ? Promise.reject(new Error("this node's database is away")) : archive.store(game).finally(() => answer(i))),
  });
  return {
    forNode: (i) => ({ ...accounts, archive: nodeArchive(i) }),
    failing,
    answered: (i) => answers[i] ?? 0,
    token: (name) => sign({ sub: ACCOUNT_IDS[name] }),
  };
}

/** A new socket on `server`; signed in as `name`'s account when `rated`. */
async function player(server: RunningServer, name: keyof typeof ACCOUNT_IDS, rated?: RatedAccounts): Promise<TestClient> {
  const c = await TestClient.connect(server.url);
  clients.push(c);
  if (!rated) return c;
  c.send('identifyUser', { userId: ACCOUNT_IDS[name], accessToken: await rated.token(name) });
  await c.next('identified');
  return c;
}

/**
 * Two nodes on Redis, each through its relay, Alice's socket on the first and Bob's on the second, in a
 * game together (`ai`: the nodes run the AI too); `idle` more nodes on the site, without players;
 * `dbRelays`: the two reach PostgreSQL through relays too; `rated`: Alice and Bob play signed in,
 * a game the archive rates.
 */
async function twoNodesPlaying(ai: boolean, { idle = 0, dbRelays: relayDb = false, rated = false } = {}): Promise<{ a: RunningServer; b: RunningServer; alice: TestClient; bob: TestClient; p: Pair; accounts?: RatedAccounts }> {
  site = testSite();
  const accounts = rated ? await ratedAccounts() : undefined;
  for (let i = 0; i < 2 + idle; i++) {
    const relay = new RedisProxy(hostPort(REDIS_URL));
    await relay.start();
    relays.push(relay);
    const databaseUrl = relayDb && i < 2 ? await relayedDatabase() : site.options.databaseUrl;
    servers.push(
      await startTestServer({
        cluster: { ...site.options, redisUrl: relay.url, databaseUrl },
        serverSecret: 'x'.repeat(32),
        ...(ai ? { ai: quickAi() } : {}),
        ...(accounts ? { accounts: accounts.forNode(i) } : {}),
      }),
    );
  }
  const [a, b] = servers;
  const alice = await player(a, 'Alice', accounts);
  const bob = await player(b, 'Bob', accounts);
  alice.send('findGame', { username: 'Alice' });
  await alice.next('matchmakingStatus', (m) => m.status === 'queued');
  bob.send('findGame', { username: 'Bob' });
  const [sa] = await Promise.all([alice.next('gameStart'), bob.next('gameStart')]);
  const white = sa.color === 'white' ? alice : bob;
  return { a, b, alice, bob, p: { white, black: white === alice ? bob : alice, gameId: sa.gameId as string }, ...(accounts ? { accounts } : {}) };
}

/** The site's database through a new relay (kept in dbRelays): its URL. */
async function relayedDatabase(): Promise<string> {
  const relay = new RedisProxy(hostPort(site.options.databaseUrl));
  await relay.start();
  dbRelays.push(relay);
  const url = new URL(site.options.databaseUrl);
  url.host = `127.0.0.1:${relay.port}`;
  return url.toString();
}

/** Whether game `gameId`'s log in PostgreSQL holds its end. */
async function logHoldsEnd(gameId: string): Promise<boolean> {
  const db = new pg.Client({ connectionString: site.options.databaseUrl });
  await db.connect();
  try {
    const rows = await db.query(`SELECT 1 FROM "${site.options.databaseSchema}".game_log WHERE game_id = $1 AND body ? 'end'`, [gameId]);
    return rows.rowCount === 1;
  } finally {
    await db.end();
  }
}

interface Side {
  node: RunningServer;
  player: TestClient;
  relay: RedisProxy;
  /** its relay to PostgreSQL, when the test asked for one */
  db?: RedisProxy;
}

/**
 * Of two nodes playing a game, the one that plays it (`owner`, with the player whose socket is
 * there) and the other (`remote`, with the other player), each with its relay to Redis.
 */
async function sides({ a, b, alice, bob }: { a: RunningServer; b: RunningServer; alice: TestClient; bob: TestClient }): Promise<{ owner: Side; remote: Side }> {
  const sideA = { node: a, player: alice, relay: relays[0], db: dbRelays[0] };
  const sideB = { node: b, player: bob, relay: relays[1], db: dbRelays[1] };
  const ownerIsA = ((await (await fetch(a.url + '/healthz')).json()) as { games: number }).games === 1;
  return ownerIsA ? { owner: sideA, remote: sideB } : { owner: sideB, remote: sideA };
}

/**
 * Two nodes playing a game (`ai`: the nodes run the AI too), which the player whose socket is on
 * the node that plays it (`local`) resigns as Redis goes away; once Redis is back, what the other
 * node's subscription brings (the owner's word of the end above all) waits on the way at
 * `remoteRelay` while its commands go through. The caller releases it within a second (longer,
 * the node's resubscription would time out).
 */
async function endedWhileRedisAway(ai: boolean): Promise<{ local: TestClient; remote: TestClient; remoteRelay: RedisProxy; p: Pair }> {
  const playing = await twoNodesPlaying(ai);
  const p = playing.p;
  await playMoves(p, ['e2e4', 'e7e5']);
  const { owner, remote: other } = await sides(playing);
  const [local, remote, remoteRelay] = [owner.player, other.player, other.relay];
  await blockRedis();
  local.send('resign', { gameId: p.gameId });
  expect(await local.next('gameEnd')).toMatchObject({ gameId: p.gameId, reason: 'resignation' });
  remoteRelay.holdReplies('subscription');
  await unblockRedis();
  await allAnswer(200);
  for (const c of [local, remote]) c.drain();
  return { local, remote, remoteRelay, p };
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

    await blockRedis();
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

    await unblockRedis();
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
    const playing = await twoNodesPlaying(false);
    const p = playing.p;
    // the player whose socket is not on the node that plays the game
    const { remote: other } = await sides(playing);
    const remote = other.player;
    if (remote === p.black) await playMoves(p, ['e2e4']);
    const [from, to] = remote === p.white ? ['e2', 'e4'] : ['e7', 'e5'];

    await blockRedis();
    await allAnswer(503);
    remote.send('gameMove', { gameId: p.gameId, move: { from, to } });
    await unblockRedis();
    await allAnswer(200);
    // played, or refused while the owner's lease was still uncertain: either way the player hears
    const played = remote.next('gameMove', (m) => (m.move as { to: string }).to === to, 15_000);
    const refused = remote.next('moveRejected', () => true, 15_000);
    for (const answered of [played, refused]) answered.catch(() => {});
    const answer = await Promise.race([played, refused]);
    if (answer.type === 'moveRejected') expect(answer).toMatchObject({ gameId: p.gameId, message: CANNOT_PLAY_NOW.message });
    const metrics = await (await fetch(other.node.url + '/metrics')).text();
    expect(metrics).toMatch(/chess_cross_node_messages_total\{direction="held"\} [1-9]/);
  }, 40_000);

  it("answers the first search after the outage: a game that ended while Redis was away holds neither player, though the owner's word of its end has not reached the other node yet", async () => {
    const { local, remote, remoteRelay, p } = await endedWhileRedisAway(false);
    local.send('findGame', { username: 'Local' });
    remote.send('findGame', { username: 'Remote' });
    // the other node answers its player's search (the pool is there), or the pool pairs them (the
    // pool is on the owner's node, where the local player hears it): the search was not refused
    const answered = remote.next('matchmakingStatus', () => true, 15_000);
    const paired = local.next('gameStart', (m) => m.gameId !== p.gameId, 15_000);
    for (const waiting of [answered, paired]) waiting.catch(() => {});
    await Promise.race([answered, paired]);
    remoteRelay.releaseReplies('subscription');
    expect(await answered).toMatchObject({ status: 'queued' });
    const starts = await Promise.all([paired, remote.next('gameStart', (m) => m.gameId !== p.gameId, 15_000)]);
    expect(starts[0].gameId).toBe(starts[1].gameId);
  }, 40_000);

  it("starts the first game against the AI asked for after the outage: a game that ended while Redis was away no longer holds its player, though the owner's word of its end has not reached the player's node yet", async () => {
    const { remote, remoteRelay, p } = await endedWhileRedisAway(true);
    remote.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    // refused, it would get an error (in an active game) and no gameCreated
    const created = await remote.next('gameCreated', () => true, 15_000).finally(() => remoteRelay.releaseReplies('subscription'));
    expect(created.gameId).not.toBe(p.gameId);
    expect(remote.received.filter((m) => m.type === 'error')).toEqual([]);
  }, 40_000);

  it("lists the first custom game posted after the outage: a game that ended while Redis was away no longer holds its player, though the owner's word of its end has not reached the player's node yet", async () => {
    const { local, remote, remoteRelay } = await endedWhileRedisAway(false);
    await watchLobby(local);
    remote.send('postHook', { options: { timeControl: { initial: 300, increment: 3 }, rated: false, color: 'white' } });
    // refused, it would get an error (in an active game) and the other node's lobby would stay empty
    const listed = await lobbyUntil(local, "the remote player's game", (hooks) => hooks.some((h) => h.by.id === remote.playerId), 15_000).finally(() =>
      remoteRelay.releaseReplies('subscription'),
    );
    expect(listed).toHaveLength(1);
    expect(remote.received.filter((m) => m.type === 'error')).toEqual([]);
  }, 40_000);
});

/**
 * Two nodes playing a game (`ai` and `idle` as for twoNodesPlaying) whose owner is cut off from
 * Redis alone while its lease still holds: its player resigns, and it sends them the end (`end`).
 * `rated`: a rated game (ten plies), whose owner's archive writes fail when `ownerArchiveFails`.
 */
async function resignedCutOff(ai: boolean, idle = 0, { rated = false, ownerArchiveFails = false } = {}): Promise<{ owner: Side; remote: Side; p: Pair; end: Msg; accounts?: RatedAccounts }> {
  const playing = await twoNodesPlaying(ai, { idle, rated });
  const p = playing.p;
  await playMoves(p, rated ? TEN_PLIES : ['e2e4', 'e7e5']);
  const { owner, remote } = await sides(playing);
  if (ownerArchiveFails) playing.accounts?.failing.add(servers.indexOf(owner.node));
  await owner.relay.block();
  // the owner's lease still holds: the resignation is played and written in the game's log
  owner.player.send('resign', { gameId: p.gameId });
  const end = await owner.player.next('gameEnd');
  expect(end).toMatchObject({ gameId: p.gameId, winner: remote.player === p.white ? 'white' : 'black', reason: 'resignation' });
  return { owner, remote, p, end, ...(playing.accounts ? { accounts: playing.accounts } : {}) };
}

describe("a game's owner cut off from Redis alone", () => {
  it("starts a game against the AI for the other player once their game has ended there: the game's log holds the end the owner cannot record in Redis", async () => {
    const { owner, remote, p } = await resignedCutOff(true);
    remote.player.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    // refused, it would get an error (in an active game) and no gameCreated
    const answers = [remote.player.next('gameCreated'), remote.player.next('error')];
    for (const waiting of answers) waiting.catch(() => {});
    const answer = await Promise.race(answers);
    expect(answer.type).toBe('gameCreated');
    expect(answer.gameId).not.toBe(p.gameId);
    // the site had no record of the end in Redis: the owner has not reached it, and no node took its games over
    expect(await playedRecord(p.gameId)).toBeNull();
    // once the owner reaches Redis again, what it held for the player comes: the end of their game
    await owner.relay.unblock();
    expect(await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 15_000)).toMatchObject({ reason: 'resignation' });
  }, 40_000);

  it("tells the other player how their game ended once the node taking the owner's games over finds the end in its log: the owner's gameEnd, unasked, then again for a rejoin; the owner's own, late, changes nothing", async () => {
    const { owner, remote, p, end } = await resignedCutOff(true);
    // the owner holds the end for the other player while it cannot reach Redis; its lease lapses
    // and the other node takes its games over, this one ended in its log: the player is told there
    expect(await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 15_000)).toEqual(end);
    // the site records the end as kept by the node that took the game over (the owner is still cut off)
    expect(await playedRecord(p.gameId)).toBe(await nodeName(remote.node));
    remote.player.send('rejoinGame', { gameId: p.gameId });
    expect(await remote.player.next('gameEnd', (m) => m.gameId === p.gameId)).toEqual(end);
    // the owner reaches Redis again within the time it holds frames: its own gameEnd comes too
    await owner.relay.unblock();
    expect(await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 15_000)).toEqual(end);
    remote.player.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    expect((await remote.player.next('gameCreated', () => true, 10_000)).gameId).not.toBe(p.gameId);
    expect(remote.player.received.filter((m) => m.type === 'error')).toEqual([]);
  }, 40_000);

  /** The end and the rating change of game `gameId` that `c`'s rejoinGame is answered with (everything before the answer to a request sent after it). */
  async function rejoinAnswer(c: TestClient, gameId: string): Promise<Msg[]> {
    const from = c.received.length;
    c.send('rejoinGame', { gameId });
    await c.roundTrip();
    return c.received.slice(from).filter((m) => m.gameId === gameId && (m.type === 'gameEnd' || m.type === 'ratingChange'));
  }

  it("answers the other player's rejoin with the end and then the ratingChange of a rated game the owner scored while cut off, once another node took its games over", async () => {
    const { owner, remote, p, end, accounts } = await resignedCutOff(false, 0, { rated: true });
    // the owner's archive scored the game: its player there is told at once
    const change = await owner.player.next('ratingChange');
    expect(change).toMatchObject({ gameId: p.gameId, speed: 'rapid' });
    expect(await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 15_000)).toEqual(end);
    // the node that took the game over hands it to the archive after it told the end: stored
    // already, the answer carries the owner's rating change
    const taker = servers.indexOf(remote.node);
    await until('the node that took the game over to hear from the archive', async () => accounts!.answered(taker) > 0);
    expect(await rejoinAnswer(remote.player, p.gameId)).toEqual([end, change]);
  }, 40_000);

  it("scores a rated game whose owner ended it cut off and could not archive it: the node that took it over tells the other player the ratingChange after the end, and again for a rejoin", async () => {
    const { remote, p, end } = await resignedCutOff(false, 0, { rated: true, ownerArchiveFails: true });
    expect(await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 15_000)).toEqual(end);
    const change = await remote.player.next('ratingChange', (m) => m.gameId === p.gameId, 10_000);
    expect(change).toMatchObject({ speed: 'rapid', white: { before: 1500 }, black: { before: 1500 } });
    expect(await rejoinAnswer(remote.player, p.gameId)).toEqual([end, change]);
  }, 40_000);

  it("tells the other player how their game ended when a third node takes the owner's games over: the end reaches their node, which asks the third for it since", async () => {
    const { remote, p, end } = await resignedCutOff(false, 1);
    const third = servers[2]!;
    // the other player's node judges no node dead while its commands go unanswered (its
    // subscription still delivers): the third node takes the owner's games over
    remote.relay.holdReplies('commands');
    const told = await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 15_000).finally(() => remote.relay.releaseReplies('commands'));
    expect(told).toEqual(end);
    expect(await playedRecord(p.gameId)).toBe(await nodeName(third));
    // a rejoin goes to the node that keeps the end, not to the owner, which is still cut off
    remote.player.send('rejoinGame', { gameId: p.gameId });
    expect(await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 10_000)).toEqual(end);
  }, 40_000);

  it("tells the other player how their game ended when the owner vanishes as the end is written: the game is still the owner's in Redis, and the node taking it over finds the end in its log", async () => {
    const playing = await twoNodesPlaying(false, { dbRelays: true });
    const p = playing.p;
    await playMoves(p, ['e2e4', 'e7e5']);
    const { owner, remote } = await sides(playing);
    // the end the owner writes is committed, but the owner does not hear so: it sends nothing it
    // would send after the commit, as a node killed at that instant
    owner.db!.holdReplies('commands');
    try {
      owner.player.send('resign', { gameId: p.gameId });
      await until("the game's log to hold its end", () => logHoldsEnd(p.gameId));
      await owner.relay.block();
      const told = await remote.player.next('gameEnd', (m) => m.gameId === p.gameId, 15_000);
      expect(told).toMatchObject({ winner: remote.player === p.white ? 'white' : 'black', reason: 'resignation' });
      expect(told.pgn).toMatch(/\[Termination "Normal"\][\s\S]*1\. e4 e5/);
    } finally {
      // the owner may close: what it waits for comes
      owner.db!.releaseReplies('commands');
    }
  }, 40_000);
});
