/**
 * Position helpers for the AI game machine. The machine's context keeps only JSON data (the
 * move list in UCI); a ChessGame is rebuilt from it when a move has to be checked or played.
 * Rebuilding replays at most a few hundred moves, which is negligible next to an engine
 * search, and keeps repetition detection exact (ChessGame needs the history for it).
 */
import { ChessGame, type MoveInput, type PlayedMove, type Promotion } from '../chess/index';
import type { Color, GameEndReason, WireMove, Winner } from '../protocol/messages';

const SQUARE = /^[a-h][1-8]$/;
const PROMOTIONS = new Set(['q', 'r', 'b', 'n']);

/** Rebuilds the game from the start position (or `fen`) and a UCI move list. */
export function replay(moves: readonly string[], fen?: string): ChessGame {
  const game = new ChessGame(fen);
  for (const uci of moves) {
    if (!game.play(uci)) throw new Error(`move list is not legal at ${uci}`);
  }
  return game;
}

/**
 * Turns a wire move (`{from,to,promotion?}`) or a UCI string into the chess core's input,
 * or null when its shape is wrong (the machine then rejects it as illegal).
 */
export function toMoveInput(move: unknown): MoveInput | null {
  if (typeof move === 'string') {
    const m = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/.exec(move);
    if (!m) return null;
    return m[3] ? { from: m[1], to: m[2], promotion: m[3] as Promotion } : { from: m[1], to: m[2] };
  }
  if (typeof move !== 'object' || move === null) return null;
  const { from, to, promotion } = move as Record<string, unknown>;
  if (typeof from !== 'string' || typeof to !== 'string' || !SQUARE.test(from) || !SQUARE.test(to)) return null;
  if (promotion === undefined || promotion === null || promotion === '') return { from, to };
  if (typeof promotion !== 'string' || !PROMOTIONS.has(promotion)) return null;
  return { from, to, promotion: promotion as Promotion };
}

/** Wire form of a played move; `promotion` only when there is one (docs/protocol.md). */
export function toWireMove(played: PlayedMove): WireMove {
  const wire: WireMove = { from: played.from, to: played.to, piece: played.piece };
  if (played.promotion) wire.promotion = played.promotion;
  return wire;
}

export function describeMove(move: unknown): string {
  const input = toMoveInput(move);
  if (!input) return JSON.stringify(move) ?? String(move);
  return `${input.from}${input.to}${input.promotion ?? ''}`;
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

export function other(color: Color): Color {
  return color === 'white' ? 'black' : 'white';
}
