/**
 * startServer(): the whole realtime server in-process — HTTP (static client, /healthz, /metrics,
 * the accounts routes) and the WebSocket at /socket — on uWebSockets.js.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { SOCKET_PATH, type ServerMessage } from '../machines/protocol/messages';
import { DEV_INSPECTOR_PATH } from '../machines/protocol/constants';
import { ChessGame } from '../machines/chess';
import { loadUws, type us_listen_socket } from './uws';
import { ServerMetrics } from './http/metrics';
import { TrustedProxies, fromThisMachine } from './http/clientAddress';
import { securityHeaders } from './http/securityHeaders';
import { StaticFiles } from './http/static';
import { GAME_BEAT_MS, GameManager, type EndedGame } from './game/games';
import type { Inspect } from './game/machines';
import { Heartbeat } from './heartbeat';
import { Matchmaking } from './game/matchmaking';
import { holdNewRating, type RatingLookup } from './game/ratingLookup';
import { Hub } from './realtime/hub';
import { LagPings } from './realtime/lagPings';
import { GuestIdentity, playerKind } from './realtime/identity';
import { Realtime, SWEEP_EVERY_MS } from './realtime/realtime';
import { Doorway } from './realtime/doorway';
import { RefusalLog } from './realtime/refusalLog';
import { Replies } from './realtime/replies';
import { routes } from './realtime/router';
import { ONE_NODE, type SocketSite } from './realtime/site';
import { SocketAccount } from './realtime/socketAccount';
import { SiteSockets } from './cluster/siteSockets';
import { Lobby } from './round/lobby';
import { Presence } from './round/presence';
import { Rounds } from './round/round';
import type { AccountsModule, AiService, AiServiceFactory } from './wiring';
import { ArchiveQueue, archiveFinishedGames, type RetryTimer } from './archive/index';
import { replay } from '../machines/game';
import { DEFAULT_CLOCK_MS, DEFAULT_CLOCK_REPORT_MS, DEFAULT_FIRST_MOVE_DEADLINE_MS, DEFAULT_GRACE_MS, DEFAULT_LAG } from '../machines/game/defaults';
import type { LagSettings } from '../machines/game/types';
import type { ServerSettings } from './config';
import { DEFAULT_ADMISSION_LIMITS, DEFAULT_IDENTIFICATION_LIMITS, SERVER_DEFAULTS, type AdmissionLimits, type IdentificationLimits, type WatchLimits } from './config/server';
import { openGameJournal, type JournalDisk, type JournalSync, type OpenedJournal } from './game/journal';
import { ClusterNode } from './cluster/node';
import { UnarchivedSweep } from './cluster/unarchived';
import { openDb, type DbTimeouts } from './accounts/db';
import { Spectators } from './realtime/spectators';
import { GameChat } from './chat/chat';
import type { PlayerSession } from './realtime/hub';
import { localLobbyStore } from './lobby/records';
import type { SnapshotDisk } from './lobby/snapshotFile';
import { LobbyHooks } from './lobby/hooks';
import { localStart, type CustomStart, type LobbyDeps } from './lobby/players';
import { Challenges } from './challenge/challenges';
import { listLiveGames } from './realtime/liveGamesWiring';

/**
 * What startServer takes: the realtime server's settings under the configuration's names and types
 * (server/config, ServerSettings; any left out gets its default), and the parts it is wired to.
 */
export interface StartServerOptions extends Partial<Omit<ServerSettings, 'graceMs' | 'trustProxy'>> {
  /** disconnect grace, ms (default DEFAULT_GRACE_MS) */
  graceMs?: number | { guest: number; account: number };
  /** lag compensation (default DEFAULT_LAG) */
  lag?: LagSettings;
  accounts?: AccountsModule;
  ai?: AiServiceFactory;
  logger?: Logger;
  /** key for guest secrets; random per process when absent */
  serverSecret?: string;
  /** reverse proxies (IPs, CIDR ranges) whose X-Forwarded-For names a socket's client address */
  trustProxy?: readonly string[];
  pingIntervalMs?: number;
  /** minimum spacing of playerCount broadcasts (default 1000 ms) */
  playerCountIntervalMs?: number;
  /** colour draw for pairings (tests make it deterministic) */
  random?: () => number;
  /** test-only: the wall clock of the lobby's hooks and the challenges (their expiry), ms */
  lobbyClock?: () => number;
  /** test-only: how often hooks and challenges are swept (their creators seen, the stale removed); default LOBBY_SWEEP_MS */
  lobbySweepMs?: number;
  /** test-only: the file calls of the challenges' file on one node (node:fs's by default); tests make them fail */
  challengesDisk?: SnapshotDisk;
  /** test-only: games start from this FEN */
  startFen?: string;
  /** origins other than its own that the page calls (a hosted accounts project), for its Content-Security-Policy */
  connectOrigins?: readonly string[];
  /** who may read /metrics; absent: everyone (tests) */
  metricsAccess?: MetricsAccess;
  /** the server actors' XState inspector (INSPECT; server/inspect) */
  inspect?: Inspect;
  /**
   * development mode: the page may connect its machines to the Stately inspector (`?inspect`):
   * DEV_INSPECTOR_PATH answers, and the security headers let the inspector's window and frame in
   */
  browserInspector?: boolean;
  /**
   * Live games are journaled under `dataDir`/games and resumed from there at start
   * (server/game/journal.ts); without it they live in memory only.
   */
  durableDir?: string;
  /** the journal is compacted past this size (default COMPACT_AT_BYTES; tests make it small) */
  journalCompactBytes?: number;
  /** several nodes: how often ended games without an archive row are looked for (default UNARCHIVED_SWEEP_MS) */
  unarchivedSweepMs?: number;
  /** test-only: the journal's file calls (a failing disk, a power loss) */
  journalDisk?: Partial<JournalDisk>;
  /** test-only: when a failed archive write is tried again (default: archiveRetryDelayMs later, on setTimeout) */
  archiveRetryTimer?: RetryTimer;
  /**
   * Several nodes act as one site through this Redis and this PostgreSQL database (server/cluster):
   * one matchmaking pool, games played by one owner node each and taken over when it dies.
   */
  cluster?: SiteOptions;
}

/** Where the nodes of one site meet (REDIS_URL, REDIS_PREFIX, DATABASE_URL). */
export interface SiteOptions {
  redisUrl: string;
  /** the prefix of every Redis key of this site */
  prefix: string;
  databaseUrl: string;
  databaseSchema?: string;
  dbTimeouts?: DbTimeouts;
}

export interface RunningServer {
  port: number;
  url: string;
  /** stop listening, tell players, close sockets, stop actors and services */
  close(message?: string): Promise<void>;
  /** live numbers (for tests and the bench) */
  stats(): { connections: number; playersOnline: number; queueLength: number; liveGames: number };
}

/**
 * Who may read /metrics (it tells anyone the server's load and player numbers): with a token,
 * whoever sends "Authorization: Bearer <token>"; otherwise everyone, or, with `loopbackOnly`
 * (production without METRICS_TOKEN), only requests made on the server's own machine.
 */
export interface MetricsAccess {
  token?: string;
  loopbackOnly: boolean;
}

/** Why a /metrics request is refused (an HTTP status line), or null to serve it. */
export function metricsRefusal(
  access: MetricsAccess | undefined,
  peer: string,
  headers: Record<string, string>,
  proxies: TrustedProxies,
): string | null {
  if (!access) return null;
  if (access.token) {
    const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1] ?? '');
    const wanted = Buffer.from(access.token);
    return given.length === wanted.length && timingSafeEqual(given, wanted) ? null : '401 Unauthorized';
  }
  return access.loopbackOnly && !fromThisMachine(peer, headers, proxies) ? '403 Forbidden' : null;
}

export const SHUTDOWN_TEXT = 'The server is restarting. Please reconnect in a moment.';

export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const uws = loadUws();
  if (opts.startFen) new ChessGame(opts.startFen); // throws FenError with the reason
  const log = opts.logger ?? pino({ level: 'silent' });
  const app = uws.App();
  const clockMs = opts.clockMs ?? DEFAULT_CLOCK_MS;
  const graceMs =
    typeof opts.graceMs === 'number' ? { guest: opts.graceMs, account: opts.graceMs } : (opts.graceMs ?? DEFAULT_GRACE_MS);

  let ai: AiService | undefined;
  let matchmaking: Matchmaking | undefined;
  const games: { current?: GameManager } = {};
  const heartbeat = new Heartbeat(GAME_BEAT_MS);
  // read at scrape time, by when the hub below exists
  const metrics = new ServerMetrics(
    {
      connections: () => hub.sockets.size,
      playersOnline: () => hub.playersOnline,
      queueLength: () => matchmaking?.length ?? 0,
      liveGames: () => games.current?.size ?? 0,
      aiGames: () => ai?.stats().games ?? 0,
      archivePending: () => archiveQueue?.waiting ?? 0,
    },
    heartbeat.lag,
  );
  const pings = new LagPings(opts.pingIntervalMs ?? 15_000, { withFrame: metrics.lagPingsWithFrame, alone: metrics.lagPingsAlone });
  const hub = new Hub(app, opts.playerCountIntervalMs ?? 1000, pings);
  const cluster = opts.cluster ? await openSite(opts.cluster, opts.durableDir ?? '', opts.journalSync, hub, metrics, log) : null;
  const spectators = new Spectators(app, opts.watch ?? SERVER_DEFAULTS.watch, () => games.current, Boolean(opts.accounts?.archive));
  // several nodes: other nodes' spectators of this node's games are told too
  const watchers = cluster ? cluster.spectate(spectators, () => games.current) : spectators;
  // The slow parts of the start (the static files' compression, the AI engine's start: seconds)
  // come before the journal is opened: the time from the journal's last sign of life until the
  // games are resumed is given back to every clock, so that time is the restart's, and the
  // resumed games go on only as the server listens (tests/server/restart-clock.test.ts).
  const staticFiles = new StaticFiles(opts.staticDir ?? SERVER_DEFAULTS.staticDir, securityHeaders(opts.connectOrigins, opts.browserInspector));
  if (!staticFiles.available) log.warn({ dir: staticFiles.dir }, 'client build not found; run "npm run build"');
  const archive = opts.accounts?.archive;
  const archiveQueue = archive ? new ArchiveQueue(archive, log.child({ part: 'archive' }), opts.archiveRetryTimer) : null;
  if (opts.ai) {
    ai = await opts.ai({
      // after the commit of what the message is about (the shared game log's, the journal's; at once without either)
      send: (player, msg) => gameManager.afterCommit(() => hub.sendTo(player, msg)),
      games: () => games.current,
      connected: (player) => hub.connected(player),
      logger: log.child({ part: 'ai' }),
      inspect: opts.inspect,
    });
  }
  // several nodes: every game, multiplayer or against the AI, is in the shared game log instead
  const durable: OpenedJournal | undefined = opts.durableDir && !cluster
    ? openGameJournal(
        opts.durableDir,
        { commitSeconds: metrics.journalCommitSeconds, bytesWritten: metrics.journalBytes, syncSeconds: metrics.journalSyncSeconds },
        log.child({ part: 'journal' }),
        { games: () => games.current?.liveLogs() ?? [] },
        { compactAtBytes: opts.journalCompactBytes, sync: opts.journalSync, syncIntervalMs: opts.journalSyncIntervalMs, commitWindowMs: opts.journalCommitWindowMs, disk: opts.journalDisk },
      )
    : undefined;
  const gameManager = new GameManager(
    hub,
    metrics,
    log.child({ part: 'games' }),
    {
      clockMs,
      clockReportMs: opts.clockReportMs ?? DEFAULT_CLOCK_REPORT_MS,
      firstMoveMs: opts.firstMoveMs ?? DEFAULT_FIRST_MOVE_DEADLINE_MS,
      graceMs,
      lag: opts.lag ?? DEFAULT_LAG,
      startFen: opts.startFen,
      inspect: opts.inspect,
      ...(cluster ? { placement: cluster, mayPlay: () => cluster.membership.mayPlay } : {}),
      watchers,
      // the presence below is made once the game manager exists
      presence: { begun: (game) => presence.begun(game) },
      ...(ai ? { engine: ai.seats } : {}),
      onEnded: (ended) => onEnded(ended),
    },
    heartbeat,
    cluster?.log ?? durable?.journal,
  );
  const presence = new Presence(hub, gameManager);
  heartbeat.start();
  games.current = gameManager;
  // the game store keeps an ended game until it is archived; without an archive there is nothing to wait for
  const onEnded = archiveQueue
    ? archiveFinishedGames(archiveQueue, log.child({ part: 'archive' }), {
        rated: (accountIds, msg, standing) => {
          holdNewRating(hub.session(accountIds[0]), standing.white);
          holdNewRating(hub.session(accountIds[1]), standing.black);
          // a player away now gets it when they come back to the game, after its gameEnd
          gameManager.rated(msg);
          // and when next online, whatever page they open (with the game's end first while it is kept)
          for (const id of accountIds) hub.sendOrKeep(id, msg, (session) => gameManager.sendRatedLate(session, msg));
        },
        archived: (gameId) => {
          watchers.archived(gameId);
          durable?.journal.archived(gameId);
        },
        // scored by the node that played it (this one took it over ended): a player who comes
        // back to the game here gets it after its gameEnd, as there
        ratedBefore: (msg) => gameManager.rated(msg),
      })
    : (ended: EndedGame) => durable?.journal.archived(ended.log.input.gameId);
  if (durable) resumeGames(gameManager, hub, durable, onEnded);
  matchmaking = new Matchmaking(
    hub,
    gameManager,
    log.child({ part: 'matchmaking' }),
    opts.random,
    opts.inspect,
    archive && ((id, speed) => archive.ratingOf(id, speed)),
    cluster ? (white, black, timeControl) => cluster.startPaired(white, black, timeControl) : undefined,
  );
  const pool = cluster ? cluster.sitePool(gameManager, matchmaking) : matchmaking;
  const identity = new GuestIdentity(opts.serverSecret ?? randomBytes(32).toString('base64url'));

  const rounds = new Rounds(hub, gameManager, pool, presence, metrics, log.child({ part: 'round' }), cluster);
  const liveGames = listLiveGames(app, hub, gameManager, spectators, heartbeat, cluster);
  const socketLog = log.child({ part: 'socket' });
  const admission = opts.admission ?? DEFAULT_ADMISSION_LIMITS;
  const replies = new Replies(hub, metrics, socketLog);
  const refusals = new RefusalLog(socketLog, SWEEP_EVERY_MS);
  const chat = new GameChat(() => games.current, spectators, opts.chat ?? SERVER_DEFAULTS.chat, replies);
  if (cluster) chat.elsewhere = cluster.chatElsewhere();
  const doorway = new Doorway(admission, opts.trustProxy ?? [], identity, metrics, refusals, cluster !== null);
  const siteSockets = cluster && new SiteSockets(cluster, hub, replies, presence, pool, admission.connectRate, (address, refusal) => doorway.countRefused(address, refusal), socketLog);
  const site: SocketSite = siteSockets ?? ONE_NODE;
  const lobby = new Lobby(hub, rounds, pool, () => ai, () => site.newGamesRefused(), metrics, socketLog);
  const custom = customGames(hub, rounds, cluster, gameManager, opts, log, () => site.newGamesRefused());
  // the account binding seats the socket as the endpoint does (made just below)
  const account = new SocketAccount(hub, replies, rounds, site, identity, opts.accounts, opts.identification ?? DEFAULT_IDENTIFICATION_LIMITS, refusals, metrics, socketLog, (ws, id, kind) => realtime.bind(ws, id, kind));
  const realtime = new Realtime(
    hub,
    { doorway, site, rounds, matchmaking: pool, account, spectators, liveGames, routes: routes(lobby, account, spectators, liveGames, replies, chat, custom), replies, refusals, identity },
    metrics,
    socketLog,
    {
      maxPayloadBytes: opts.maxPayloadBytes ?? SERVER_DEFAULTS.maxPayloadBytes,
      idleTimeoutSeconds: opts.idleTimeoutSeconds ?? SERVER_DEFAULTS.idleTimeoutSeconds,
      rateLimit: opts.rateLimit ?? SERVER_DEFAULTS.rateLimit,
    },
    heartbeat,
  );
  realtime.mount(app, SOCKET_PATH);
  if (cluster && siteSockets) await cluster.start(siteSockets, rounds);
  // several nodes: ended games whose node died (or whose archive write failed) before their archive row
  const unarchived = cluster && archiveQueue ? new UnarchivedSweep(cluster.db, onEnded, log.child({ part: 'archive' }), opts.unarchivedSweepMs) : null;
  unarchived?.start();

  let shuttingDown = false;
  // 200 while the server plays games, even with the accounts database down ("degraded": guest
  // play and the AI go on); 503 once shutdown has begun.
  app.get('/healthz', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const accounts = opts.accounts?.health ? opts.accounts.health() : Promise.resolve(opts.accounts ? 'ok' : 'off');
    void accounts.then((state) => {
      if (aborted) return;
      // storage: the game journal's (several nodes: the shared game log's) last write got through
      // (null: games are not durable); redis: several nodes only, Redis answers and the lease holds;
      // lease: several nodes only, the node's lease surely holds (it may change its games)
      const storage = cluster ? cluster.log.healthy : durable ? durable.journal.healthy : null;
      const redis = cluster ? cluster.healthy : null;
      const ok = !shuttingDown && storage !== false && redis !== false;
      const status = shuttingDown ? 'stopping' : !ok ? 'failing' : state === 'unavailable' ? 'degraded' : 'ok';
      res.cork(() => {
        res
          .writeStatus(ok ? '200 OK' : '503 Service Unavailable')
          .writeHeader('Content-Type', 'application/json')
          .writeHeader('Cache-Control', 'no-store')
          .end(JSON.stringify({ ok, status, accounts: state, storage, redis, ...(cluster ? { node: cluster.node, lease: cluster.membership.mayPlay } : {}), connections: hub.sockets.size, games: gameManager.size }));
      });
    });
  });
  const metricsProxies = new TrustedProxies(opts.trustProxy ?? []);
  app.get('/metrics', (res, req) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const refusal = metricsRefusal(opts.metricsAccess, Buffer.from(res.getRemoteAddressAsText()).toString(), {
      authorization: req.getHeader('authorization'),
      host: req.getHeader('host'),
      'x-forwarded-for': req.getHeader('x-forwarded-for'),
      forwarded: req.getHeader('forwarded'),
      'x-real-ip': req.getHeader('x-real-ip'),
    }, metricsProxies);
    if (refusal) {
      res.cork(() => res.writeStatus(refusal).writeHeader('Content-Type', 'text/plain; charset=utf-8').end(`${refusal}: /metrics needs METRICS_TOKEN (or a request from this machine)\n`));
      return;
    }
    metrics.text().then(
      (body) => {
        if (aborted) return;
        res.cork(() => {
          res.writeHeader('Content-Type', metrics.contentType).writeHeader('Cache-Control', 'no-store').end(body);
        });
      },
      (err: unknown) => {
        log.error({ err }, 'metrics failed');
        if (!aborted) res.cork(() => res.writeStatus('500 Internal Server Error').end());
      },
    );
  });

  opts.accounts?.mount(app);

  if (opts.browserInspector) {
    app.get(DEV_INSPECTOR_PATH, (res) => {
      res.writeHeader('Content-Type', 'application/json').writeHeader('Cache-Control', 'no-store').end(JSON.stringify({ inspector: true }));
    });
  }
  app.any('/*', (res, req) => staticFiles.handle(res, req));

  const host = opts.host ?? SERVER_DEFAULTS.host;
  const wantedPort = opts.port ?? SERVER_DEFAULTS.port;
  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(host, wantedPort, (s) => (s ? resolve(s) : reject(new Error(`Cannot listen on ${host}:${wantedPort}`))));
  });
  const port = uws.us_socket_local_port(listenSocket);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  log.info({ port, host, staticFiles: staticFiles.size }, 'server listening');

  let closed: Promise<void> | null = null;
  return {
    port,
    url: `http://${shownHost}:${port}`,
    stats: () => ({
      connections: hub.sockets.size,
      playersOnline: hub.playersOnline,
      queueLength: matchmaking!.length,
      liveGames: gameManager.size,
    }),
    close(message = SHUTDOWN_TEXT) {
      if (closed) return closed;
      shuttingDown = true;
      closed = (async () => {
        uws.us_listen_socket_close(listenSocket);
        realtime.closeAll(message);
        custom.stop();
        hub.stop();
        gameManager.stopAll();
        heartbeat.stop();
        // the AI games stop before the last commit: nothing they do after it is recorded (with
        // several nodes, the node taking them over resumes them as the log holds them)
        await ai?.close().catch((err: unknown) => log.warn({ err }, 'closing the AI failed'));
        await cluster?.close();
        // what is not archived yet stays in the journal (the shared game log) for the next start
        unarchived?.close();
        archiveQueue?.close();
        await durable?.journal.close();
        await custom.flush();
        matchmaking!.stop();
        await opts.accounts?.close().catch((err: unknown) => log.warn({ err }, 'closing the accounts failed'));
        log.info('server closed');
      })();
      return closed;
    },
  };
}

/** Every live game of the journal back in play; damaged ones end as aborted (each logged once); ended ones not yet archived go to the archive. */
function resumeGames(gameManager: GameManager, hub: Hub, durable: OpenedJournal, onEnded: (ended: EndedGame) => void): void {
  for (const log of durable.live) gameManager.resume(log, (id, kind) => hub.seat(id, kind), durable.awayMs);
  for (const d of durable.damaged) gameManager.abortDamaged(d);
  // ended games whose archive row was not committed before the node stopped
  for (const e of durable.unarchived) onEnded({ log: e.log, state: replay(e.log), result: e.result, at: e.at });
}

/** How often the lobby's hooks and the challenges are swept: their creators seen, the stale ones removed. */
export const LOBBY_SWEEP_MS = 1_000;

/** The lobby's custom games and the challenges, on this node's store (Redis with several nodes), swept every LOBBY_SWEEP_MS. */
function customGames(hub: Hub, rounds: Rounds, cluster: ClusterNode | null, games: GameManager, opts: StartServerOptions, log: Logger, newGamesRefused: () => string | null) {
  const now = opts.lobbyClock ?? Date.now;
  const store = cluster?.lobby ?? localLobbyStore(opts.durableDir, now(), log.child({ part: 'challenges' }), opts.challengesDisk);
  const start: CustomStart = cluster ? (...args) => cluster.startCustom(...args) : localStart(hub, games);
  const node = cluster?.node ?? '';
  const random = opts.random ?? Math.random;
  const heldBy = (s: PlayerSession) => rounds.heldBy(s);
  const heldOnSite = (s: PlayerSession) => rounds.heldOnSite(s);
  const archive = opts.accounts?.archive;
  const ratingOf: RatingLookup | undefined = archive && ((id, speed) => archive.ratingOf(id, speed));
  const deps: LobbyDeps = { store, hub, start, heldBy, heldOnSite, node, now, random, ratingOf, newGamesRefused };
  const hooks = new LobbyHooks(deps, log.child({ part: 'hooks' }));
  const challenges = new Challenges(deps, log.child({ part: 'challenges' }), opts.accounts?.accountByUsername?.bind(opts.accounts));
  const sweepLog = log.child({ part: 'lobby' });
  const sweep = setInterval(() => {
    for (const part of [hooks, challenges]) part.sweep().catch((err: Error) => sweepLog.warn({ err: err.message }, 'lobby sweep failed'));
  }, opts.lobbySweepMs ?? LOBBY_SWEEP_MS);
  sweep.unref();
  return { hooks, challenges, stop: () => clearInterval(sweep), flush: () => store.flush() };
}

/** This node's place in a site of several nodes: its Redis link and the shared database. */
async function openSite(site: SiteOptions, dataDir: string, sync: JournalSync | undefined, hub: Hub, metrics: ServerMetrics, log: Logger): Promise<ClusterNode> {
  const db = await openDb({ dataDir, databaseUrl: site.databaseUrl, schema: site.databaseSchema, timeouts: site.dbTimeouts });
  let node: ClusterNode | null = null;
  const clusterMetrics = metrics.cluster({
    sitePlayersOnline: () => hub.sitePlayersOnline,
    liveNodes: () => node?.membership.view.nodes ?? 0,
    redisRoundTripSeconds: () => (node?.membership.roundTripMs ?? 0) / 1000,
    redisUp: () => (node?.redisReachable ? 1 : 0),
  });
  try {
    node = await ClusterNode.open({ redisUrl: site.redisUrl, prefix: site.prefix, db, sync }, hub, clusterMetrics, log);
  } catch (err) {
    await db.close();
    throw err;
  }
  return node;
}
