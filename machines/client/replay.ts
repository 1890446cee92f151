/**
 * A finished game as a replay: the position, SAN and both clocks at every ply, from its UCI
 * moves and the mover's clock after each move (the archive's record). Pure.
 */
import { START_FEN } from '../chess';
import type { ClocksMs, Color } from '../protocol/messages';
import { replayMoves } from './moveHistory';

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
  const turnOf = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');
  let clocks: ClocksMs = { white: clockMs, black: clockMs };
  const plies: ReplayPly[] = [{ ply: 0, fen: startFen, san: null, lastMove: null, clocks, turn: turnOf(startFen) }];
  for (const [i, played] of replayMoves(moves, startFen).entries()) {
    const mover = plies[i]!.turn;
    const after = clocksMs[i];
    if (after !== undefined) clocks = { ...clocks, [mover]: after };
    plies.push({ ply: i + 1, fen: played.fen, san: played.san, lastMove: [played.from, played.to], clocks, turn: turnOf(played.fen) });
  }
  return plies;
}
