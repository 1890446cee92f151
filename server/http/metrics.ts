/**
 * Prometheus metrics for the realtime server (text format at GET /metrics).
 * One Registry per server instance so that several servers can run in one process (tests).
 */
import type { RecordableHistogram } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import client from 'prom-client';

export interface LiveStats {
  connections(): number;
  playersOnline(): number;
  queueLength(): number;
  liveGames(): number;
  aiGames(): number;
  /** finished games whose archive write has not succeeded yet (the database away) */
  archivePending(): number;
}

/**
 * The hot path's own metrics (FastCounter, FastHistogram) write their lines of the Prometheus
 * text exposition format themselves; /metrics serves them after prom-client's registry.
 */
export interface ExposedMetric {
  exposition(): string;
}

/** The `# HELP` and `# TYPE` lines of a metric (HELP escapes backslashes and line breaks). */
function header(name: string, help: string, type: 'counter' | 'histogram'): string {
  return `# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${name} ${type}\n`;
}

/**
 * A histogram for the hot path (one observation per relayed move): a linear scan over a few
 * bucket bounds and three additions, exported in the Prometheus histogram format. prom-client's
 * Histogram costs several times more per observation (label hashing, exemplar handling).
 */
export class FastHistogram implements ExposedMetric {
  private counts: number[];
  private sum = 0;
  private observations = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: number[],
  ) {
    this.counts = new Array(bounds.length).fill(0);
  }

  observe(v: number): void {
    const b = this.bounds;
    for (let i = 0; i < b.length; i++) {
      if (v <= b[i]) {
        this.counts[i]++;
        break;
      }
    }
    this.sum += v;
    this.observations++;
  }

  /** How many values were observed. */
  get count(): number {
    return this.observations;
  }

  /** Cumulative buckets, then +Inf, the sum and the count. */
  exposition(): string {
    let text = header(this.name, this.help, 'histogram');
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += this.counts[i];
      text += `${this.name}_bucket{le="${this.bounds[i]}"} ${cumulative}\n`;
    }
    return text + `${this.name}_bucket{le="+Inf"} ${this.observations}\n${this.name}_sum ${this.sum}\n${this.name}_count ${this.observations}\n`;
  }
}

/**
 * A label-less counter for the hot path (one or two increments per relayed move): a plain number,
 * read only when /metrics is scraped. prom-client's Counter hashes its labels on every inc().
 */
export class FastCounter implements ExposedMetric {
  private value = 0;

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(): void {
    this.value++;
  }

  add(n: number): void {
    this.value += n;
  }

  get total(): number {
    return this.value;
  }

  exposition(): string {
    return `${header(this.name, this.help, 'counter')}${this.name} ${this.value}\n`;
  }
}

/** A gauge whose value is read from `read()` at scrape time. */
function gaugeIn(registers: client.Registry[]) {
  return (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
}

/**
 * The process metrics prom-client's collectDefaultMetrics would give, read only at scrape time,
 * with the event-loop delay taken from the server's heartbeat instead of a 10 ms timer of its own
 * (100 extra wake-ups a second cost about 1% of a core here even when idle).
 */
function registerProcessMetrics(registers: client.Registry[], loopLag: RecordableHistogram | undefined): void {
  const gauge = gaugeIn(registers);
  new client.Counter({
    name: 'process_cpu_seconds_total',
    help: 'Total user and system CPU time spent in seconds.',
    registers,
    collect() {
      const u = process.cpuUsage();
      this.reset();
      this.inc((u.user + u.system) / 1e6);
    },
  });
  gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', () => process.memoryUsage.rss());
  gauge('process_start_time_seconds', 'Start time of the process since unix epoch in seconds.', () => Math.round(Date.now() / 1000 - process.uptime()));
  // from V8 directly: process.memoryUsage() would read /proc for the RSS again on each call
  gauge('nodejs_heap_size_total_bytes', 'Process heap size from Node.js in bytes.', () => getHeapStatistics().total_heap_size);
  gauge('nodejs_heap_size_used_bytes', 'Process heap size used from Node.js in bytes.', () => getHeapStatistics().used_heap_size);
  gauge('nodejs_external_memory_bytes', 'Node.js external memory size in bytes.', () => getHeapStatistics().external_memory);
  if (!loopLag) return;
  // One reading of the heartbeat's delay histogram per scrape (then reset), in seconds.
  let reading: Record<string, number> = {};
  const read = (key: string) => reading[key] ?? 0;
  new client.Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Mean event-loop delay since the last scrape (how late the heartbeat fired), in seconds.',
    registers,
    collect() {
      const h = loopLag;
      const s = (ns: number) => (Number.isFinite(ns) && h.count > 0 ? ns / 1e9 : 0);
      reading = {
        min: s(h.min),
        max: s(h.max),
        mean: s(h.mean),
        stddev: s(h.stddev),
        p50: s(h.percentile(50)),
        p90: s(h.percentile(90)),
        p99: s(h.percentile(99)),
      };
      h.reset();
      this.set(reading.mean);
    },
  });
  for (const key of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) {
    gauge(`nodejs_eventloop_lag_${key}_seconds`, `Event-loop delay since the last scrape: ${key}, in seconds.`, () => read(key));
  }
}

export class ServerMetrics {
  readonly registry = new client.Registry();
  /** the hot path's metrics, served after the registry's */
  private readonly fast: ExposedMetric[] = [];
  readonly movesRelayed: FastCounter;
  readonly messagesReceived: FastCounter;
  /** lag pings sent in the same write as a frame, and on their own (server/realtime/lagPings.ts) */
  readonly lagPingsWithFrame: FastCounter;
  readonly lagPingsAlone: FastCounter;
  readonly messagesRejected: client.Counter<'reason'>;
  readonly gamesStarted: client.Counter;
  readonly gamesEnded: client.Counter<'reason'>;
  readonly connectionsOpened: client.Counter;
  readonly connectionsRefused: client.Counter<'reason'>;
  readonly identifications: client.Counter<'outcome'>;
  readonly guestClaims: client.Counter<'form'>;
  readonly relayLatency: FastHistogram;
  /** the game journal's group commits (server/game/journal.ts) */
  readonly journalCommitSeconds: FastHistogram;
  readonly journalBytes: FastCounter;
  /** the interval mode's fdatasync of the game journal, off the move path */
  readonly journalSyncSeconds: FastHistogram;
  readonly gamesResumed: client.Counter;

  /** `loopLag`: the heartbeat's delay histogram (server/heartbeat.ts), for nodejs_eventloop_lag_*. */
  constructor(stats: LiveStats, loopLag?: RecordableHistogram) {
    const registers = [this.registry];
    registerProcessMetrics(registers, loopLag);
    const gauge = gaugeIn(registers);
    gauge('chess_connections', 'Open WebSocket connections', () => stats.connections());
    gauge('chess_players_online', 'Distinct players with an open socket', () => stats.playersOnline());
    gauge('chess_queue_length', 'Players waiting in the matchmaking pool', () => stats.queueLength());
    gauge('chess_live_games', 'Multiplayer games in progress', () => stats.liveGames());
    gauge('chess_ai_games', 'Games against the AI in progress', () => stats.aiGames());
    gauge('chess_archive_pending', 'Finished games not yet archived: their archive write is being tried again (the database away)', () => stats.archivePending());
    const register = this.register;
    this.movesRelayed = register(new FastCounter('chess_moves_relayed_total', 'Moves accepted and sent to both players'));
    this.messagesReceived = register(new FastCounter('chess_messages_received_total', 'Client messages received'));
    this.lagPingsWithFrame = register(new FastCounter('chess_lag_pings_with_frame_total', 'Lag pings sent in the same write as a game frame'));
    this.lagPingsAlone = register(new FastCounter('chess_lag_pings_alone_total', 'Lag pings sent on their own (sockets without game frames)'));
    this.messagesRejected = new client.Counter({
      name: 'chess_messages_rejected_total',
      help: 'Client messages rejected, by reason',
      labelNames: ['reason'],
      registers,
    });
    this.gamesStarted = new client.Counter({ name: 'chess_games_started_total', help: 'Multiplayer games started', registers });
    this.gamesEnded = new client.Counter({
      name: 'chess_games_ended_total',
      help: 'Multiplayer games ended, by reason',
      labelNames: ['reason'],
      registers,
    });
    this.connectionsOpened = new client.Counter({ name: 'chess_connections_opened_total', help: 'WebSocket connections opened', registers });
    this.connectionsRefused = new client.Counter({
      name: 'chess_connections_refused_total',
      help: 'WebSocket upgrades refused, by reason (429: per-address socket cap or connect rate; 503: server-wide socket cap)',
      labelNames: ['reason'],
      registers,
    });
    this.identifications = new client.Counter({
      name: 'chess_identifications_total',
      help: 'identifyUser checks, by outcome (verified, invalid, cached, shared, repeated, rate_limited)',
      labelNames: ['outcome'],
      registers,
    });
    this.guestClaims = new client.Counter({
      name: 'chess_guest_claims_total',
      help: 'Sockets opened claiming a stored guest identity, by where they put it (protocol: the subprotocol, as browsers send it; cookie; url: the old form, to be retired)',
      labelNames: ['form'],
      registers,
    });
    this.relayLatency = register(
      new FastHistogram(
        'chess_move_relay_seconds',
        'Time from receiving a move to having sent it to both players (server side)',
        [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
      ),
    );
    this.journalCommitSeconds = register(
      new FastHistogram(
        'chess_game_journal_commit_seconds',
        'Write of one group commit of the game journal before its moves are sent: into the page cache (GAME_JOURNAL_SYNC=interval), or synced (always: O_DSYNC, or a write plus fdatasync)',
        [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      ),
    );
    this.journalSyncSeconds = register(
      new FastHistogram(
        'chess_game_journal_sync_seconds',
        'One fdatasync of the game journal off the move path (GAME_JOURNAL_SYNC=interval, every GAME_JOURNAL_SYNC_INTERVAL_MS)',
        [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      ),
    );
    this.journalBytes = register(new FastCounter('chess_game_journal_bytes_total', 'Bytes of records written to the game journal'));
    this.gamesResumed = new client.Counter({ name: 'chess_games_resumed_total', help: 'Live games resumed from the journal at start', registers });
  }

  /** A hot-path metric, served at /metrics after the registry's. */
  private readonly register = <M extends ExposedMetric>(metric: M): M => {
    this.fast.push(metric);
    return metric;
  };

  /** The metrics of a site of several nodes (server/cluster), registered once the node joins. */
  cluster(live: ClusterLive): ClusterMetrics {
    return new ClusterMetrics(this.registry, this.register, live);
  }

  async text(): Promise<string> {
    return (await this.registry.metrics()) + this.fast.map((m) => m.exposition()).join('');
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** What the cluster metrics read at scrape time. */
export interface ClusterLive {
  /** players with an open socket on the whole site */
  sitePlayersOnline(): number;
  /** nodes whose lease holds */
  liveNodes(): number;
  /** the last round trip of the node's Redis beat, seconds */
  redisRoundTripSeconds(): number;
  /** 1 while Redis answers */
  redisUp(): number;
}

export class ClusterMetrics {
  readonly gamesOwned: client.Gauge;
  readonly gamesTakenOver: client.Counter;
  readonly gamesAcrossNodes: client.Counter;
  readonly crossNodeMessages: client.Counter<'direction'>;
  /** the pool's pairings as their commit in Redis went (server/cluster/pairingCommit.ts) */
  readonly pairings: client.Counter<'outcome'>;
  /** the shared game log's group commits (server/cluster/sharedLog.ts) */
  readonly logCommitSeconds: FastHistogram;
  readonly logBytes: FastCounter;

  /** `register`: how the server serves a hot-path metric (ServerMetrics) */
  constructor(registry: client.Registry, register: <M extends ExposedMetric>(metric: M) => M, live: ClusterLive) {
    const registers = [registry];
    const gauge = gaugeIn(registers);
    gauge('chess_site_players_online', 'Players with an open socket on the whole site (every node)', () => live.sitePlayersOnline());
    gauge('chess_site_nodes', 'Nodes of the site whose lease holds', () => live.liveNodes());
    gauge('chess_redis_round_trip_seconds', "Round trip of the node's last Redis beat", () => live.redisRoundTripSeconds());
    gauge('chess_redis_up', '1 while this node reaches Redis', () => live.redisUp());
    this.gamesOwned = new client.Gauge({ name: 'chess_games_owned', help: 'Live multiplayer games this node plays (owns)', registers });
    this.gamesTakenOver = new client.Counter({ name: 'chess_games_taken_over_total', help: 'Games of dead nodes this node took over', registers });
    this.gamesAcrossNodes = new client.Counter({ name: 'chess_games_across_nodes_total', help: 'Games started here with a player whose socket is on another node', registers });
    this.crossNodeMessages = new client.Counter({
      name: 'chess_cross_node_messages_total',
      help: 'Messages between nodes through Redis: sent (publishes), received, held (a player\'s command kept while Redis or the receiving node is away), failed (a publish that got no answer; it may have arrived), dropped (held too long)',
      labelNames: ['direction'],
      registers,
    });
    this.pairings = new client.Counter({
      name: 'chess_pairings_total',
      help: "The matchmaking pool's pairings on this node: committed (their game starts), or dropped before anyone heard of them: role_lost (the node no longer held the matchmaker role under the term it paired in), player_seated (a player was paired or seated already), store_error (Redis did not answer)",
      labelNames: ['outcome'],
      registers,
    });
    this.logCommitSeconds = register(
      new FastHistogram(
        'chess_game_log_commit_seconds',
        'One group commit of the shared game log (one INSERT into PostgreSQL)',
        [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      ),
    );
    this.logBytes = register(new FastCounter('chess_game_log_bytes_total', 'Bytes of game log rows written to PostgreSQL'));
  }
}
