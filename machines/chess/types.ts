/** Piece and move encodings shared by the low-level modules. */

export const WHITE = 0;
export const BLACK = 1;

/** Piece types. A piece code is color * 8 + type; code 0 and 8 index the colour occupancy. */
export const PAWN = 1;
export const KNIGHT = 2;
export const BISHOP = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;

export const PIECE_CHARS = ' pnbrqk';

/**
 * Move encoding (int): from | to << 6 | flag << 12.
 * flag: 0 quiet/capture, 1 double pawn push, 2 en passant, 3 castling (king moves two squares),
 * 4..7 promotion to knight, bishop, rook, queen (piece type = flag - 2).
 */
export const FLAG_NORMAL = 0;
export const FLAG_DOUBLE = 1;
export const FLAG_EP = 2;
export const FLAG_CASTLE = 3;
export const FLAG_PROMO_N = 4;
export const FLAG_PROMO_B = 5;
export const FLAG_PROMO_R = 6;
export const FLAG_PROMO_Q = 7;

export const moveFrom = (m: number): number => m & 63;
export const moveTo = (m: number): number => (m >> 6) & 63;
export const moveFlag = (m: number): number => m >> 12;
export const encodeMove = (from: number, to: number, flag: number): number => from | (to << 6) | (flag << 12);

/** Castling rights bits. */
export const CASTLE_WK = 1;
export const CASTLE_WQ = 2;
export const CASTLE_BK = 4;
export const CASTLE_BQ = 8;
