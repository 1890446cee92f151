/**
 * Precomputed attack tables. Every bitboard is stored as two Int32Array entries (lo, hi).
 * The slider lookups (magic bitboards) live in sliders.ts and are re-exported here, so a build
 * can replace that one module (the k6 load-test build does) and keep every other table.
 */
export { SLIDER_HI, SLIDER_LO, bishopIndex, rookIndex } from './sliders';

export const KNIGHT_LO = new Int32Array(64);
export const KNIGHT_HI = new Int32Array(64);
export const KING_LO = new Int32Array(64);
export const KING_HI = new Int32Array(64);
/** Squares attacked by a pawn of colour c (0 white, 1 black) on sq: index c * 64 + sq. */
export const PAWN_LO = new Int32Array(128);
export const PAWN_HI = new Int32Array(128);

/** Rook and bishop attacks on an empty board (for pin and x-ray detection). */
export const ROOK_EMPTY_LO = new Int32Array(64);
export const ROOK_EMPTY_HI = new Int32Array(64);
export const BISHOP_EMPTY_LO = new Int32Array(64);
export const BISHOP_EMPTY_HI = new Int32Array(64);

/** Squares strictly between a and b when aligned (index a * 64 + b), else empty. */
export const BETWEEN_LO = new Int32Array(4096);
export const BETWEEN_HI = new Int32Array(4096);
/** The whole line (edge to edge) through a and b when aligned, else empty. */
export const LINE_LO = new Int32Array(4096);
export const LINE_HI = new Int32Array(4096);

/*
 * The fill below is written without allocations, closures or iterators: it runs when the
 * module loads, also in interpreters without a JIT (a k6 load generator loads it once per
 * virtual user), where those cost far more than the arithmetic.
 */

/** Sets the bit of square s in lo[i] / hi[i]. */
function setSquare(lo: Int32Array, hi: Int32Array, i: number, s: number): void {
  if (s < 32) lo[i] |= 1 << s;
  else hi[i] |= 1 << (s - 32);
}

/** The square one (df, dr) step from sq, or -1 off the board. */
function stepFrom(sq: number, df: number, dr: number): number {
  const f = (sq & 7) + df;
  const r = (sq >> 3) + dr;
  return f < 0 || f > 7 || r < 0 || r > 7 ? -1 : r * 8 + f;
}

const KNIGHT_STEPS = [1, 2, 2, 1, 2, -1, 1, -2, -1, -2, -2, -1, -2, 1, -1, 2];
/** The eight directions as (file, rank) steps, rook 0-3 and bishop 4-7, each next to its opposite (d, d ^ 1). */
const DIRECTION_STEPS = [1, 0, -1, 0, 0, 1, 0, -1, 1, 1, -1, -1, 1, -1, -1, 1];

for (let sq = 0; sq < 64; sq++) {
  for (let k = 0; k < 16; k += 2) {
    const n = stepFrom(sq, KNIGHT_STEPS[k], KNIGHT_STEPS[k + 1]);
    if (n >= 0) setSquare(KNIGHT_LO, KNIGHT_HI, sq, n);
    const g = stepFrom(sq, DIRECTION_STEPS[k], DIRECTION_STEPS[k + 1]);
    if (g >= 0) setSquare(KING_LO, KING_HI, sq, g);
  }
  for (let df = -1; df <= 1; df += 2) {
    const w = stepFrom(sq, df, 1);
    if (w >= 0) setSquare(PAWN_LO, PAWN_HI, sq, w);
    const b = stepFrom(sq, df, -1);
    if (b >= 0) setSquare(PAWN_LO, PAWN_HI, 64 + sq, b);
  }
}

/*
 * Along each ray from a, BETWEEN(a, b) is the ray walked so far before b; LINE(a, b) is the
 * ray, its opposite ray and a itself. Directions come in opposite pairs (d, d ^ 1), so the
 * line is known once both rays of a pair have been walked.
 */
const rayLo = new Int32Array(8);
const rayHi = new Int32Array(8);
for (let a = 0; a < 64; a++) {
  const f0 = a & 7;
  const r0 = a >> 3;
  for (let d = 0; d < 8; d++) {
    const df = DIRECTION_STEPS[2 * d];
    const dr = DIRECTION_STEPS[2 * d + 1];
    let lo = 0;
    let hi = 0;
    for (let f = f0 + df, r = r0 + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      const b = r * 8 + f;
      BETWEEN_LO[a * 64 + b] = lo;
      BETWEEN_HI[a * 64 + b] = hi;
      if (b < 32) lo |= 1 << b;
      else hi |= 1 << (b - 32);
    }
    rayLo[d] = lo;
    rayHi[d] = hi;
    if (d < 4) {
      ROOK_EMPTY_LO[a] |= lo;
      ROOK_EMPTY_HI[a] |= hi;
    } else {
      BISHOP_EMPTY_LO[a] |= lo;
      BISHOP_EMPTY_HI[a] |= hi;
    }
  }
  const aLo = a < 32 ? 1 << a : 0;
  const aHi = a >= 32 ? 1 << (a - 32) : 0;
  for (let d = 0; d < 8; d++) {
    const lineLo = rayLo[d] | rayLo[d ^ 1] | aLo;
    const lineHi = rayHi[d] | rayHi[d ^ 1] | aHi;
    const df = DIRECTION_STEPS[2 * d];
    const dr = DIRECTION_STEPS[2 * d + 1];
    for (let f = f0 + df, r = r0 + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      LINE_LO[a * 64 + r * 8 + f] = lineLo;
      LINE_HI[a * 64 + r * 8 + f] = lineHi;
    }
  }
}
