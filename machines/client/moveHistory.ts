/**
 * A game's moves as a player reads them: SAN per ply, the position after each ply (for looking
 * back), the rows of a score sheet, and the PGN. Rebuilt from the UCI list the game machines keep.
 */
import { ChessGame, START_FEN } from '../chess/index';

export interface Ply {
  san: string;
  /** position after this ply */
  fen: string;
  from: string;
  to: string;
}

/** Replays `ucis` from `startFen`; stops at the first move that is not legal. */
export function replayMoves(ucis: readonly string[], startFen: string = START_FEN): Ply[] {
  const game = new ChessGame(startFen);
  const plies: Ply[] = [];
  for (const uci of ucis) {
    const played = game.play(uci);
    if (!played) break;
    plies.push({ san: played.san, fen: played.fenAfter, from: played.from, to: played.to });
  }
  return plies;
}

/**
 * `replayMoves(moves)` reusing `prev`, the plies of `prevMoves`, when `moves` only adds to them
 * (the usual case: one more move), so a long game is not replayed from the start on every move.
 */
export function extendPlies(prev: readonly Ply[], prevMoves: readonly string[], moves: readonly string[]): Ply[] {
  const extends_ = prev.length === prevMoves.length && moves.length >= prevMoves.length && prevMoves.every((m, i) => moves[i] === m);
  if (!extends_ || prev.length === 0) return replayMoves(moves);
  return [...prev, ...replayMoves(moves.slice(prev.length), prev[prev.length - 1].fen)];
}

export interface MoveRow {
  /** full-move number */
  number: number;
  /** ply index (0-based) and SAN of White's and Black's move of this row */
  white: { ply: number; san: string } | null;
  black: { ply: number; san: string } | null;
}

/** Score-sheet rows for a game from the standard start: 1. e4 e5, 2. Nf3 ... */
export function moveRows(sans: readonly string[]): MoveRow[] {
  const rows: MoveRow[] = [];
  for (let ply = 0; ply < sans.length; ply += 2) {
    rows.push({
      number: ply / 2 + 1,
      white: { ply, san: sans[ply] },
      black: ply + 1 < sans.length ? { ply: ply + 1, san: sans[ply + 1] } : null,
    });
  }
  return rows;
}

/** The ply shown after a navigation key, or null for "follow the game" (the last ply). */
export function navigatePly(current: number | null, key: 'first' | 'prev' | 'next' | 'last', plyCount: number): number | null {
  const at = current ?? plyCount - 1;
  const next = key === 'first' ? -1 : key === 'prev' ? Math.max(-1, at - 1) : key === 'next' ? at + 1 : plyCount - 1;
  return next >= plyCount - 1 ? null : next;
}

/** PGN of the moves with the given header tags (Result is the game's when it has ended). */
export function pgnOf(ucis: readonly string[], tags: Record<string, string>): string {
  const game = new ChessGame(START_FEN);
  for (const uci of ucis) if (!game.play(uci)) break;
  return game.pgn(tags);
}
