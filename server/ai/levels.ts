/**
 * The ten AI difficulty levels and the engine settings behind each.
 *
 * Reference (shared/notes/live-play.md): lichess maps its 8 levels to Stockfish
 * Skill Level / depth / movetime as
 *   -9/5/50ms, -5/5/100, -1/5/150, 3/5/200, 7/5/300, 11/8/400, 16/13/500, 20/22/1000
 * using a patched engine that accepts negative skill levels. Official Stockfish stops at
 * Skill Level 0, so our weakest levels get their weakness elsewhere:
 *   - a shallow search (depth 1-3), and
 *   - `randomMoveChance`: with that probability the move is a uniformly random legal move
 *     instead of the engine's choice (a beginner's blunder: hanging a piece, missing a mate).
 * Lichess players complained that level 1 was unbeatable for someone who just learned the
 * rules (lila#6482) and that neighbouring levels were too far apart (lila#10763), so:
 *   - level 1 plays a random move 40% of the time and otherwise only looks one ply deep;
 *   - the steps between levels are small and roughly even (each is measured to beat the one
 *     below by `npm run bench:ai`, results in BENCHMARKS.md).
 *
 * How Stockfish's Skill Level works (it matters for the table): below 20 the engine searches
 * with at least 4 principal variations and, at depth 1 + skill, picks among them with a
 * random bonus that shrinks as skill grows. Depth beyond 1 + skill adds little, so the
 * depth column is kept near that value for the skill-limited levels; movetime is a cap that
 * only binds on slow hardware (and keeps the WASM engine's reply time sane).
 *
 * | level | skill | depth | movetime | random move | meant for                         |
 * |------:|------:|------:|---------:|------------:|-----------------------------------|
 * |     1 |     0 |     1 |    50 ms |        40 % | someone who just learned the rules|
 * |     2 |     0 |     2 |   100 ms |        25 % | beginner                          |
 * |     3 |     1 |     3 |   150 ms |        12 % | casual player                     |
 * |     4 |     3 |     4 |   200 ms |         5 % | improving casual player           |
 * |     5 |     6 |     6 |   300 ms |         0 % | default: average club beginner    |
 * |     6 |     9 |     8 |   400 ms |         0 % | club player                       |
 * |     7 |    12 |    10 |   500 ms |         0 % | strong club player                |
 * |     8 |    15 |    13 |   600 ms |         0 % | expert                            |
 * |     9 |    18 |    16 |   800 ms |         0 % | master                            |
 * |    10 |    20 |    22 |  1000 ms |         0 % | full strength within 1 s          |
 */

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
  { level: 1, skill: 0, depth: 1, movetimeMs: 50, randomMoveChance: 0.4, label: 'Beginner' },
  { level: 2, skill: 0, depth: 2, movetimeMs: 100, randomMoveChance: 0.25, label: 'Beginner' },
  { level: 3, skill: 1, depth: 3, movetimeMs: 150, randomMoveChance: 0.12, label: 'Beginner' },
  { level: 4, skill: 3, depth: 4, movetimeMs: 200, randomMoveChance: 0.05, label: 'Inter' },
  { level: 5, skill: 6, depth: 6, movetimeMs: 300, randomMoveChance: 0, label: 'Inter' },
  { level: 6, skill: 9, depth: 8, movetimeMs: 400, randomMoveChance: 0, label: 'Inter' },
  { level: 7, skill: 12, depth: 10, movetimeMs: 500, randomMoveChance: 0, label: 'Inter' },
  { level: 8, skill: 15, depth: 13, movetimeMs: 600, randomMoveChance: 0, label: 'Advanced' },
  { level: 9, skill: 18, depth: 16, movetimeMs: 800, randomMoveChance: 0, label: 'Advanced' },
  { level: 10, skill: 20, depth: 22, movetimeMs: 1000, randomMoveChance: 0, label: 'Advanced' },
];

export const MIN_LEVEL = 1;
export const MAX_LEVEL = 10;
/** SPEC section 9: default difficulty 5; presets 1 (Beginner), 5 (Inter), 9 (Advanced). */
export const DEFAULT_LEVEL = 5;
export const LEVEL_PRESETS = { beginner: 1, inter: 5, advanced: 9 } as const;

export function levelSettings(level: number): AiLevel {
  const found = AI_LEVELS.find((l) => l.level === level);
  if (!found) throw new RangeError(`AI level must be an integer ${MIN_LEVEL}..${MAX_LEVEL}, got ${level}`);
  return found;
}
