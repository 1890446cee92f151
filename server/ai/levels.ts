/**
 * The ten AI difficulty levels and the engine settings behind each.
 *
 * Reference: lichess maps its 8 levels to Stockfish
 * Skill Level / depth / movetime as
 *   -9/5/50ms, -5/5/100, -1/5/150, 3/5/200, 7/5/300, 11/8/400, 16/13/500, 20/22/1000
 * with a patched engine that accepts negative skill levels. Official Stockfish stops at
 * Skill Level 0, and Skill Level 0 is not weak in the way a beginner is: Stockfish picks its
 * skill-limited move from the iteration at depth 1 + skill among the 4 best lines, so it
 * rarely hangs a piece, but it also cannot see a mate in two, and in our first calibration
 * (level 1 = skill 0) it could not beat a one-ply greedy bot at all: 6 draws in 6 games by
 * stalemate and insufficient material, because it never finished a won game.
 *
 * So the lower levels get their weakness from two knobs that behave like a beginner:
 *   - a shallow full-strength search (depth 1 to 6: sees captures and short mates only), and
 *   - `randomMoveChance`: with that probability the move is a uniformly random legal move
 *     instead of the engine's (hanging a piece, missing a mate, wandering with the king).
 * From level 7 up the random moves stop and Stockfish's own Skill Level (with deeper
 * searches) takes over, up to full strength at level 10. (Calibration: keeping 2-3 % random
 * moves at level 7 made a cliff: a skill-12 level 8 then won 39 of 40 games against it, as
 * a single random move is fatal against an engine. Skill Level only chooses among moves
 * within about a pawn of the best, so it weakens without blundering pieces.)
 *
 * Lichess players complained that level 1 was unbeatable for someone who just learned the
 * rules (lila#6482) and that neighbouring levels were too far apart (lila#10763), so:
 *   - level 1 plays a random move 45% of the time and otherwise looks one ply deep; it still
 *     beats a bot that only grabs material, but anyone who defends their pieces beats it;
 *   - the steps were tuned by measurement to be as even as ten levels allow between that
 *     level 1 and full strength; each level is measured against the one below by
 *     `npm run bench:ai` (strength ladder), results in BENCHMARKS.md. Engine-against-engine
 *     score gaps overstate what a human notices (the stronger engine exploits every slip).
 *
 * The depth column is the main limit; movetime is a cap that binds on slow or busy hardware
 * (and keeps the WASM engine's replies short). A skill-limited level picks its move at
 * depth min(depth, 1 + skill): level 7 at depth 6, level 8 at 9, level 9 at 12.
 *
 * | level | skill | depth | movetime | random move | meant for                             |
 * |------:|------:|------:|---------:|------------:|---------------------------------------|
 * |     1 |    20 |     1 |    50 ms |        45 % | someone who just learned the rules    |
 * |     2 |    20 |     2 |   100 ms |        30 % | beginner                              |
 * |     3 |    20 |     3 |   150 ms |        24 % | beginner who defends pieces           |
 * |     4 |    20 |     4 |   200 ms |        16 % | casual player                         |
 * |     5 |    20 |     5 |   300 ms |        11 % | default: casual player who calculates |
 * |     6 |    20 |     6 |   400 ms |         5 % | club beginner                         |
 * |     7 |     5 |     8 |   500 ms |         0 % | club player                           |
 * |     8 |     8 |     9 |   600 ms |         0 % | strong club player                    |
 * |     9 |    13 |    12 |   800 ms |         0 % | expert                                |
 * |    10 |    20 |    18 |  1000 ms |         0 % | full strength within 1 s: beyond club |
 */
import { AI_DIFFICULTY } from '../../machines/protocol/constants';

export interface AiLevel {
  level: number;
  /** Stockfish `Skill Level` 0..20 */
  skill: number;
  /** `go depth` */
  depth: number;
  /** `go movetime` (ms): upper bound of one search */
  movetimeMs: number;
  /** probability of playing a uniformly random legal move instead of the engine's */
  randomMoveChance: number;
  label: string;
}

export const AI_LEVELS: readonly AiLevel[] = [
  { level: 1, skill: 20, depth: 1, movetimeMs: 50, randomMoveChance: 0.45, label: 'Beginner' },
  { level: 2, skill: 20, depth: 2, movetimeMs: 100, randomMoveChance: 0.3, label: 'Beginner' },
  { level: 3, skill: 20, depth: 3, movetimeMs: 150, randomMoveChance: 0.24, label: 'Beginner' },
  { level: 4, skill: 20, depth: 4, movetimeMs: 200, randomMoveChance: 0.16, label: 'Inter' },
  { level: 5, skill: 20, depth: 5, movetimeMs: 300, randomMoveChance: 0.11, label: 'Inter' },
  { level: 6, skill: 20, depth: 6, movetimeMs: 400, randomMoveChance: 0.05, label: 'Inter' },
  { level: 7, skill: 5, depth: 8, movetimeMs: 500, randomMoveChance: 0, label: 'Inter' },
  { level: 8, skill: 8, depth: 9, movetimeMs: 600, randomMoveChance: 0, label: 'Advanced' },
  { level: 9, skill: 13, depth: 12, movetimeMs: 800, randomMoveChance: 0, label: 'Advanced' },
  { level: 10, skill: 20, depth: 18, movetimeMs: 1000, randomMoveChance: 0, label: 'Advanced' },
];

/** The range and default the protocol's startAIGame schema allows (docs/protocol.md). */
export const MIN_LEVEL = AI_DIFFICULTY.min;
export const MAX_LEVEL = AI_DIFFICULTY.max;
/** Default difficulty 5; presets 1 (Beginner), 5 (Inter), 9 (Advanced), as the client shows them. */
export const DEFAULT_LEVEL = AI_DIFFICULTY.default;
export const LEVEL_PRESETS = { beginner: 1, inter: 5, advanced: 9 } as const;

export function levelSettings(level: number): AiLevel {
  const found = AI_LEVELS.find((l) => l.level === level);
  if (!found) throw new RangeError(`AI level must be an integer ${MIN_LEVEL}..${MAX_LEVEL}, got ${level}`);
  return found;
}
