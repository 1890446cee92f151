/**
 * Public API of the chess core (docs/chess-core.md).
 * Runs in Node, browsers and k6: no Node-only APIs in this folder (except cli/ and bench/).
 */
export { ChessGame } from './game';
export type {
  BoardPiece, ColorName, EndReason, GameOutcome, GameStatus, MoveInput, PieceType, PlayedMove, Promotion,
} from './game';
export { FenError } from './fen-error';
export { START_FEN, Position } from './position';
export { perft, perftPosition } from './perft';
