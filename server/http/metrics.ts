/**
 * Prometheus metrics for the realtime server (text format at GET /metrics).
 * One Registry per server instance so that several servers can run in one process (tests).
 */
import client from 'prom-client';

export interface LiveStats {
  connections(): number;
  playersOnline(): number;
  queueLength(): number;
  liveGames(): number;
  aiGames(): number;
}

/**
 * A histogram for the hot path (one observation per relayed move): a linear scan over a few
 * bucket bounds and three additions, exported in the Prometheus histogram format. prom-client's
 * Histogram costs several times more per observation (label hashing, exemplar handling).
 */
export class FastHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private counts: number[];
  private sum = 0;
  private count = 0;

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
    this.count++;
  }

  get() {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += this.counts[i];
      values.push({ metricName: `${this.name}_bucket`, labels: { le: this.bounds[i] }, value: cumulative });
    }
    values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf' }, value: this.count });
    values.push({ metricName: `${this.name}_sum`, labels: {}, value: this.sum });
    values.push({ metricName: `${this.name}_count`, labels: {}, value: this.count });
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

export class ServerMetrics {
  readonly registry = new client.Registry();
  readonly movesRelayed: client.Counter;
  readonly messagesReceived: client.Counter;
  readonly messagesRejected: client.Counter<'reason'>;
  readonly gamesStarted: client.Counter;
  readonly gamesEnded: client.Counter<'reason'>;
  readonly connectionsOpened: client.Counter;
  readonly relayLatency: FastHistogram;

  constructor(stats: LiveStats) {
    const registers = [this.registry];
    // process_cpu_seconds_total, process_resident_memory_bytes, nodejs_eventloop_lag_* (perf_hooks
    // monitorEventLoopDelay), heap and GC metrics.
    client.collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    const gauge = (name: string, help: string, read: () => number) =>
      new client.Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('chess_connections', 'Open WebSocket connections', () => stats.connections());
    gauge('chess_players_online', 'Distinct players with an open socket', () => stats.playersOnline());
    gauge('chess_queue_length', 'Players waiting in the matchmaking pool', () => stats.queueLength());
    gauge('chess_live_games', 'Multiplayer games in progress', () => stats.liveGames());
    gauge('chess_ai_games', 'Games against the AI in progress', () => stats.aiGames());
    this.movesRelayed = new client.Counter({ name: 'chess_moves_relayed_total', help: 'Moves accepted and sent to both players', registers });
    this.messagesReceived = new client.Counter({ name: 'chess_messages_received_total', help: 'Client messages received', registers });
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
    this.relayLatency = new FastHistogram(
      'chess_move_relay_seconds',
      'Time from receiving a move to having sent it to both players (server side)',
      [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    );
    this.registry.registerMetric(this.relayLatency as unknown as client.Metric);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
