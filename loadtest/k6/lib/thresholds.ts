/**
 * Pass/fail rules. A failed threshold makes `k6 run` exit non-zero (exit code 99), so a CI job
 * or an operator's script sees a failed run. Latency limits can be changed per run with the
 * environment variables named below; the correctness rules (no rejected legal move, no game
 * without an end, no socket error) are fixed.
 */
import type { Options } from 'k6/options';
import { envInt } from './config.ts';

type Thresholds = NonNullable<Options['thresholds']>;

/** Rules every scenario shares. */
export function correctnessThresholds(): Thresholds {
  return {
    // The scripts only send moves the chess core calls legal: any refusal is a server bug
    // (or a desync between the server and the client's copy of the game).
    moves_rejected: ['count==0'],
    games_unfinished: ['count==0'],
    protocol_violations: ['count==0'],
    ws_errors: [`count<=${envInt('MAX_WS_ERRORS', 0, 0, 1_000_000)}`],
    // A message the player could not send is a fault of the script or of k6, never load.
    ws_send_refused: ['count==0'],
    server_errors: [`count<=${envInt('MAX_SERVER_ERRORS', 0, 0, 1_000_000)}`],
    games_finished: ['count>0'],
    checks: ['rate>0.99'],
  };
}

export function pairingThresholds(): Thresholds {
  return {
    time_to_pairing: [
      `p(95)<${envInt('P95_PAIRING_MS', 1000, 1, 600_000)}`,
      `p(99)<${envInt('P99_PAIRING_MS', 2000, 1, 600_000)}`,
    ],
    // In a FIFO pool at most one player waits alone at any moment, so only the very last
    // arrival of a run can be left without a partner.
    pairing_timeouts: ['count<=1'],
    connect_time: [`p(95)<${envInt('P95_CONNECT_MS', 1000, 1, 600_000)}`],
  };
}

/**
 * The generator's own health (lib/generator-metrics.ts), reported apart from the server's:
 * - vu_timer_lag: players' timers firing late means the generator is short of CPU, and every
 *   latency it measures is inflated by up to that much.
 * - dropped_iterations (k6's own, arrival-rate scenarios only): arrivals k6 could not start
 *   because every VU was busy; the storm was smaller than asked (raise MAX_VUS or add
 *   generators).
 */
export function generatorThresholds(opts: { arrivals: boolean }): Thresholds {
  return {
    vu_timer_lag: [`p(99)<${envInt('P99_TIMER_LAG_MS', 100, 1, 600_000)}`],
    ...(opts.arrivals ? { dropped_iterations: ['count==0'] } : {}),
  };
}

export function relayThresholds(): Thresholds {
  return {
    move_relay_latency: [
      `p(95)<${envInt('P95_RELAY_MS', 200, 1, 600_000)}`,
      `p(99)<${envInt('P99_RELAY_MS', 500, 1, 600_000)}`,
    ],
  };
}

export function rejoinThresholds(): Thresholds {
  return {
    rejoin_failures: ['count==0'],
    rejoin_time: [`p(95)<${envInt('P95_REJOIN_MS', 1000, 1, 600_000)}`],
    reconnects: ['count>0'],
  };
}

export function aiThresholds(): Thresholds {
  return {
    ai_reply_time: [`p(95)<${envInt('P95_AI_REPLY_MS', 8000, 1, 600_000)}`],
  };
}

/** The server's clock audited from the players' side (lib/clock-watch.ts). */
export function clockThresholds(): Thresholds {
  return { clock_faults: ['count==0'] };
}
