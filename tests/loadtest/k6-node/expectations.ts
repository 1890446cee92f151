/**
 * What the scenario tests ask of a k6 run at test scale, shared by the single-node and the
 * several-node tests.
 */
import { expect } from 'vitest';
import type { ScenarioRun } from './run-scenario';

/**
 * These runs check behaviour; the players share the machine (and two cores) with the server(s)
 * and the rest of the suite, so the latency limits are widened here. Latency is held to stated
 * limits at CI scale in k6-ci-scale.test.ts, with the server in its own process.
 */
export const RELAXED_LATENCY = {
  P95_RELAY_MS: '1000',
  P99_RELAY_MS: '2000',
  P95_PAIRING_MS: '3000',
  P99_PAIRING_MS: '5000',
  P95_CONNECT_MS: '3000',
  P95_REJOIN_MS: '3000',
  P99_TIMER_LAG_MS: '1000',
};

/** The settings every scenario test runs with against the server at `baseUrl`: quick players, RELAXED_LATENCY. */
export function scenarioEnv(baseUrl: string): Record<string, string> {
  return { BASE_URL: baseUrl, THINK_MIN_MS: '20', THINK_MAX_MS: '80', ...RELAXED_LATENCY };
}

/** A reconnect storm at test scale: games to 14 plies, every player dropping once for 100-400 ms. */
export const RECONNECT_STORM = { MAX_PLIES: '14', RECONNECT_SHARE: '1', OFFLINE_MIN_MS: '100', OFFLINE_MAX_MS: '400' };

export function expectAllThresholdsPass(run: ScenarioRun): void {
  expect(run.failed, JSON.stringify(run.failed)).toEqual([]);
  // k6 passes a threshold whose metric got no sample; here each one must have judged something.
  expect(run.thresholds.filter((t) => t.value === null).map((t) => `${t.metric} ${t.expression}`)).toEqual([]);
}

/**
 * A steady-play run at test scale: every player's game finished, no move refused, no message
 * out of the protocol, and every move sent came back as the server's gameMove broadcast.
 */
export function expectSteadyPlayComplete(run: ScenarioRun, players: number): void {
  expectAllThresholdsPass(run);
  expect(run.count('games_finished')).toBe(players);
  expect(run.count('moves_rejected')).toBe(0);
  expect(run.count('protocol_violations')).toBe(0);
  expect(run.samples('move_relay_latency')).toHaveLength(run.count('moves_played'));
}

/**
 * A reconnect-storm run at test scale: every player's game finished and every player who
 * dropped came back into it (a rejoin time for each reconnect, no failed rejoin).
 */
export function expectEveryRejoinComplete(run: ScenarioRun, players: number): void {
  expectAllThresholdsPass(run);
  expect(run.count('games_finished')).toBe(players);
  expect(run.count('rejoin_failures')).toBe(0);
  expect(run.samples('rejoin_time')).toHaveLength(run.count('reconnects'));
}

/**
 * Every player dropped once, but for those whose game ended before their drop came (a quick
 * random mate or repetition: any end but resignation at the ply cap).
 */
export function expectADropPerPlayer(run: ScenarioRun, players: number): void {
  const endings = run.metrics.get('games_finished')!.tags.map((t) => t.reason).filter(Boolean);
  const early = endings.filter((r) => r !== 'resignation').length;
  expect(run.count('reconnects'), endings.join(',')).toBeGreaterThanOrEqual(players - early);
}
