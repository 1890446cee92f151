/**
 * Spectators across the nodes of one site in this process, on the test Redis and PostgreSQL: a
 * spectator whose socket is on node B watches a game node A plays as it would on A; the owner
 * relays each frame once to B however many watch there (counted on the Redis channels), and
 * stops once B's last watcher is gone; a game nobody plays is refused; when A leaves, spectators
 * on the node that takes the game over and on a third node follow it on; when A alone loses
 * Redis for a moment, B's spectators are shown what they missed once A has it back (the end too
 * when A relayed it before it knew its connection was gone), and a watch A never heard (or heard
 * late) is asked again at B's beats.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { RunningServer, StartServerOptions } from '../../server/app';
import type { Archive, FinishedGame, StoreResult } from '../../server/archive/index';
import type { PlayerRating } from '../../machines/protocol/messages';
import { readBusMessage, type BusMessage } from '../../server/cluster/messages';
import { TestClient, playMoves, startTestServer, type Msg, type Pair } from '../server/helpers';
import { nodeName, testSite, until, REDIS_URL, type TestSite } from './site';
import { RedisProxy, hostPort } from './redisProxy';

let site: TestSite;
const servers: RunningServer[] = [];
const clients: TestClient[] = [];
let sniffer: BusSniffer | null = null;
let relay: RedisProxy | null = null;

afterEach(async () => {
  sniffer?.stop();
  sniffer = null;
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await relay?.stop();
  relay = null;
  await site?.destroy();
});

async function nodes(n: number, opts: StartServerOptions = {}): Promise<RunningServer[]> {
  site = testSite();
  for (let i = 0; i < n; i++) servers.push(await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32), ...opts }));
  return [...servers];
}

const twoNodes = (opts: StartServerOptions = {}) => nodes(2, opts);

/** The archive's contract in memory: every game is stored, none rated. */
class MemoryArchive implements Archive {
  readonly stored: FinishedGame[] = [];
  async store(game: FinishedGame): Promise<StoreResult> {
    this.stored.push(game);
    return { stored: true, ratings: null };
  }
  async ratingOf(): Promise<PlayerRating> {
    return { rating: 1500, provisional: true };
  }
  async claimGuestGames(): Promise<number> {
    return 0;
  }
  readonly handler = () => ({ status: 404 });
}

/** An archive that stores nothing until the test opens it. */
class GatedArchive extends MemoryArchive {
  private opened: () => void = () => {};
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));
  open(): void {
    this.opened();
  }
  override async store(game: FinishedGame): Promise<StoreResult> {
    await this.gate;
    return super.store(game);
  }
}

/** Guests only, with an archive of finished games. */
function archiving(archive: Archive): StartServerOptions {
  return { accounts: { mount() {}, verifyAccessToken: async () => null, close: async () => {}, archive } };
}

async function connect(server: RunningServer): Promise<TestClient> {
  const c = await TestClient.connect(server.url);
  clients.push(c);
  return c;
}

/** Two players whose sockets are on `server`, paired into one game (the first to search gets white): `server` plays it. */
async function gameOn(server: RunningServer, names = ['Alice', 'Bob']): Promise<Pair> {
  const first = await connect(server);
  const second = await connect(server);
  first.send('findGame', { username: names[0] });
  await first.next('matchmakingStatus', (m) => m.status === 'queued');
  second.send('findGame', { username: names[1] });
  const [s1, s2] = await Promise.all([first.next('gameStart'), second.next('gameStart')]);
  expect(s1.gameId).toBe(s2.gameId);
  const white = s1.color === 'white' ? first : second;
  return { white, black: white === first ? second : first, gameId: s1.gameId as string };
}

async function watching(server: RunningServer, gameId: string): Promise<{ c: TestClient; start: Msg }> {
  const c = await connect(server);
  c.send('watchGame', { gameId });
  return { c, start: await c.next('watchStart') };
}

interface Heard {
  to: string;
  msg: BusMessage;
}

/** Every message between the site's nodes, read from their Redis channels, in the order Redis delivers them. */
class BusSniffer {
  readonly heard: Heard[] = [];
  private waiters: { pred: (h: Heard) => boolean; resolve: () => void }[] = [];
  private constructor(private readonly redis: Redis) {}

  static async start(prefix: string): Promise<BusSniffer> {
    const s = new BusSniffer(new Redis(REDIS_URL));
    s.redis.on('pmessage', (_pattern: string, channel: string, text: string) => s.hear(channel.slice(channel.lastIndexOf(':') + 1), text));
    await s.redis.psubscribe(`${prefix}:node:*`);
    return s;
  }

  private hear(to: string, text: string): void {
    const msg = readBusMessage(text);
    if (!msg) return;
    const h = { to, msg };
    this.heard.push(h);
    this.waiters = this.waiters.filter((w) => (w.pred(h) ? (w.resolve(), false) : true));
  }

  /** Resolves once a message matching `pred` has been heard (at once if it was). */
  until(pred: (h: Heard) => boolean, timeoutMs = 5000): Promise<void> {
    if (this.heard.some(pred)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('not heard on the bus')), timeoutMs);
      this.waiters.push({ pred, resolve: () => (clearTimeout(t), resolve()) });
    });
  }

  stop(): void {
    this.redis.disconnect();
  }
}

/** A relayed spectator frame of game `gameId` whose text has `needle`. */
const relayed = (gameId: string, needle: string) => (h: Heard) => h.msg.k === 'wframe' && h.msg.g === gameId && h.msg.t.includes(needle);
const relayedMoves = (heard: Heard[], gameId: string) => heard.filter(relayed(gameId, '"type":"gameMove"'));

describe('a spectator on another node than the game', () => {
  it('writes in the spectator room: the line goes to the owner, which keeps it and relays it to every node watching; never to the players', async () => {
    const [a, b] = await twoNodes();
    const p = await gameOn(a);
    const here = await watching(a, p.gameId);
    const there = await watching(b, p.gameId);
    sniffer = await BusSniffer.start(site.options.prefix);
    there.c.send('chatSend', { gameId: p.gameId, room: 'spectator', text: 'hello from B' });
    const line = { type: 'chatMessage', gameId: p.gameId, room: 'spectator', name: 'Anonymous Player', guest: true, text: 'hello from B' };
    expect(await there.c.next('chatMessage')).toEqual(line);
    expect(await here.c.next('chatMessage')).toEqual(line);
    expect(sniffer.heard.filter((h) => h.msg.k === 'chat')).toHaveLength(1);
    await playMoves(p, ['e2e4']);
    expect([...p.white.received, ...p.black.received].filter((m) => m.type === 'chatMessage')).toEqual([]);
    // a spectator who comes later, on B, is shown the room's line from the owner
    const late = await watching(b, p.gameId);
    expect(late.start.chat).toEqual([{ room: 'spectator', name: 'Anonymous Player', guest: true, text: 'hello from B' }]);
  });

  it('gets the game as it stands, every move and clock as the players get them, and the end; nothing for players only', async () => {
    const [a, b] = await twoNodes({ clockReportMs: 1_000 }); // a clock report a second into a turn, not ten
    const p = await gameOn(a);
    await playMoves(p, ['e2e4', 'e7e5']);
    const { c, start } = await watching(b, p.gameId);
    expect(start).toMatchObject({
      gameId: p.gameId,
      white: { name: 'Alice' },
      black: { name: 'Bob' },
      timerDuration: 600,
      currentState: { turn: 'white', seq: 2, moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }] },
    });
    for (const secret of [p.white.playerId, p.black.playerId, p.white.secret, p.black.secret]) expect(JSON.stringify(start)).not.toContain(secret);

    const [played] = await playMoves(p, ['g1f3']);
    expect(await c.next('gameMove')).toEqual(played);
    // black's clock runs: its next report comes to the spectator as to the players
    const tick = await c.next('timerUpdate');
    await p.white.next('timerUpdate', (m) => JSON.stringify(m) === JSON.stringify(tick));

    // the players' own business stays theirs: a draw offer, a rejected move
    p.black.send('offerDraw', { gameId: p.gameId });
    await p.white.next('drawOffer');
    p.black.send('gameMove', { gameId: p.gameId, move: { from: 'a7', to: 'a4' } });
    await p.black.next('moveRejected');
    p.black.send('resign', { gameId: p.gameId });
    const end = await p.white.next('gameEnd');
    expect(await c.next('gameEnd')).toEqual(end);
    const seen = c.received.map((m) => m.type).filter((t) => t !== 'playerCount' && t !== 'timerUpdate' && t !== 'spectators');
    expect(seen).toEqual(['connectionAck', 'watchStart', 'gameMove', 'gameEnd']);

    // the game is over: watching it again is refused
    c.send('watchGame', { gameId: p.gameId });
    expect(await c.next('error')).toMatchObject({ code: 'unknown_game', gameId: p.gameId });
  });

  it('costs one relayed frame per move however many watch on that node; unwatch and close stop the relay', async () => {
    const [a, b] = await twoNodes();
    sniffer = await BusSniffer.start(site.options.prefix);
    const [nodeA, nodeB] = await Promise.all([nodeName(a), nodeName(b)]);
    const g1 = await gameOn(a, ['A1', 'B1']);
    const g2 = await gameOn(a, ['A2', 'B2']);
    const first = await watching(b, g1.gameId);
    const second = await watching(b, g1.gameId);
    expect(second.start.currentState).toMatchObject({ seq: 0 });

    await playMoves(g1, ['e2e4', 'e7e5']);
    for (const w of [first, second]) {
      expect(await w.c.next('gameMove', (m) => m.seq === 1)).toMatchObject({ san: 'e4' });
      expect(await w.c.next('gameMove', (m) => m.seq === 2)).toMatchObject({ san: 'e5' });
    }
    await sniffer.until(relayed(g1.gameId, '"seq":2'));
    const moves = relayedMoves(sniffer.heard, g1.gameId);
    expect(moves.map((h) => h.to)).toEqual([nodeB, nodeB]);
    // the owner was asked at most once per watcher (once while an answer is on its way)
    const asked = sniffer.heard.filter((h) => h.msg.k === 'watch');
    expect(asked.length).toBeLessThanOrEqual(2);
    expect(asked.every((h) => h.to === nodeA)).toBe(true);

    // one watcher leaves: the other still follows, through the same single relay
    first.c.send('unwatchGame', { gameId: g1.gameId });
    expect(await first.c.next('watchStopped')).toEqual({ type: 'watchStopped', gameId: g1.gameId });
    await playMoves(g1, ['g1f3']);
    expect(await second.c.next('gameMove', (m) => m.seq === 3)).toMatchObject({ san: 'Nf3' });
    await sniffer.until(relayed(g1.gameId, '"seq":3'));
    expect(relayedMoves(sniffer.heard, g1.gameId)).toHaveLength(3);
    expect(first.c.received.some((m) => m.type === 'gameMove' && m.seq === 3)).toBe(false);
    expect(sniffer.heard.some((h) => h.msg.k === 'unwatch')).toBe(false);

    // the last one closes its socket: node B tells the owner, which relays no more
    await second.c.close();
    await sniffer.until((h) => h.msg.k === 'unwatch' && h.msg.g === g1.gameId && h.to === nodeA);
    // a watcher of the other game: once it has its watchStart, the owner has read B's unwatch (one channel, in order)
    const other = await watching(b, g2.gameId);
    await playMoves({ white: g1.black, black: g1.white, gameId: g1.gameId }, ['b8c6']); // black's turn
    await playMoves(g2, ['d2d4']);
    expect(await other.c.next('gameMove')).toMatchObject({ gameId: g2.gameId, san: 'd4' });
    // the owner relayed g2's move after g1's: once g2's is heard, a relay of g1's would have been
    await sniffer.until(relayed(g2.gameId, '"seq":1'));
    expect(relayedMoves(sniffer.heard, g1.gameId)).toHaveLength(3);
  });

  it('with an archive, hears gameArchived once the owner has stored the game', async () => {
    const archive = new MemoryArchive();
    const [a, b] = await twoNodes(archiving(archive));
    const p = await gameOn(a);
    const { c } = await watching(b, p.gameId);
    await playMoves(p, ['e2e4', 'e7e5']);
    p.white.send('resign', { gameId: p.gameId });
    expect(await c.next('gameEnd')).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'resignation' });
    expect(await c.next('gameArchived')).toEqual({ type: 'gameArchived', gameId: p.gameId });
    expect(archive.stored.map((g) => g.id)).toEqual([p.gameId]);
  });

  it('is refused a game nobody plays, as on one node', async () => {
    const [, b] = await twoNodes();
    const c = await connect(b);
    c.send('watchGame', { gameId: 'game_nosuchgame' });
    expect(await c.next('error')).toMatchObject({ code: 'unknown_game', gameId: 'game_nosuchgame', message: 'This game is not being played now.' });
    c.send('unwatchGame', { gameId: 'game_nosuchgame' });
    expect(await c.next('error')).toMatchObject({ code: 'not_watching' });
  });

  it('keeps to its own node\'s limits', async () => {
    site = testSite();
    const a = await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32) });
    servers.push(a);
    const b = await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32), watch: { gamesPerSocket: 1, watchersPerGame: 1, watchersTotal: 10 } });
    servers.push(b);
    const g1 = await gameOn(a, ['A1', 'B1']);
    const g2 = await gameOn(a, ['A2', 'B2']);
    const { c } = await watching(b, g1.gameId);
    c.send('watchGame', { gameId: g2.gameId });
    expect(await c.next('error')).toMatchObject({ code: 'watch_limit', gameId: g2.gameId });
    const other = await connect(b);
    other.send('watchGame', { gameId: g1.gameId });
    expect(await other.next('error')).toMatchObject({ code: 'watchers_full', gameId: g1.gameId });
    // a repeated watchGame is a resync: a fresh watchStart, counted once
    c.send('watchGame', { gameId: g1.gameId });
    expect(await c.next('watchStart')).toMatchObject({ gameId: g1.gameId });
  });
});

describe('the owner leaving the site', () => {
  it('spectators on the node that takes the game over and on another get a fresh watchStart and follow on', async () => {
    const [a, b, c] = await nodes(3);
    const white = await connect(a);
    const black = await connect(b);
    white.send('findGame', { username: 'Alice' });
    await white.next('matchmakingStatus', (m) => m.status === 'queued');
    black.send('findGame', { username: 'Bob' });
    const [sw] = await Promise.all([white.next('gameStart'), black.next('gameStart')]);
    expect(sw.color).toBe('white');
    const p: Pair = { white, black, gameId: sw.gameId as string };
    expect(a.stats().liveGames).toBe(1); // the first to search is on a: a plays it
    await playMoves(p, ['e2e4']);
    // whichever of b and c takes the game over, one spectator is on the new owner and one is not
    const onB = await watching(b, p.gameId);
    const onC = await watching(c, p.gameId);

    await servers.shift()!.close();
    for (const w of [onB, onC]) {
      const again = await w.c.next('watchStart', () => true, 15_000);
      expect(again.currentState).toMatchObject({ seq: 1, turn: 'black' });
    }
    expect(b.stats().liveGames + c.stats().liveGames).toBe(1);
    black.send('gameMove', { gameId: p.gameId, move: { from: 'e7', to: 'e5' } });
    for (const w of [onB, onC]) expect(await w.c.next('gameMove')).toMatchObject({ seq: 2, san: 'e5' });
  }, 30_000);
});

describe('the owner alone losing Redis for a moment', () => {
  /** Node A reaches Redis through a relay the test can cut, node B directly. */
  async function ownerBehindRelay(opts: StartServerOptions = {}): Promise<{ a: RunningServer; b: RunningServer; cut: RedisProxy }> {
    site = testSite();
    const cut = (relay = new RedisProxy(hostPort(REDIS_URL)));
    await cut.start();
    servers.push(await startTestServer({ cluster: { ...site.options, redisUrl: cut.url }, serverSecret: 'x'.repeat(32), ...opts }));
    servers.push(await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32), ...opts }));
    return { a: servers[0], b: servers[1], cut };
  }

  const redisOf = async (server: RunningServer) => ((await (await fetch(server.url + '/healthz')).json()) as { redis: boolean | null }).redis;

  /** A's relay is cut, and A knows it (what it relays from now on is lost); its lease still holds for a moment, so it plays on. */
  async function cutOff(a: RunningServer, cut: RedisProxy): Promise<void> {
    await cut.block();
    await until('node A to see Redis gone', async () => (await redisOf(a)) === false);
  }

  it("shows B's spectator the move played while A could not relay it: a fresh watchStart once A has Redis again, then the game's frames", async () => {
    const { a, b, cut } = await ownerBehindRelay();
    const p = await gameOn(a);
    const { c } = await watching(b, p.gameId);
    await playMoves(p, ['e2e4']);
    await c.next('gameMove', (m) => m.seq === 1);

    await cutOff(a, cut);
    await playMoves({ white: p.black, black: p.white, gameId: p.gameId }, ['e7e5']); // black's turn
    await cut.unblock();
    const again = await c.next('watchStart', () => true, 10_000);
    expect(again).toMatchObject({ gameId: p.gameId, white: { name: 'Alice' }, currentState: { seq: 2, turn: 'white' } });
    // the move lost on the way never reached the spectator as a frame: the watchStart made it good
    expect(c.received.some((m) => m.type === 'gameMove' && m.seq === 2)).toBe(false);
    await playMoves(p, ['g1f3']);
    expect(await c.next('gameMove')).toMatchObject({ seq: 3, san: 'Nf3' });
  }, 30_000);

  /** A plays a game it archives (in memory), which B's spectator `c` has followed for two moves. */
  async function archivedGameWatchedOnB(): Promise<{ a: RunningServer; cut: RedisProxy; archive: MemoryArchive; p: Pair; c: TestClient }> {
    const archive = new MemoryArchive();
    const { a, b, cut } = await ownerBehindRelay(archiving(archive));
    const p = await gameOn(a);
    const { c } = await watching(b, p.gameId);
    await playMoves(p, ['e2e4', 'e7e5']);
    await c.next('gameMove', (m) => m.seq === 2);
    return { a, cut, archive, p, c };
  }

  /** B's spectator `c` is told the game's `end`, then the archive's word, and its watch is over as after an end relayed at once. */
  async function toldEndAndArchive(c: TestClient, end: Msg, gameId: string): Promise<void> {
    expect(await c.next('gameEnd', () => true, 10_000)).toEqual(end);
    expect(await c.next('gameArchived')).toEqual({ type: 'gameArchived', gameId });
    c.send('watchGame', { gameId });
    expect(await c.next('error')).toMatchObject({ code: 'unknown_game', gameId });
  }

  it("tells B's spectator of the end that came while A could not relay it, and of the archive, as it went", async () => {
    const { a, cut, archive, p, c } = await archivedGameWatchedOnB();
    await cutOff(a, cut);
    p.black.send('resign', { gameId: p.gameId });
    const end = await p.white.next('gameEnd');
    await until('the archive to store the game', async () => archive.stored.length === 1);
    await cut.unblock();
    await toldEndAndArchive(c, end, p.gameId);
  }, 30_000);

  it("tells B's spectator the archive's word that came while A could not relay it, after the end it heard at once: once each", async () => {
    const archive = new GatedArchive();
    const { a, b, cut } = await ownerBehindRelay(archiving(archive));
    const p = await gameOn(a);
    const here = await watching(a, p.gameId);
    const there = await watching(b, p.gameId);
    await playMoves(p, ['e2e4', 'e7e5']);
    p.black.send('resign', { gameId: p.gameId });
    expect(await there.c.next('gameEnd')).toMatchObject({ gameId: p.gameId, reason: 'resignation' });

    await cutOff(a, cut);
    archive.open();
    // A's own spectator hears it: A told B too, while it could not reach Redis
    await here.c.next('gameArchived');
    await cut.unblock();
    expect(await there.c.next('gameArchived', () => true, 10_000)).toEqual({ type: 'gameArchived', gameId: p.gameId });
    expect(there.c.received.filter((m) => m.type === 'gameEnd')).toHaveLength(1);
  }, 30_000);

  it("tells B's spectator of the end, and of the archive, that A relayed in the moment before it knew its connection to Redis was gone", async () => {
    const { a, cut, p, c } = await archivedGameWatchedOnB();
    // A's connection to Redis goes silent: A still sees it up, and relays the end into it
    cut.silence('commands');
    p.black.send('resign', { gameId: p.gameId });
    const end = await p.white.next('gameEnd');
    await until("A to relay the end and the archive's word", async () => ['"k":"wend"', '"k":"warchived"'].every((k) => cut.dropped.includes(k)));
    expect(await redisOf(a)).toBe(true);
    // then it closes (A knows Redis is gone), and Redis comes back
    await cutOff(a, cut);
    await cut.unblock();
    await toldEndAndArchive(c, end, p.gameId);
  }, 30_000);

  /** B's `watch` messages to A for game `gameId` heard so far. */
  const watchesTo = (nodeA: string, gameId: string) => sniffer!.heard.filter((h) => h.msg.k === 'watch' && h.msg.g === gameId && h.to === nodeA);

  it("answers B's spectator whose watch went out while A could not hear it: B asks A again at its beats", async () => {
    const { a, b, cut } = await ownerBehindRelay();
    const p = await gameOn(a);
    const nodeA = await nodeName(a);
    sniffer = await BusSniffer.start(site.options.prefix);

    await cutOff(a, cut);
    const c = await connect(b);
    c.send('watchGame', { gameId: p.gameId });
    // published while A was not subscribed: lost
    await until('B to ask A for the game', async () => watchesTo(nodeA, p.gameId).length > 0);
    await cut.unblock();
    const start = await c.next('watchStart', () => true, 10_000);
    expect(start).toMatchObject({ gameId: p.gameId, white: { name: 'Alice' }, currentState: { seq: 0, turn: 'white' } });
    expect(watchesTo(nodeA, p.gameId).length).toBeGreaterThan(1);
    await playMoves(p, ['e2e4']);
    expect(await c.next('gameMove')).toMatchObject({ seq: 1, san: 'e4' });
    expect(c.received.filter((m) => m.type === 'watchStart')).toHaveLength(1);
  }, 30_000);

  it("shows B's spectator the game once when A's answer was only late and B asked again meanwhile", async () => {
    const { a, b, cut } = await ownerBehindRelay();
    const p = await gameOn(a);
    const [nodeA, nodeB] = await Promise.all([nodeName(a), nodeName(b)]);
    sniffer = await BusSniffer.start(site.options.prefix);

    // A's subscription hears nothing for a while (its commands, and so its lease, go on)
    cut.holdReplies('subscription');
    const c = await connect(b);
    c.send('watchGame', { gameId: p.gameId });
    await until('B to ask A twice', async () => watchesTo(nodeA, p.gameId).length >= 2, 10_000);
    cut.releaseReplies('subscription');
    // A answers both: the second watchStart finds nobody waiting on B
    await until('A to answer both', async () => sniffer!.heard.filter((h) => h.msg.k === 'wstart' && h.msg.g === p.gameId && h.to === nodeB).length >= 2);
    await playMoves(p, ['e2e4']);
    expect(await c.next('gameMove')).toMatchObject({ seq: 1, san: 'e4' });
    expect(c.received.filter((m) => m.type === 'watchStart')).toHaveLength(1);
  }, 30_000);
});
