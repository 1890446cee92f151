/**
 * The chess of a game whose position is kept as a FEN (see GameState): play one move, tell
 * whether a side can still mate, write the PGN. Each call loads the FEN it is given into one
 * scratch ChessGame and reads what it needs from it before returning, so no call depends on an
 * earlier one and nothing a caller holds is changed; the scratch only spares a server the
 * allocation of a board for every move it relays.
 */
import { ChessGame, type ColorName, type GameOutcome, type Promotion } from '../chess';
import type { WireMove } from './types';

const scratch = new ChessGame();

/** A legal move played on a position. */
export interface BoardMove {
  uci: string;
  san: string;
  move: WireMove;
  /** The position after the move. */
  fen: string;
  turn: ColorName;
  /** `positions` after the move (see GameState.positions). */
  positions: string[];
  /** How the game ended with this move (mate, stalemate, draw by rule), or null. */
  outcome: GameOutcome | null;
}

/** The part of a FEN that makes two positions the same for repetitions: placement, side, castling, en passant. */
export function positionKey(fen: string): string {
  let spaces = 0;
  for (let i = 0; i < fen.length; i++) {
    if (fen.charCodeAt(i) === 32 && ++spaces === 4) return fen.slice(0, i);
  }
  return fen;
}

/** One object shape whether or not the move promotes (keeps the chess core's hot path monomorphic). */
function moveInput(move: WireMove): { from: string; to: string; promotion: Promotion | undefined } {
  return { from: move.from, to: move.to, promotion: move.promotion };
}

/**
 * `move` played on `fen`, whose earlier positions since the last capture or pawn move are
 * `positions` (the current one last); null when the move is not legal there.
 */
export function playOnBoard(fen: string, positions: readonly string[], move: WireMove): BoardMove | null {
  const game = scratch.load(fen);
  const played = game.play(moveInput(move));
  if (!played) return null;
  const key = positionKey(played.fenAfter);
  let next: string[];
  let repetitions = 1;
  if (played.piece === 'p' || played.captured !== undefined) {
    // nothing before a capture or a pawn move can recur
    next = [key];
  } else {
    for (const p of positions) if (p === key) repetitions++;
    next = positions.concat(key);
  }
  return {
    uci: played.uci,
    san: played.san,
    move: played.promotion ? { from: played.from, to: played.to, promotion: played.promotion } : { from: played.from, to: played.to },
    fen: played.fenAfter,
    turn: game.turn(),
    positions: next,
    outcome: game.outcome(repetitions),
  };
}

/** The normalised FEN and side to move of a start position; throws FenError for a bad FEN. */
export function startPosition(fen: string): { fen: string; turn: ColorName } {
  const game = scratch.load(fen);
  return { fen: game.fen(), turn: game.turn() };
}

/** False when `color` has a lone king, or a king and a single knight or bishop, in `fen`. */
export function canMate(fen: string, color: ColorName): boolean {
  return scratch.load(fen).hasMatingMaterial(color);
}

/** The PGN of the game `moves` (UCI) from `startFen`, with these tags. */
export function pgnOf(startFen: string, moves: readonly string[], tags: Record<string, string>): string {
  const game = new ChessGame(startFen);
  for (const uci of moves) {
    if (!game.play(uci)) throw new Error(`move ${uci} is illegal after ${game.fen()}`);
  }
  return game.pgn(tags);
}
