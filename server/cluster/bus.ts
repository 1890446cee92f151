/**
 * Messages to other nodes over Redis pub/sub. A player's round command (a move above all), a
 * frame for a player, a seat's change, a search and a paired game's creation are critical: while Redis is away, or no node listens on the channel it goes to (the owner's
 * subscription is still coming back after an outage), it is held, in order, and sent again every
 * RETRY_MS, for at most HOLD_MS, instead of being dropped (as lila-ws keeps a player's moves for
 * lila while their link is down). Any other message goes when it can; a publish that fails is
 * counted as failed, not as lost: one that timed out may have arrived. Its sender may ask to hear
 * of the failure, to tell it again once Redis answers.
 */
import type { Logger } from 'pino';
import type { ClusterMetrics } from '../http/metrics';
import type { ClusterKeys } from './keys';
import type { BusMessage } from './messages';
import type { RedisLink } from './redis';

/** How often held messages are tried again. */
export const RETRY_MS = 250;
/** How long a critical message is held at most (a Redis restart takes seconds); then dropped, counted. */
export const HOLD_MS = 15_000;
/** Held messages at most; past it the oldest are dropped (counted). */
export const MAX_HELD = 10_000;

/** ioredis's refusal of a command while its connection is down (nothing was written). */
const NOT_WRITTEN = /enableOfflineQueue/;

/**
 * What must arrive though Redis is away when it is sent: a player's command, a frame for a player
 * (a game's end above all: its loss would leave the player in a game that is over), a player's
 * seat taken or given back (lost, the player's node would keep them in a game that ended), a
 * search joined or left, and a paired game to create (lost, the players would search for ever).
 */
const CRITICAL: ReadonlySet<BusMessage['k']> = new Set(['cmd', 'frame', 'seat', 'unseat', 'join', 'leave', 'create']);
const isCritical = (msg: BusMessage): boolean => CRITICAL.has(msg.k);
/**
 * Critical messages that may arrive twice (a seat names its game, a search its player: the second
 * changes nothing), so a publish that failed in flight is sent again; the others only when nothing
 * was written (a move must not be played twice, a game not created twice).
 */
const REPEATABLE: ReadonlySet<BusMessage['k']> = new Set(['seat', 'unseat', 'join', 'leave']);

interface Held {
  node: string;
  text: string;
  k: BusMessage['k'];
  /** performance.now() when it was first held */
  since: number;
  /** told when its publish failed and it is not sent again */
  failed?: () => void;
}

export class Bus {
  private held: Held[] = [];
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: RedisLink,
    private readonly keys: ClusterKeys,
    private readonly metrics: ClusterMetrics,
    private readonly logger: Logger,
  ) {}

  /**
   * A message to `node`. `failed` is told when its publish failed and it is not sent again (Redis
   * away, or the connection lost with the publish in flight: it was lost; or it timed out, and
   * may still arrive).
   */
  publish(node: string, msg: BusMessage, failed?: () => void): void {
    const m: Held = { node, text: JSON.stringify(msg), k: msg.k, since: 0, ...(failed ? { failed } : {}) };
    if (!isCritical(msg)) return this.send(m, false);
    // behind the ones already waiting, so a player's commands keep their order
    if (this.held.length > 0 || !this.redis.reachable) return this.hold(m);
    this.send(m, true);
  }

  /** Sends the held messages, in the order they came (Redis is back, or a retry is due). */
  flush(): void {
    if (this.held.length === 0 || !this.redis.reachable) return;
    const now = performance.now();
    const held = this.held;
    this.held = [];
    for (const m of held) {
      if (now - m.since > HOLD_MS) this.drop(m, 'held too long');
      else this.send(m, true);
    }
  }

  /** Shutdown: nothing is tried again. */
  stop(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private send(m: Held, critical: boolean): void {
    this.metrics.crossNodeMessages.inc({ direction: 'sent' });
    this.redis.cmd.publish(this.keys.channel(m.node), m.text).then(
      // nobody listened: the receiving node's subscription is not back yet (or the node is gone)
      (listeners) => {
        if (critical && listeners === 0) this.hold(m);
      },
      (err: Error) => {
        if (critical && (NOT_WRITTEN.test(err.message) || REPEATABLE.has(m.k))) return this.hold(m);
        this.metrics.crossNodeMessages.inc({ direction: 'failed' });
        this.logger.warn({ err: err.message, to: m.node, k: m.k }, 'message to another node failed');
        m.failed?.();
      },
    );
  }

  private hold(m: Held): void {
    if (m.since === 0) {
      m.since = performance.now();
      this.metrics.crossNodeMessages.inc({ direction: 'held' });
    }
    this.held.push(m);
    if (this.held.length > MAX_HELD) this.drop(this.held.shift()!, 'too many held');
    if (!this.retry) this.retryLater();
  }

  private retryLater(): void {
    this.retry = setTimeout(() => {
      this.retry = null;
      this.flush();
      if (this.held.length > 0 && !this.retry) this.retryLater();
    }, RETRY_MS);
    this.retry.unref?.();
  }

  private drop(m: Held, why: string): void {
    this.metrics.crossNodeMessages.inc({ direction: 'dropped' });
    this.logger.warn({ to: m.node, k: m.k, why }, 'a held message to another node was dropped');
  }
}
