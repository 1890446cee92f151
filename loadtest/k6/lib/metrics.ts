/**
 * Custom metrics shared by every scenario. k6 requires metrics to be created in the init
 * context, which module scope is. docs/operations.md explains each one.
 */
import { Counter, Trend } from 'k6/metrics';

/** ms from sending findGame to receiving gameStart. */
export const timeToPairing = new Trend('time_to_pairing', true);
/** ms from opening the socket to receiving connectionAck. */
export const connectTime = new Trend('connect_time', true);
/**
 * ms from sending a move (gameMove / playerMoveAI) to receiving the server's broadcast of that
 * same move: the time the server takes to validate a move and relay it to both players.
 */
export const moveRelayLatency = new Trend('move_relay_latency', true);
/** ms from our move's acknowledgement to the AI's reply arriving (includes its human-like pause). */
export const aiReplyTime = new Trend('ai_reply_time', true);
/** ms from opening the new socket after a drop to having the game back (gameStart with state). */
export const rejoinTime = new Trend('rejoin_time', true);
/**
 * ms the server charged one of our timed moves beyond what we thought (negative: the lag credit it
 * gave): lib/clock-watch.ts.
 */
export const clockDrift = new Trend('clock_drift', true);
/** ms a player's timer fired after it was due: the load generator's delay (lib/timers.ts). */
export const vuTimerLag = new Trend('vu_timer_lag', true);

/** Legal moves the server refused (moveRejected). Must stay 0. */
export const movesRejected = new Counter('moves_rejected');
/** Moves this run sent. */
export const movesPlayed = new Counter('moves_played');
/** Games that reached gameStart / gameCreated. */
export const gamesStarted = new Counter('games_started');
/** Games that ended with gameEnd / gameOver (tagged with reason). */
export const gamesFinished = new Counter('games_finished');
/** Games that started but never got an end event (socket lost, or game timeout). Must stay 0. */
export const gamesUnfinished = new Counter('games_unfinished');
/** Socket errors and sockets closed by the server while we still needed them. */
export const wsErrors = new Counter('ws_errors');
/**
 * Messages the player meant to send but the socket refused (not open, or send() threw), tagged
 * with the message type. Must stay 0: a refused findGame otherwise looks like a pairing timeout.
 */
export const wsSendRefused = new Counter('ws_send_refused');
/** `error` messages from the server. */
export const serverErrors = new Counter('server_errors');
/** Messages that contradict the protocol or our copy of the position (desync, bad JSON). */
export const protocolViolations = new Counter('protocol_violations');
/** Searches given up after PAIRING_TIMEOUT_MS without a partner. */
export const pairingTimeouts = new Counter('pairing_timeouts');
/** Deliberate drops (reconnect storm) and how many came back into their game. */
export const reconnects = new Counter('reconnects');
export const rejoinFailures = new Counter('rejoin_failures');
/**
 * The server's clock against our watch (lib/clock-watch.ts), tagged `kind`: overcredited (more
 * lag credit than the per-move cap), overcharged (more than the think time and the network),
 * early_flag, late_flag. Must stay 0.
 */
export const clockFaults = new Counter('clock_faults');

const COUNTERS = [
  movesRejected,
  movesPlayed,
  gamesStarted,
  gamesFinished,
  gamesUnfinished,
  wsErrors,
  wsSendRefused,
  serverErrors,
  protocolViolations,
  pairingTimeouts,
  reconnects,
  rejoinFailures,
  clockFaults,
];

/**
 * Adds a zero sample to every counter, so each one shows in the summary and its threshold is
 * evaluated on a real value even when nothing happened.
 */
export function touchCounters(): void {
  for (const c of COUNTERS) c.add(0);
}
