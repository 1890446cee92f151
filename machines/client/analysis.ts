/**
 * Game analysis, the pure parts: reading Stockfish's UCI `info` lines, scores from White's side,
 * classifying each move by centipawn loss, and the geometry of the evaluation graph.
 *
 * Thresholds (centipawn loss of the move, from the mover's side, evaluations capped at
 * ±EVAL_CAP_CP): inaccuracy ≥ 50 (half a pawn), mistake ≥ 100 (a pawn), blunder ≥ 300 (a minor
 * piece). These are the centipawn steps chess tools long used before lichess moved to
 * winning-chance loss. The cap keeps a won position from producing "blunders": going from +15
 * to +8 loses nothing that matters. A mate score counts as the cap (mate for the mover = +cap).
 */
import type { Color } from '../protocol/messages';
import { applyMove, positionOf } from './engine';

/** A score as the engine reports it: from the side to move. */
export type Score = { kind: 'cp'; value: number } | { kind: 'mate'; value: number };

export interface EngineInfo {
  depth: number;
  score: Score;
  /** principal variation, UCI moves */
  pv: string[];
}

export const EVAL_CAP_CP = 1000;
export const LOSS_THRESHOLDS = { inaccuracy: 50, mistake: 100, blunder: 300 } as const;
export type MoveJudgement = keyof typeof LOSS_THRESHOLDS;

/** One `info ... depth N ... score cp|mate X ... pv ...` line; null for any other line. */
export function parseInfo(line: string): EngineInfo | null {
  const t = line.trim().split(/\s+/);
  if (t[0] !== 'info') return null;
  let depth: number | null = null;
  let score: Score | null = null;
  let pv: string[] = [];
  for (let i = 1; i < t.length; i++) {
    const key = t[i];
    if (key === 'depth') depth = Number(t[++i]);
    else if (key === 'score') {
      const kind = t[++i];
      const value = Number(t[++i]);
      if ((kind === 'cp' || kind === 'mate') && Number.isFinite(value)) score = { kind, value };
      if (t[i + 1] === 'lowerbound' || t[i + 1] === 'upperbound') return null; // not an exact score
    } else if (key === 'pv') {
      pv = t.slice(i + 1);
      break;
    }
  }
  if (depth === null || !Number.isInteger(depth) || score === null || pv.length === 0) return null;
  return { depth, score, pv };
}

/** The score from White's side, given who is to move in the analysed position. */
export function whiteScore(score: Score, turn: Color): Score {
  return turn === 'white' ? score : { kind: score.kind, value: -score.value };
}

/** Centipawns from White's side, capped; a mate counts as the cap (mate now, `#0`, as the loser's). */
export function cappedCp(white: Score): number {
  if (white.kind === 'mate') return white.value > 0 ? EVAL_CAP_CP : -EVAL_CAP_CP;
  return Math.max(-EVAL_CAP_CP, Math.min(EVAL_CAP_CP, white.value));
}

/** "+0.35", "-1.20", "#3" (White mates in 3), "#-2" (Black mates in 2). */
export function formatScore(white: Score): string {
  if (white.kind === 'mate') return `#${white.value}`;
  const pawns = (white.value / 100).toFixed(2);
  return white.value >= 0 ? `+${pawns}` : pawns;
}

/** How many centipawns the mover lost with a move, from the evaluations (White's side) before and after. */
export function centipawnLoss(before: Score, after: Score, mover: Color): number {
  const drop = cappedCp(before) - cappedCp(after);
  return Math.max(0, mover === 'white' ? drop : -drop);
}

/** The worst judgement a loss reaches, or null for a good move. */
export function judge(loss: number): MoveJudgement | null {
  if (loss >= LOSS_THRESHOLDS.blunder) return 'blunder';
  if (loss >= LOSS_THRESHOLDS.mistake) return 'mistake';
  if (loss >= LOSS_THRESHOLDS.inaccuracy) return 'inaccuracy';
  return null;
}

export interface JudgedMove { ply: number; mover: Color; loss: number; judgement: MoveJudgement }

/** The move-list annotation of each judgement, as in PGN and on lichess. */
export const ANNOTATION_GLYPHS: Record<MoveJudgement, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };
export const JUDGEMENT_NAMES: Record<MoveJudgement, string> = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

/**
 * Judges every move from the evaluations of every position (index 0 = start, White's side;
 * null where not evaluated yet). Move n (1-based ply) goes from position n-1 to position n.
 */
export function judgeGame(evals: readonly (Score | null)[], firstMover: Color = 'white'): JudgedMove[] {
  const judged: JudgedMove[] = [];
  for (let ply = 1; ply < evals.length; ply++) {
    const before = evals[ply - 1];
    const after = evals[ply];
    if (!before || !after) continue;
    const mover: Color = (ply % 2 === 1) === (firstMover === 'white') ? 'white' : 'black';
    const loss = centipawnLoss(before, after, mover);
    const judgement = judge(loss);
    if (judgement) judged.push({ ply, mover, loss, judgement });
  }
  return judged;
}

/**
 * The score of a position with no legal move, from White's side (the engine gives no line there):
 * the side checkmated has lost (the cap), stalemate is equal; null when there are moves.
 */
export function terminalScore(fen: string): Score | null {
  const status = positionOf(fen).status();
  if (status.checkmate) return { kind: 'cp', value: status.turn === 'white' ? -EVAL_CAP_CP : EVAL_CAP_CP };
  if (status.stalemate) return { kind: 'cp', value: 0 };
  return null;
}

/**
 * What a position with no legal move reads instead of an evaluation: "#" and the result after a
 * mate, the draw after a stalemate; null when there are moves (the engine's number stands).
 */
export function terminalVerdict(fen: string): { score: string; text: string } | null {
  const status = positionOf(fen).status();
  if (status.checkmate) return { score: '#', text: `Checkmate · ${status.turn === 'white' ? '0-1' : '1-0'}` };
  if (status.stalemate) return { score: '½-½', text: 'Stalemate · ½-½' };
  return null;
}

/** White's winning chance in [-1, 1] for a capped evaluation (the logistic curve lichess fits). */
export function winningChance(white: Score): number {
  return 2 / (1 + Math.exp(-0.00368208 * cappedCp(white))) - 1;
}

export interface GraphPoint { ply: number; x: number; y: number }

/**
 * The evaluation graph in a width × height box: x by ply, y by White's winning chance (top =
 * White winning, middle = equal). Positions not evaluated yet are left out of the line.
 */
export function graphPoints(evals: readonly (Score | null)[], width: number, height: number): GraphPoint[] {
  const step = evals.length > 1 ? width / (evals.length - 1) : 0;
  const points: GraphPoint[] = [];
  evals.forEach((score, ply) => {
    if (score) points.push({ ply, x: round2(ply * step), y: round2((height / 2) * (1 - winningChance(score))) });
  });
  return points;
}

/** An SVG path through the points ("" for none). */
export function graphPath(points: readonly GraphPoint[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
}

/** The part of the bar White's side fills, 0..1 (0.5 = equal). */
export function barFill(white: Score): number {
  return (1 + winningChance(white)) / 2;
}

/** A line of UCI moves as SAN from a position; stops at the first move that is not legal there. */
export function lineToSan(fen: string, uci: readonly string[]): string[] {
  const sans: string[] = [];
  let at = fen;
  for (const move of uci) {
    const promotion = move[4] as 'q' | 'r' | 'b' | 'n' | undefined;
    const played = applyMove(at, { from: move.slice(0, 2), to: move.slice(2, 4), ...(promotion ? { promotion } : {}) });
    if (!played) break;
    sans.push(played.san);
    at = played.fen;
  }
  return sans;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
