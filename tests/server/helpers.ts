/** Test helpers: the real server on a free port and real `ws` clients. */
import { afterEach, vi } from 'vitest';
import { createConnection, type Socket } from 'node:net';
import WebSocket, { type ClientOptions } from 'ws';
import { startServer, type RunningServer, type StartServerOptions } from '../../server/app';
import type { ServerMessage, ClientMessageType, Hook, LiveGameSummary } from '../../machines/protocol/messages';
import { applyChange } from '../../machines/game/liveList';
import { applyLobbyChange } from '../../machines/lobby/listing';
import type { ListChange } from '../../machines/protocol/listChange';
import { checkServerMessage } from '../support/protocol';
import { guestProtocols, type GuestCredentials } from '../../machines/protocol/guestClaim';

export type Msg = ServerMessage & Record<string, unknown>;

// The helpers' own time-outs run on real timers, captured before a test can fake them.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

export interface TestClock {
  /**
   * Moves the server's time on by `ms` in steps of `stepMs`, firing its timers (heartbeat, game
   * deadlines, broadcasts) on the way. With a probe (settleWith), each step ends with a round trip
   * on the probe's socket, by when what the server wrote in that step has reached every client:
   * a client that notes performance.now() on a frame then sees the step's time.
   */
  advance(ms: number, stepMs?: number): Promise<void>;
  /**
   * Moves the server's clock on by `ms` without running a timer, as an event loop held up that
   * long does: whatever reads the clock next sees the time gone, and the heartbeat's next beat is
   * that late.
   */
  stall(ms: number): void;
  settleWith(probe: TestClient): void;
}

/** Server options for a test that settles with a probe often: its round trips must not meet the rate limit. */
export const ROOM_FOR_PROBES = { rateLimit: { messages: 10_000, windowMs: 20_000 } } as const;

/**
 * Gives the server the test's clock. The server runs in the test's process, so faking this
 * process's timers and performance.now drives everything it times: the heartbeat and the games'
 * timing wheel, clock reports, lag pings, playerCount spacing, rate-limit windows. Sockets stay
 * real. Call it before starting the server, so every timer the server makes is on this clock;
 * the real clock comes back after the test (tests/support/realClockAfterEach.ts).
 */
export function useTestClock(): TestClock {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
  let probe: TestClient | null = null;
  let stalledMs = 0;
  let stallable = false;
  return {
    settleWith: (c) => void (probe = c),
    stall(ms) {
      if (!stallable) {
        const timersNow = performance.now.bind(performance);
        vi.spyOn(performance, 'now').mockImplementation(() => timersNow() + stalledMs);
        stallable = true;
      }
      stalledMs += ms;
    },
    async advance(ms, stepMs = ms) {
      for (let left = ms; left > 0; left -= stepMs) {
        await vi.advanceTimersByTimeAsync(Math.min(stepMs, left));
        if (probe) await probe.roundTrip();
      }
    },
  };
}

export async function startTestServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    random: () => 0, // the player who waited longer gets white
    playerCountIntervalMs: 50,
    ...opts,
  });
}

/** A received message as a failure report names it: its type, and an error's code and text. */
const describeMessage = (m: Msg): string => (m.type === 'error' ? `error(${String(m.code)}: ${String(m.message)})` : m.type);

export class TestClient {
  readonly ws: WebSocket;
  /** the TCP connection under `ws` (made here through ws's `createConnection` option), for sendTogether */
  private socket: Socket | null = null;
  readonly received: Msg[] = [];
  private queue: Msg[] = [];
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  closeCode: number | null = null;
  playerId = '';
  secret = '';

  /**
   * `guest`: a stored guest identity to come back as (offered as the subprotocol, as a browser offers it);
   * `options`: ws's own (e.g. localAddress, to connect from another loopback address; autoPong)
   */
  constructor(url: string, guest: GuestCredentials | null = null, options: ClientOptions = {}) {
    const connect = ((...args: Parameters<typeof createConnection>) => (this.socket = createConnection(...args))) as typeof createConnection;
    this.ws = new WebSocket(url.replace(/^http/, 'ws') + '/socket', guestProtocols(guest), { createConnection: connect, ...options });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => {
        this.closeCode = code;
        resolve({ code, reason: reason.toString() });
      });
    });
    this.ws.on('error', () => {});
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const m = checkServerMessage(data.toString()) as Msg;
      this.received.push(m);
      const i = this.waiters.findIndex((w) => w.pred(m));
      if (i >= 0) {
        const [w] = this.waiters.splice(i, 1);
        w.resolve(m);
      } else {
        this.queue.push(m);
      }
    });
  }

  static async connect(url: string, guest: GuestCredentials | null = null, options: ClientOptions = {}): Promise<TestClient> {
    const c = new TestClient(url, guest, options);
    await c.opened;
    const ack = await c.next('connectionAck');
    c.playerId = ack.playerId as string;
    c.secret = ack.secret as string;
    return c;
  }

  /** The next message of `type` (matching `pred`), from the backlog or the future. */
  next<T extends Msg['type']>(type: T, pred: (m: Msg) => boolean = () => true, timeoutMs = 5000): Promise<Msg> {
    const match = (m: Msg) => m.type === type && pred(m);
    const i = this.queue.findIndex(match);
    if (i >= 0) return Promise.resolve(this.queue.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = { pred: match, resolve: (m: Msg) => (realClearTimeout(t), resolve(m)) };
      const t = realSetTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`timed out waiting for ${type}; got: ${this.received.map(describeMessage).join(', ')}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** True if a message of `type` arrives within `ms`. */
  async gets(type: Msg['type'], ms = 300, pred: (m: Msg) => boolean = () => true): Promise<boolean> {
    try {
      await this.next(type, pred, ms);
      return true;
    } catch {
      return false;
    }
  }

  /** Drops the backlog of unread messages. */
  drain(): void {
    this.queue = [];
  }

  send(type: ClientMessageType | string, payload?: unknown): void {
    this.ws.send(JSON.stringify(payload === undefined ? { type } : { type, payload }));
  }

  /** A request and its answer: everything the server wrote to any socket before it has arrived. */
  async roundTrip(): Promise<void> {
    this.send('checkActiveGame', {});
    await this.next('activeGameStatus');
  }

  /**
   * Messages sent in ONE write on the socket (corked while ws frames them): the server reads them
   * together and handles them in one turn of its loop, which separate sends never reliably give.
   */
  sendTogether(messages: readonly { type: ClientMessageType; payload?: unknown }[]): void {
    if (!this.socket || this.ws.readyState !== WebSocket.OPEN) throw new Error('sendTogether: the socket is not open');
    this.socket.cork();
    for (const m of messages) this.ws.send(JSON.stringify(m));
    this.socket.uncork();
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  close(): Promise<{ code: number; reason: string }> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
    return this.closed;
  }
}

export interface Pair {
  white: TestClient;
  black: TestClient;
  gameId: string;
}

/** Two clients through matchmaking into one game. With random()=0 the first to search is white. */
export async function pairPlayers(url: string, names = ['Alice', 'Bob']): Promise<Pair> {
  const a = await TestClient.connect(url);
  const b = await TestClient.connect(url);
  a.send('findGame', { username: names[0] });
  await a.next('matchmakingStatus', (m) => m.status === 'queued');
  b.send('findGame', { username: names[1] });
  const [sa, sb] = await Promise.all([a.next('gameStart'), b.next('gameStart')]);
  if (sa.gameId !== sb.gameId) throw new Error('paired into different games');
  const white = sa.color === 'white' ? a : b;
  const black = white === a ? b : a;
  return { white, black, gameId: sa.gameId as string };
}

/** Plays UCI moves alternately, waiting for each gameMove echo on both sides. */
export async function playMoves(p: Pair, ucis: string[]): Promise<Msg[]> {
  const out: Msg[] = [];
  let mover = p.white;
  for (const uci of ucis) {
    const move = { from: uci.slice(0, 2), to: uci.slice(2, 4), ...(uci.length > 4 ? { promotion: uci[4] } : {}) };
    mover.send('gameMove', { gameId: p.gameId, move });
    const pred = (m: Msg) => (m.move as { from: string; to: string }).from === move.from && (m.move as { to: string }).to === move.to;
    const [m] = await Promise.all([p.white.next('gameMove', pred), p.black.next('gameMove', pred)]);
    out.push(m);
    mover = mover === p.white ? p.black : p.white;
  }
  return out;
}

/** Two players in a game on a server that runs on the test's clock; a third socket settles each step. */
export async function timedGame(opts: StartServerOptions = {}): Promise<{ server: RunningServer; p: Pair; clock: TestClock }> {
  const clock = useTestClock();
  const server = await startTestServer({ ...opts, ...ROOM_FOR_PROBES });
  const p = await pairPlayers(server.url);
  clock.settleWith(await TestClient.connect(server.url));
  return { server, p, clock };
}

/** A list a client follows: the message with the whole list and its field, the message with a change, and how a change applies. */
interface FollowedList<T> {
  name: string;
  whole: Msg['type'];
  field: string;
  changed: Msg['type'];
  apply(list: T[], change: ListChange<T>): T[];
}

const LIVE_GAMES: FollowedList<LiveGameSummary> = { name: 'the list of live games', whole: 'liveGames', field: 'games', changed: 'liveGamesChanged', apply: applyChange };
const LOBBY: FollowedList<Hook> = { name: 'the lobby', whole: 'lobbyHooks', field: 'hooks', changed: 'lobbyHooksChanged', apply: applyLobbyChange };

/** The list as client `c` holds it: the last whole list it got, with each change since applied. */
function followedOf<T>(c: TestClient, kind: FollowedList<T>): T[] {
  let list: T[] = [];
  for (const m of c.received) {
    if (m.type === kind.whole) list = m[kind.field] as T[];
    else if (m.type === kind.changed) list = kind.apply(list, { updated: m.updated as T[], removed: m.removed as string[] });
  }
  return list;
}

/** Waits (as the list changes) until client `c`'s list satisfies `pred`; returns it. */
async function followedUntil<T>(c: TestClient, kind: FollowedList<T>, what: string, pred: (list: T[]) => boolean, timeoutMs: number): Promise<T[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const list = followedOf(c, kind);
    if (pred(list)) return list;
    if (performance.now() > deadline) throw new Error(`${kind.name} never showed ${what}: ${JSON.stringify(list)}`);
    await c.gets(kind.changed, 500);
  }
}

/** The site's list of live games as client `c` follows it (`watchLiveGames`): its `liveGames`, then each `liveGamesChanged`. */
export function liveListOf(c: TestClient): LiveGameSummary[] {
  return followedOf(c, LIVE_GAMES);
}

/** Waits (as the list changes) until client `c`'s list of live games satisfies `pred`; returns it. */
export function liveListUntil(c: TestClient, what: string, pred: (games: LiveGameSummary[]) => boolean, timeoutMs = 10_000): Promise<LiveGameSummary[]> {
  return followedUntil(c, LIVE_GAMES, what, pred, timeoutMs);
}

/** The lobby's custom games as client `c` follows them (`watchLobby`): its `lobbyHooks`, then each `lobbyHooksChanged`. */
export function lobbyOf(c: TestClient): Hook[] {
  return followedOf(c, LOBBY);
}

/** Waits (as the lobby changes) until client `c`'s list of custom games satisfies `pred`; returns it. */
export function lobbyUntil(c: TestClient, what: string, pred: (hooks: Hook[]) => boolean, timeoutMs = 5_000): Promise<Hook[]> {
  return followedUntil(c, LOBBY, what, pred, timeoutMs);
}

/** Follows the lobby from client `c` (`watchLobby`) and waits for its whole list; returns it. */
export async function watchLobby(c: TestClient): Promise<Hook[]> {
  c.send('watchLobby');
  return (await c.next('lobbyHooks')).hooks as Hook[];
}

/** Clients opened by a test, to close together. */
function clientSet() {
  const open: TestClient[] = [];
  return {
    async connect(url: string, guest?: GuestCredentials | null): Promise<TestClient> {
      const c = await TestClient.connect(url, guest ?? null);
      open.push(c);
      return c;
    },
    track: (...cs: TestClient[]) => void open.push(...cs),
    closeAll: async () => void (await Promise.all(open.splice(0).map((c) => c.close()))),
  };
}

/** The clients a test file's tests open (`connect`, or `track` for ones opened elsewhere), closed after each test. */
export function useClients(): { connect(url: string, guest?: GuestCredentials | null): Promise<TestClient>; track(...cs: TestClient[]): void } {
  const clients = clientSet();
  afterEach(clients.closeAll);
  return { connect: clients.connect, track: clients.track };
}

/** A test's own server and its clients; after each test the clients are closed, then the server. */
export interface ServerPerTest {
  /** starts this test's server (startTestServer under `opts`) */
  start(opts?: StartServerOptions): Promise<RunningServer>;
  /** makes a server started elsewhere (timedGame's) this test's server */
  own(server: RunningServer): RunningServer;
  /** this test's server; an error before one is started */
  readonly server: RunningServer;
  /** a client on this test's server */
  connect(guest?: GuestCredentials | null): Promise<TestClient>;
  /** clients opened elsewhere (pairPlayers'), closed with the others */
  track(...cs: TestClient[]): void;
  /** closes the clients and the server now, as after the test (the first half of a restart) */
  stop(): Promise<void>;
}

/** Registers the hooks that close each test's server and clients (see ServerPerTest). */
export function useServerPerTest(): ServerPerTest {
  const clients = clientSet();
  let current: RunningServer | null = null;
  const stop = async () => {
    await clients.closeAll();
    const s = current;
    current = null;
    await s?.close();
  };
  afterEach(stop);
  const own = (s: RunningServer) => (current = s);
  const started = () => {
    if (!current) throw new Error('no server started in this test');
    return current;
  };
  return {
    start: async (opts) => own(await startTestServer(opts)),
    own,
    get server() {
      return started();
    },
    connect: (guest) => clients.connect(started().url, guest),
    track: clients.track,
    stop,
  };
}
