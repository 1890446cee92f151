/**
 * How the AI picks a move at a given level: the level's random-move chance first (the
 * deliberate weakness of the lowest levels), otherwise a bounded Stockfish search with the
 * level's Skill Level / depth / movetime. Used by the AI game service and by the strength
 * benchmark, so the benchmark measures exactly what players meet.
 */
import { replay } from '../../machines/ai/position';
import type { EnginePool } from './engine/pool';
import { levelSettings } from './levels';

export interface ChosenMove {
  uci: string;
  source: 'engine' | 'random';
  /** engine wall time (0 for random moves) */
  engineMs: number;
}

export interface ChooseOptions {
  /** caps every search's movetime (tests, benchmarks); the level's value otherwise */
  maxMovetimeMs?: number;
  random?: () => number;
  /** tag for the pool (the game id) */
  tag?: string;
}

export async function chooseAiMove(
  pool: EnginePool,
  levelNo: number,
  moves: readonly string[],
  opts: ChooseOptions = {},
): Promise<ChosenMove> {
  const level = levelSettings(levelNo);
  const random = opts.random ?? Math.random;
  if (level.randomMoveChance > 0 && random() < level.randomMoveChance) {
    const legal = replay(moves).legalMoves();
    if (legal.length > 0) {
      return { uci: legal[Math.floor(random() * legal.length)], source: 'random', engineMs: 0 };
    }
  }
  const movetimeMs = opts.maxMovetimeMs ? Math.min(level.movetimeMs, opts.maxMovetimeMs) : level.movetimeMs;
  const res = await pool.search(
    { moves: [...moves], skill: level.skill, depth: level.depth, movetimeMs },
    opts.tag,
  );
  return { uci: res.bestmove, source: 'engine', engineMs: res.engineMs };
}
