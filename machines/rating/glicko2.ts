/**
 * Glicko-2 ratings (Mark E. Glickman, "Example of the Glicko-2 system", Boston University,
 * 2013; the algorithm's steps 1-8 are numbered the same way below). Pure: no clock, no I/O.
 *
 * A rating period here is one game, as lichess does for live play: each rated game updates
 * both players at once from their ratings before the game. See docs/ratings.md for the
 * constants and why they were chosen.
 */

/** A player's Glicko-2 rating on the familiar (Glicko-1) scale. */
export interface Glicko2Rating {
  /** the rating, 1500 for a new player */
  rating: number;
  /** rating deviation: how uncertain the rating is */
  deviation: number;
  /** volatility: how erratic the player's results are */
  volatility: number;
}

/** One game from a player's point of view: the opponent's rating and the score (1, 0.5, 0). */
export interface Glicko2Result {
  opponent: Glicko2Rating;
  score: 0 | 0.5 | 1;
}

export interface Glicko2Settings {
  /** the system constant tau: how far volatility may move per period (0.3 to 1.2 advised) */
  tau: number;
  /** deviations are kept within [minDeviation, maxDeviation] */
  minDeviation: number;
  maxDeviation: number;
}

export const GLICKO2_DEFAULTS = {
  initial: { rating: 1500, deviation: 350, volatility: 0.06 } satisfies Glicko2Rating,
  settings: { tau: 0.75, minDeviation: 45, maxDeviation: 350 } satisfies Glicko2Settings,
} as const;

/** Ratio between the Glicko-1 and Glicko-2 scales (step 2 of the paper). */
const SCALE = 173.7178;
/** Convergence tolerance of the volatility iteration (step 5 of the paper). */
const EPSILON = 0.000001;

interface Internal {
  mu: number;
  phi: number;
  sigma: number;
}

const toInternal = (r: Glicko2Rating): Internal => ({
  mu: (r.rating - 1500) / SCALE,
  phi: r.deviation / SCALE,
  sigma: r.volatility,
});

const g = (phi: number): number => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));

const expectedScore = (mu: number, muJ: number, phiJ: number): number => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/** Step 5: the new volatility, by the Illinois variant of regula falsi. */
function newVolatility(p: Internal, v: number, delta: number, tau: number): number {
  const a = Math.log(p.sigma * p.sigma);
  const phi2 = p.phi * p.phi;
  const f = (x: number): number => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi2 - v - ex)) / (2 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi2 + v) {
    B = Math.log(delta * delta - phi2 - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > EPSILON) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

const clampDeviation = (rd: number, s: Glicko2Settings): number => Math.min(s.maxDeviation, Math.max(s.minDeviation, rd));

/**
 * A player's rating after one rating period with `results` (steps 1-8). With no results only
 * the deviation grows (the paper's rule for a period without games).
 */
export function ratePeriod(
  player: Glicko2Rating,
  results: readonly Glicko2Result[],
  settings: Glicko2Settings = GLICKO2_DEFAULTS.settings,
): Glicko2Rating {
  const p = toInternal(player);
  if (results.length === 0) {
    const phiStar = Math.sqrt(p.phi * p.phi + p.sigma * p.sigma);
    return { ...player, deviation: clampDeviation(phiStar * SCALE, settings) };
  }
  let vInverse = 0;
  let improvement = 0;
  for (const { opponent, score } of results) {
    const o = toInternal(opponent);
    const gj = g(o.phi);
    const e = expectedScore(p.mu, o.mu, o.phi);
    vInverse += gj * gj * e * (1 - e);
    improvement += gj * (score - e);
  }
  const v = 1 / vInverse;
  const delta = v * improvement;
  const sigma = newVolatility(p, v, delta, settings.tau);
  const phiStar = Math.sqrt(p.phi * p.phi + sigma * sigma);
  const phi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const mu = p.mu + phi * phi * improvement;
  return { rating: SCALE * mu + 1500, deviation: clampDeviation(SCALE * phi, settings), volatility: sigma };
}

/** Both players' new ratings after one rated game; `whiteScore` is 1, 0.5 or 0. */
export function rateGame(
  white: Glicko2Rating,
  black: Glicko2Rating,
  whiteScore: 0 | 0.5 | 1,
  settings: Glicko2Settings = GLICKO2_DEFAULTS.settings,
): { white: Glicko2Rating; black: Glicko2Rating } {
  const blackScore = (1 - whiteScore) as 0 | 0.5 | 1;
  return {
    white: ratePeriod(white, [{ opponent: black, score: whiteScore }], settings),
    black: ratePeriod(black, [{ opponent: white, score: blackScore }], settings),
  };
}

/**
 * A deviation grown for `periods` rating periods without games (step 6 applied repeatedly):
 * a player back after a long absence is uncertain again, so their next games move them more.
 */
export function inflateDeviation(
  player: Glicko2Rating,
  periods: number,
  settings: Glicko2Settings = GLICKO2_DEFAULTS.settings,
): Glicko2Rating {
  if (!(periods > 0)) return player;
  const phi = player.deviation / SCALE;
  const grown = Math.sqrt(phi * phi + periods * player.volatility * player.volatility) * SCALE;
  return { ...player, deviation: clampDeviation(grown, settings) };
}
