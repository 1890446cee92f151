/**
 * How the AI picks a move at a given level: a bounded Stockfish search with the level's
 * Skill Level / depth / movetime, then the level's random-move chance (the deliberate
 * weakness of the lower levels) may replace the engine's move by a random legal one, unless
 * the engine sees a short mate. Used by the AI game service and by the strength
 * benchmark, so the benchmark measures exactly what players meet.
 */
import { replay } from '../../machines/ai/position';
import type { EnginePool } from './engine/pool';
import { levelSettings } from './levels';

export interface ChosenMove {
  uci: string;
  source: 'engine' | 'random';
  /** engine wall time */
  engineMs: number;
}

export interface ChooseOptions {
  /** caps every search's movetime (tests, benchmarks); the level's value otherwise */
  maxMovetimeMs?: number;
  random?: () => number;
  /** tag for the pool (the game id) */
  tag?: string;
  /** fires when the move is no longer wanted (the game ended): the engine stops searching */
  signal?: AbortSignal;
}

/**
 * A mate the engine sees within this many moves is always played, even by the levels that
 * otherwise play random moves: a beginner who has the opponent's king in a net takes the
 * mate, and without this the weakest levels could not finish won games (they drew most of
 * them against the greedy bot by stalemate or by trading down to bare kings).
 */
export const ALWAYS_PLAY_MATE_IN = 2;

export async function chooseAiMove(
  pool: EnginePool,
  levelNo: number,
  moves: readonly string[],
  opts: ChooseOptions = {},
): Promise<ChosenMove> {
  const level = levelSettings(levelNo);
  const random = opts.random ?? Math.random;
  const movetimeMs = opts.maxMovetimeMs ? Math.min(level.movetimeMs, opts.maxMovetimeMs) : level.movetimeMs;
  const res = await pool.search(
    { moves: [...moves], skill: level.skill, depth: level.depth, movetimeMs },
    opts.tag,
    opts.signal,
  );
  const mate = res.lines[0]?.mate;
  const seesMate = mate !== undefined && mate > 0 && mate <= ALWAYS_PLAY_MATE_IN;
  if (!seesMate && level.randomMoveChance > 0 && random() < level.randomMoveChance) {
    const legal = replay(moves).legalMoves();
    if (legal.length > 0) {
      return { uci: legal[Math.floor(random() * legal.length)], source: 'random', engineMs: res.engineMs };
    }
  }
  return { uci: res.bestmove, source: 'engine', engineMs: res.engineMs };
}
