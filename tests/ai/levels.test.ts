/**
 * The level table and the move policy behind it, on a real engine.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChessGame } from '../../machines/chess/index';
import { EnginePool } from '../../server/ai/engine/pool';
import { resolveEngine } from '../../server/ai/engine/locate';
import { AI_LEVELS, DEFAULT_LEVEL, LEVEL_PRESETS, levelSettings } from '../../server/ai/levels';
import { chooseAiMove } from '../../server/ai/move-chooser';

let pool: EnginePool;
beforeAll(async () => {
  pool = await EnginePool.create({ spec: resolveEngine(), size: 1, logger: pino({ level: 'silent' }) });
});
afterAll(() => pool?.close());

describe('level table', () => {
  it('has levels 1..10 that only get stronger, with the product presets and default', () => {
    expect(AI_LEVELS.map((l) => l.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (let i = 1; i < AI_LEVELS.length; i++) {
      const [lo, hi] = [AI_LEVELS[i - 1], AI_LEVELS[i]];
      expect(hi.depth).toBeGreaterThan(lo.depth);
      expect(hi.movetimeMs).toBeGreaterThan(lo.movetimeMs);
      expect(hi.randomMoveChance).toBeLessThanOrEqual(lo.randomMoveChance);
    }
    expect(AI_LEVELS.every((l) => l.skill >= 0 && l.skill <= 20)).toBe(true);
    expect(levelSettings(10)).toMatchObject({ skill: 20, randomMoveChance: 0 });
    expect(DEFAULT_LEVEL).toBe(5);
    expect(LEVEL_PRESETS).toEqual({ beginner: 1, inter: 5, advanced: 9 });
    expect(() => levelSettings(0)).toThrow(RangeError);
  });
});

describe('move policy', () => {
  const alwaysRandom = () => 0; // every dice roll says "random move"

  it('the weak levels play random legal moves when their dice say so', async () => {
    const sources = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const m = await chooseAiMove(pool, 1, ['e2e4'], { random: alwaysRandom });
      sources.add(m.source);
      const g = new ChessGame();
      g.play('e2e4');
      expect(g.legalMoves()).toContain(m.uci);
    }
    expect([...sources]).toEqual(['random']);
  });

  it('but never throw away a mate in one', async () => {
    // 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6?? — Qxf7 is mate.
    const moves = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6'];
    const m = await chooseAiMove(pool, 1, moves, { random: alwaysRandom });
    expect(m).toMatchObject({ uci: 'h5f7', source: 'engine' });
  });

  it('level 10 plays the engine move regardless of the dice', async () => {
    const m = await chooseAiMove(pool, 10, ['e2e4', 'e7e5'], { random: alwaysRandom, maxMovetimeMs: 100 });
    expect(m.source).toBe('engine');
  });
});
