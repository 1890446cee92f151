/**
 * Position helpers for the engine's side: a `ChessGame` rebuilt from a UCI move list (the weakness
 * policy's random legal move, the strength benchmark's games), and the automatic end of a game in
 * a position. Rebuilding replays at most a few hundred moves, which is negligible next to an
 * engine search, and keeps repetition detection exact (ChessGame needs the history for it).
 */
import { ChessGame } from '../chess/index';
import type { GameEndReason, Winner } from '../protocol/messages';

/** Rebuilds the game from the start position (or `fen`) and a UCI move list. */
export function replay(moves: readonly string[], fen?: string): ChessGame {
  const game = new ChessGame(fen);
  for (const uci of moves) {
    if (!game.play(uci)) throw new Error(`move list is not legal at ${uci}`);
  }
  return game;
}

export interface GameResult {
  winner: Winner;
  reason: GameEndReason;
}

/** The automatic end of the game in this position, if any (plus the ply cap). */
export function automaticResult(game: ChessGame, maxPlies: number): GameResult | null {
  const st = game.status();
  if (st.over && st.reason && st.winner) return { winner: st.winner, reason: st.reason };
  if (game.plies() >= maxPlies) return { winner: 'draw', reason: 'max plies' };
  return null;
}
