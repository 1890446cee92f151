/**
 * The machine's context keeps only the start FEN and the UCI move list (serialisable). The
 * ChessGame for that list is derived data; rebuilding it on every event would cost O(plies)
 * per move, so the built game is remembered.
 *
 * One entry per game, keyed by an object that lives as long as the game's contexts and no
 * longer (the context's `settings`, made once per game and carried from context to context),
 * holding the move list the game shows. Move lists are never mutated (each move makes a new
 * array), so the entry is valid for a context exactly when it holds that context's array;
 * for any other list the game is built again. A WeakMap lets the entry go with the game.
 *
 * Keyed by the game rather than by each move list, a move changes a field of the entry instead
 * of deleting and adding WeakMap entries: two ephemeron-table writes per move fewer, each with
 * a slow write barrier because the new list is a young object.
 */
import { ChessGame } from '../chess';

interface Entry {
  moves: readonly string[];
  game: ChessGame;
}

const built = new WeakMap<object, Entry>();

/** The game after `moves` from `startFen`. Throws if the list is not a legal game (a corrupt context). */
export function chessGameFor(owner: object, startFen: string, moves: readonly string[]): ChessGame {
  const entry = built.get(owner);
  if (entry && entry.moves === moves) return entry.game;
  const game = new ChessGame(startFen);
  for (const uci of moves) {
    if (!game.play(uci)) throw new Error(`Corrupt game context: move ${uci} is illegal after ${game.fen()}`);
  }
  remember(owner, entry, moves, game);
  return game;
}

/**
 * After a move was played on (or taken back from) the game's cached ChessGame, it shows list
 * `to`; the entry now holds that list (the one it held before no longer matches the position).
 */
export function moveCachedGame(owner: object, to: readonly string[], game: ChessGame): void {
  remember(owner, built.get(owner), to, game);
}

function remember(owner: object, entry: Entry | undefined, moves: readonly string[], game: ChessGame): void {
  if (entry) {
    entry.moves = moves;
    entry.game = game;
  } else {
    built.set(owner, { moves, game });
  }
}
