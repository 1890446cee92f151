/**
 * Lag pings: every socket is pinged about once per interval, and half the round trip of its
 * pong is the socket's one-way lag, which the game machine credits to the player's moves
 * (docs/product.md). A ping of its own costs a system call and a wake-up of the receiver, as much
 * as a frame, so a due ping rides along with a frame the socket is being sent anyway whenever uWS
 * can put both in one write: to the socket whose message is being handled (uWS has corked it)
 * or, outside a socket handler (clock reports on the heartbeat), to any socket. A player in a
 * game gets frames every few seconds, so its pings nearly all go that way; a socket that gets
 * none (a player in the lobby) is pinged by a sweep spread over the interval.
 *
 * A ping is due 0.9 of an interval after the last one: the sweep comes by each socket about once
 * an interval, a little early or late as sockets come and go, and a socket it found not quite due
 * would otherwise wait a second interval. To a player in a game the sweep leaves two intervals
 * for a frame to take the ping (a corkable frame comes at least every few seconds once the
 * clocks run: the own move's echo, each clock report); only then does it ping alone.
 */
import type { MoveLag } from '../../machines/game';
import type { SocketData, WS } from '../round/types';

/** pings a socket has not answered that are kept to time their pongs (older ones are forgotten) */
const MAX_PINGS_IN_FLIGHT = 8;

/** What a lag ping carries: its send time, which its pong must echo to be timed. */
function pingPayload(sentAt: number): string {
  return sentAt.toFixed(1);
}

export interface LagPingCounters {
  withFrame: { inc(): void };
  alone: { inc(): void };
}

export class LagPings {
  /** The socket uWS has corked: set by Realtime while that socket's message handler runs. */
  corked: WS | null = null;
  /** where the sweep has got to in the socket set (null: the next beat starts a round) */
  private cursor: Iterator<WS> | null = null;
  /** sockets the sweep owes a visit and has not yet made: a fraction carried from beat to beat */
  private owed = 0;
  /** the last sweep's performance.now(): a clock at most one heartbeat old, to tell a due ping */
  private clock = 0;
  private readonly dueAfterMs: number;
  /** how long the sweep waits for a frame to take a due ping to a player in a game */
  private readonly inGameDueAfterMs: number;

  constructor(
    private readonly intervalMs: number,
    private readonly counters: LagPingCounters,
  ) {
    this.dueAfterMs = intervalMs * 0.9;
    this.inGameDueAfterMs = intervalMs * 2;
  }

  /** `lastPingAt` of a socket never pinged: the first chance pings it. */
  static readonly NEVER = Number.NEGATIVE_INFINITY;

  /** Sends a frame to `ws`, and a ping in the same write when one is due and can share it. Returns uWS's send status. */
  send(ws: WS, data: SocketData, frame: Uint8Array): number {
    if (this.clock - data.lastPingAt < this.dueAfterMs) return ws.send(frame, false);
    const corked = this.corked;
    if (corked === ws) {
      this.ping(ws, data, this.counters.withFrame);
      return ws.send(frame, false);
    }
    // Inside another socket's handler uWS cannot cork this one: the ping waits for a better write.
    if (corked !== null) return ws.send(frame, false);
    let status = 0;
    ws.cork(() => {
      this.ping(ws, data, this.counters.withFrame);
      status = ws.send(frame, false);
    });
    return status;
  }

  /**
   * One heartbeat's share of the sweep: every socket is visited once per interval, a share of
   * them on each beat (pinging all at once held the event loop for one send per socket, about
   * 200 ms for 10,000 players), and pinged if no frame has taken a ping to it lately.
   */
  sweep(sockets: Set<WS>, beatMs: number, now: number): void {
    this.clock = now;
    this.owed = Math.min(sockets.size, this.owed + (sockets.size * beatMs) / this.intervalMs);
    while (this.owed >= 1) {
      // a Set's iterator sees the sockets added after it was made and skips the ones deleted
      this.cursor ??= sockets.values();
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = null; // the round is over; the next beat starts another
        return;
      }
      this.owed--;
      const data = next.value.getUserData();
      const dueAfter = data.session?.game ? this.inGameDueAfterMs : this.dueAfterMs;
      if (!data.closing && now - data.lastPingAt >= dueAfter) this.ping(next.value, data, this.counters.alone);
    }
  }

  /**
   * A pong. The round trip is timed from when this server sent the ping it answers to now: the
   * payload only says which of the socket's pings in flight it answers (pongs to uWS's own
   * keep-alive pings and unsolicited ones match none) and carries no time a client could forge.
   * A client can still answer late, which costs it as much real time as it claims; the game
   * caps the credit. Earlier pings still in flight are dropped (pongs come in order).
   */
  pong(data: SocketData, message: ArrayBuffer): void {
    const inFlight = data.pingsInFlight;
    if (inFlight.length === 0 || message.byteLength === 0 || message.byteLength > 32) return;
    const text = Buffer.from(message).toString('latin1');
    const i = inFlight.findIndex((sentAt) => pingPayload(sentAt) === text);
    if (i < 0) return;
    const rtt = performance.now() - inFlight[i];
    inFlight.splice(0, i + 1);
    if (rtt < 0 || rtt > 60_000) return;
    const oneWay = rtt / 2;
    data.lagMs = data.lagMs === undefined ? oneWay : data.lagMs * 0.7 + oneWay * 0.3;
  }

  private ping(ws: WS, data: SocketData, counter: { inc(): void }): void {
    const now = performance.now();
    data.lastPingAt = now;
    if (data.pingsInFlight.push(now) > MAX_PINGS_IN_FLIGHT) data.pingsInFlight.shift();
    ws.ping(pingPayload(now));
    counter.inc();
  }
}

/**
 * What a move arriving at `now` carries of its socket's lag: the measured one-way lag, and how
 * long the oldest ping still unanswered has been on its way (the game credits no lag to a move
 * that a held answer precedes: machines/game/clock.ts, creditableLag).
 */
export function moveLag(data: SocketData, now: number): MoveLag {
  const oldest = data.pingsInFlight[0];
  return { lagMs: data.lagMs, unansweredPingMs: oldest === undefined ? undefined : now - oldest };
}
