/**
 * The machine's context keeps only the start FEN and the UCI move list (serialisable). The
 * ChessGame for that list is derived data; rebuilding it on every event would cost O(plies)
 * per move, so the built game is remembered per move-list array. Move lists are never
 * mutated (each move makes a new array), so an entry is valid for as long as its array lives,
 * and a WeakMap lets both go together when the context is dropped.
 */
import { ChessGame } from '../chess';

const built = new WeakMap<readonly string[], ChessGame>();

/** The game after `moves` from `startFen`. Throws if the list is not a legal game (a corrupt context). */
export function chessGameFor(startFen: string, moves: readonly string[]): ChessGame {
  const cached = built.get(moves);
  if (cached) return cached;
  const game = new ChessGame(startFen);
  for (const uci of moves) {
    if (!game.play(uci)) throw new Error(`Corrupt game context: move ${uci} is illegal after ${game.fen()}`);
  }
  built.set(moves, game);
  return game;
}

/**
 * Hand the cached game over to the longer list after a move was played on it. The old list
 * loses its entry, because the game no longer shows its position.
 */
export function moveCachedGame(from: readonly string[], to: readonly string[], game: ChessGame): void {
  built.delete(from);
  built.set(to, game);
}
