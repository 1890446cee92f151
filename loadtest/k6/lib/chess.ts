/**
 * The simulated players' chess knowledge: the project's own chess core (machines/chess),
 * bundled for k6 by `npm run build:k6` into ../dist/chess.js. Each player keeps its own copy
 * of the game, picks random legal moves from it and checks the server's positions against it.
 */
import { ChessGame } from '../dist/chess.js';
import type { CurrentState, PromotionPiece, WireMove } from '../../../machines/protocol/messages.ts';

export { ChessGame };

const PROMOTIONS: readonly string[] = ['q', 'r', 'b', 'n'];

/** `e7e8q` → `{ from: 'e7', to: 'e8', promotion: 'q' }` (plus the moving piece, as the protocol's wire move has it). */
export function uciToWire(game: ChessGame, uci: string): WireMove {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const move: WireMove = { from, to };
  const piece = game.pieceAt(from);
  if (piece) move.piece = piece.type;
  const promo = uci.slice(4, 5);
  if (PROMOTIONS.includes(promo)) move.promotion = promo as PromotionPiece;
  return move;
}

export function wireToUci(move: WireMove): string {
  return `${move.from}${move.to}${move.promotion ?? ''}`;
}

/** A uniformly random legal move, or null when the side to move has none. */
export function randomLegalMove(game: ChessGame): { uci: string; wire: WireMove } | null {
  const moves = game.legalMoves();
  if (moves.length === 0) return null;
  const uci = moves[Math.floor(Math.random() * moves.length)];
  return { uci, wire: uciToWire(game, uci) };
}

/**
 * The first four FEN fields (placement, side to move, castling, en passant): what must agree
 * between the server and the client. The counters may legitimately differ (the client's FEN export writes 0 1).
 */
export function positionKey(fen: string): string {
  return fen.trim().split(/\s+/).slice(0, 4).join(' ');
}

/**
 * Rebuilds a game from a rejoin snapshot by replaying its moves from the start, so the copy
 * keeps the move history (repetitions, fifty-move count). Returns an error text when a move
 * does not replay or the result disagrees with the snapshot's FEN.
 */
export function gameFromState(state: CurrentState): { game: ChessGame; error?: string } {
  const game = new ChessGame();
  for (let i = 0; i < state.moves.length; i++) {
    const uci = wireToUci(state.moves[i]);
    if (!game.play(uci)) {
      return { game: new ChessGame(state.fen), error: `rejoin move ${i + 1} (${uci}) does not replay` };
    }
  }
  if (state.fen && positionKey(game.fen()) !== positionKey(state.fen)) {
    return {
      game: new ChessGame(state.fen),
      error: `rejoin moves lead to "${positionKey(game.fen())}" but the snapshot says "${positionKey(state.fen)}"`,
    };
  }
  return { game };
}
