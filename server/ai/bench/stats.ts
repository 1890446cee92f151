/** Small statistics helpers for the AI benchmark. */

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export interface MatchScore {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** mean score of the side being measured, 0..1 */
  score: number;
  /** half-width of the 95% confidence interval of `score` (normal approximation on per-game scores) */
  ci95: number;
  /**
   * 95% Wilson score interval of `score` (draws count half). Unlike the normal approximation
   * it stays meaningful at 100% or 0% (20 wins of 20 -> 83.9% … 100%).
   */
  low: number;
  high: number;
  /** Elo difference implied by `score`, and by the Wilson bounds */
  elo: number;
  eloLow: number;
  eloHigh: number;
}

export function eloFromScore(s: number): number {
  const c = Math.min(0.999, Math.max(0.001, s));
  return -400 * Math.log10(1 / c - 1);
}

export function matchScore(results: (1 | 0.5 | 0)[]): MatchScore {
  const n = results.length;
  const wins = results.filter((r) => r === 1).length;
  const draws = results.filter((r) => r === 0.5).length;
  const losses = n - wins - draws;
  const mean = n ? (wins + draws / 2) / n : NaN;
  const variance = n > 1 ? results.reduce<number>((a, r) => a + (r - mean) ** 2, 0) / (n - 1) : NaN;
  const ci95 = 1.96 * Math.sqrt(variance / n);
  const z = 1.96;
  const denom = 1 + (z * z) / n;
  const centre = (mean + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((mean * (1 - mean)) / n + (z * z) / (4 * n * n))) / denom;
  return {
    low: centre - half,
    high: centre + half,
    games: n,
    wins,
    draws,
    losses,
    score: mean,
    ci95,
    elo: eloFromScore(mean),
    eloLow: eloFromScore(centre - half),
    eloHigh: eloFromScore(centre + half),
  };
}
