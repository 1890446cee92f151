import { describe, expect, it } from 'vitest';
import { ratingChart } from '../../machines/client/ratingChart';

describe('rating chart geometry', () => {
  it('is empty without rated games and centres a single game', () => {
    expect(ratingChart([], 600, 200)).toBeNull();
    const one = ratingChart([{ at: 1, rating: 1500 }], 600, 200)!;
    expect(one.dots).toEqual([{ x: 300, y: 100, rating: 1500, at: 1 }]);
    expect([one.min, one.max]).toEqual([1450, 1550]);
  });

  it('spreads games evenly, higher ratings higher, inside the box', () => {
    const g = ratingChart(
      [
        { at: 1, rating: 1500 },
        { at: 2, rating: 1621 },
        { at: 3, rating: 1580 },
      ],
      600,
      200,
    )!;
    expect(g.dots.map((d) => d.x)).toEqual([0, 300, 600]);
    expect(g.dots[1]!.y).toBeLessThan(g.dots[2]!.y);
    expect(g.dots[2]!.y).toBeLessThan(g.dots[0]!.y);
    for (const d of g.dots) expect(d.y).toBeGreaterThanOrEqual(0), expect(d.y).toBeLessThanOrEqual(200);
    expect(g.path.startsWith('M0.0,')).toBe(true);
    expect(g.gridlines.every((l) => l.rating % 50 === 0 && l.y >= 0 && l.y <= 200)).toBe(true);
  });
});
