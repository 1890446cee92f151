import { describe, expect, it } from 'vitest';
import { GLICKO2_DEFAULTS, inflateDeviation, ratePeriod, rateGame } from '../../machines/rating';

// The worked example of Glickman's "Example of the Glicko-2 system" (2013): a 1500/200/0.06
// player beats a 1400/30 player and loses to 1550/100 and 1700/300 players, with tau = 0.5.
const paper = { tau: 0.5, minDeviation: 0, maxDeviation: 10_000 };
const player = { rating: 1500, deviation: 200, volatility: 0.06 };
const results = [
  { opponent: { rating: 1400, deviation: 30, volatility: 0.06 }, score: 1 as const },
  { opponent: { rating: 1550, deviation: 100, volatility: 0.06 }, score: 0 as const },
  { opponent: { rating: 1700, deviation: 300, volatility: 0.06 }, score: 0 as const },
];

describe('Glicko-2', () => {
  it("reproduces the paper's worked example to 0.01", () => {
    const next = ratePeriod(player, results, paper);
    expect(Math.abs(next.rating - 1464.06)).toBeLessThan(0.01);
    expect(Math.abs(next.deviation - 151.52)).toBeLessThan(0.01);
    expect(Math.abs(next.volatility - 0.05999)).toBeLessThan(0.00001);
  });

  it('grows only the deviation over a period without games', () => {
    const next = ratePeriod(player, [], paper);
    expect(next.rating).toBe(1500);
    expect(next.volatility).toBe(0.06);
    expect(next.deviation).toBeCloseTo(Math.sqrt(200 ** 2 + (0.06 * 173.7178) ** 2), 6);
    expect(inflateDeviation(player, 1, paper).deviation).toBeCloseTo(next.deviation, 9);
  });

  it('moves two new players symmetrically and keeps deviations in bounds', () => {
    const { initial, settings } = GLICKO2_DEFAULTS;
    const { white, black } = rateGame(initial, initial, 1);
    expect(white.rating).toBeGreaterThan(1500);
    expect(white.rating - 1500).toBeCloseTo(1500 - black.rating, 9);
    expect(white.deviation).toBeLessThan(initial.deviation);
    const drawn = rateGame(initial, initial, 0.5);
    expect(drawn.white.rating).toBeCloseTo(1500, 9);
    const settled = { rating: 1500, deviation: 45, volatility: 0.001 };
    let veteran = { ...initial, volatility: 0.001 };
    for (let i = 0; i < 500; i++) veteran = rateGame(veteran, settled, 0.5).white;
    expect(veteran.deviation).toBe(settings.minDeviation);
    expect(inflateDeviation(veteran, 1e9).deviation).toBe(settings.maxDeviation);
  });

  it('rewards an upset more than an expected win', () => {
    const strong = { rating: 1900, deviation: 80, volatility: 0.06 };
    const weak = { rating: 1500, deviation: 80, volatility: 0.06 };
    const upset = rateGame(weak, strong, 1).white.rating - weak.rating;
    const expected = rateGame(strong, weak, 1).white.rating - strong.rating;
    expect(upset).toBeGreaterThan(expected * 3);
  });
});
