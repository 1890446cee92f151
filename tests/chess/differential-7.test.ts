import { describe, expect, it } from 'vitest';
import { seeded } from '../../server/seeded';
import { type GameStats, playRandomGame } from './differential-helper';

// Part 7 of 8: 250 of the 2,000 random games (files run in parallel), chess.js through its public API.
describe('random games agree with chess.js (part 7/8)', () => {
  for (let batch = 0; batch < 5; batch++) {
    it(`games ${batch * 50 + 1}-${batch * 50 + 50}`, () => {
      const rand = seeded(0x5eed0000 + 7 * 1000 + batch);
      const stats: GameStats = { games: 0, plies: 0, endings: {} };
      for (let g = 0; g < 50; g++) playRandomGame(rand, 300, stats);
      expect(stats.games).toBe(50);
    }, 120_000);
  }
});
