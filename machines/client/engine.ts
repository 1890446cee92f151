/**
 * The client's view of the local engine (machines/chess): status texts of
 * docs/product.md "The local engine on the screens", legal destinations for the board, and a tiny cache so
 * that a position is parsed once per FEN, not once per render.
 */
import { ChessGame } from '../chess/index';
import type { Color } from '../protocol/messages';

let cachedFen = '';
let cachedGame: ChessGame | null = null;

/** A ChessGame for `fen`, shared read-only. Callers must not mutate it (use clone()). */
export function positionOf(fen: string): ChessGame {
  if (cachedGame && cachedFen === fen) return cachedGame;
  cachedGame = new ChessGame(fen);
  cachedFen = fen;
  return cachedGame;
}

const sideName = (c: Color) => (c === 'white' ? 'White' : 'Black');

/** "Checkmate! White wins." / "Stalemate! Game is a draw." / "Draw!" / "Check! White's turn." / "White's turn." */
export function statusText(fen: string, endedInDraw = false): string {
  const st = positionOf(fen).status();
  if (st.checkmate) return `Checkmate! ${sideName(st.turn === 'white' ? 'black' : 'white')} wins.`;
  if (st.stalemate) return 'Stalemate! Game is a draw.';
  if (endedInDraw) return 'Draw!';
  if (st.inCheck) return `Check! ${sideName(st.turn)}'s turn.`;
  return `${sideName(st.turn)}'s turn.`;
}

export function isPromotionMove(fen: string, from: string, to: string): boolean {
  const piece = positionOf(fen).pieceAt(from);
  return !!piece && piece.type === 'p' && (to[1] === '8' || to[1] === '1');
}

export interface AppliedMove { fen: string; uci: string; san: string; from: string; to: string }

/** Plays a move on a copy of `fen`'s position; null when illegal. */
export function applyMove(fen: string, move: { from: string; to: string; promotion?: 'q' | 'r' | 'b' | 'n' }): AppliedMove | null {
  const game = positionOf(fen).clone();
  const played = game.play(move.promotion ? { from: move.from, to: move.to, promotion: move.promotion } : { from: move.from, to: move.to });
  if (!played) return null;
  return { fen: played.fenAfter, uci: played.uci, san: played.san, from: played.from, to: played.to };
}

/** The board's placement field, for comparing positions regardless of counters. */
export function placement(fen: string): string {
  return fen.split(' ').slice(0, 4).join(' ');
}

export interface TypedMove {
  from: string;
  to: string;
  promotion?: 'q' | 'r' | 'b' | 'n';
}

const UCI_RE = /^([a-h][1-8])-?([a-h][1-8])([qrbn])?$/;

/**
 * A move typed on the keyboard (the board's keyboard alternative, as lichess's "keyboard
 * move"): SAN as written in a score sheet ("e4", "Nf3", "exd5", "O-O", "e8=Q", "Nbd2"), a piece
 * letter in lower case when it cannot be a file ("nf3", "qh5"), or from and to squares
 * ("e2e4", "e2-e4", "e7e8q"). Returns the move when it is legal in `fen` and unambiguous, else null.
 */
export function resolveTypedMove(fen: string, text: string): TypedMove | null {
  const t = text.trim();
  if (!t || t.length > 12) return null;
  const game = positionOf(fen).clone();
  const uci = UCI_RE.exec(t.toLowerCase());
  let played = uci ? game.play(uci[1] + uci[2] + (uci[3] ?? '')) : null;
  if (!played) played = game.playSan(t);
  // "nf3", "qh5", "kd2", "rxe1": a lower-case piece letter ('b' stays a pawn on the b-file first)
  if (!played && /^[nrqkb]/.test(t)) played = game.playSan(t[0].toUpperCase() + t.slice(1));
  if (!played) return null;
  return played.promotion ? { from: played.from, to: played.to, promotion: played.promotion } : { from: played.from, to: played.to };
}

/** The rook's square for a castling king move (e1g1 -> h1), or null when `from`-`to` is not castling. */
function castlingRookSquare(fen: string, from: string, to: string): string | null {
  const piece = positionOf(fen).pieceAt(from);
  if (!piece || piece.type !== 'k' || from[0] !== 'e' || from[1] !== to[1]) return null;
  if (to[0] === 'g') return `h${from[1]}`;
  if (to[0] === 'c') return `a${from[1]}`;
  return null;
}

/**
 * Legal destinations for the board. As on lichess a castling move may also be made by putting
 * the king on its own rook, so the rook's square is a destination too.
 */
export function boardDests(fen: string): Map<string, string[]> {
  const dests = positionOf(fen).dests();
  for (const [from, tos] of dests) {
    const rooks = tos.map((to) => castlingRookSquare(fen, from, to)).filter((sq): sq is string => sq !== null);
    if (rooks.length) dests.set(from, [...tos, ...rooks]);
  }
  return dests;
}

/** A king put on its own rook is castling: the king's two-square move. Other moves are unchanged. */
export function asKingMove(fen: string, from: string, to: string): { from: string; to: string } {
  const game = positionOf(fen);
  const king = game.pieceAt(from);
  const target = game.pieceAt(to);
  if (!king || king.type !== 'k' || !target || target.type !== 'r' || target.color !== king.color) return { from, to };
  return { from, to: `${to[0] === 'h' ? 'g' : 'c'}${to[1]}` };
}
