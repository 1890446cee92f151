/**
 * The metrics that judge the load generator rather than the server. When one of their
 * thresholds fails, the generator could not keep up (its CPU, or too few VUs), so the server
 * figures of that run are not to be trusted either way. Plain names, no k6 import: the Node
 * stand-in's summary reads this list too.
 */
export const GENERATOR_METRICS: readonly string[] = [
  // ms a player's timer fired after it was due: the generator's own event-loop delay
  'vu_timer_lag',
  // k6's own: arrivals an arrival-rate scenario could not start
  'dropped_iterations',
];
