/**
 * A finished game as a replay: the position, SAN and both clocks at every ply, from its UCI
 * moves and the mover's clock after each move (the archive's record). Pure.
 */
import { ChessGame, START_FEN } from '../chess';
import type { ClocksMs, Color } from '../protocol/messages';

export interface ReplayPly {
  /** 0 = the start position; n = after the n-th move */
  ply: number;
  fen: string;
  /** SAN of the move that led here (null at the start) */
  san: string | null;
  lastMove: [string, string] | null;
  /** both clocks at this ply */
  clocks: ClocksMs;
  /** who is to move here */
  turn: Color;
}

/** Every ply of the game; stops at the first move that is not legal (a damaged record). */
export function replayGame(moves: readonly string[], clocksMs: readonly number[], clockMs: number, startFen = START_FEN): ReplayPly[] {
  const game = new ChessGame(startFen);
  let clocks: ClocksMs = { white: clockMs, black: clockMs };
  const plies: ReplayPly[] = [{ ply: 0, fen: game.fen(), san: null, lastMove: null, clocks, turn: game.turn() }];
  for (let i = 0; i < moves.length; i++) {
    const mover = game.turn();
    const played = game.play(moves[i]!);
    if (!played) break;
    const after = clocksMs[i];
    if (after !== undefined) clocks = { ...clocks, [mover]: after };
    plies.push({ ply: i + 1, fen: played.fenAfter, san: played.san, lastMove: [played.from, played.to], clocks, turn: game.turn() });
  }
  return plies;
}

/** The ply a navigation key leads to, or null for a key that does not navigate. */
export function navigate(key: string, current: number, last: number): number | null {
  switch (key) {
    case 'ArrowLeft':
      return Math.max(0, current - 1);
    case 'ArrowRight':
      return Math.min(last, current + 1);
    case 'ArrowUp':
    case 'Home':
      return 0;
    case 'ArrowDown':
    case 'End':
      return last;
    default:
      return null;
  }
}
