/**
 * Precomputed attack tables. Every bitboard is stored as two Int32Array entries (lo, hi).
 * Sliders use split 32-bit magics (see magics.ts): one multiply per half, one table lookup.
 */
import { BISHOP_DIRS, ROOK_DIRS, slidingAttacks, sliderMask, type Pair } from './rays';
import { BISHOP_MAGICS, ROOK_MAGICS } from './magics';
import { popcount32 } from './bitboard';

export const KNIGHT_LO = new Int32Array(64);
export const KNIGHT_HI = new Int32Array(64);
export const KING_LO = new Int32Array(64);
export const KING_HI = new Int32Array(64);
/** Squares attacked by a pawn of colour c (0 white, 1 black) on sq: index c * 64 + sq. */
export const PAWN_LO = new Int32Array(128);
export const PAWN_HI = new Int32Array(128);

/** Slider magic data, rook for index sq, bishop for index 64 + sq. */
const MASK_LO = new Int32Array(128);
const MASK_HI = new Int32Array(128);
const MAGIC_LO = new Int32Array(128);
const MAGIC_HI = new Int32Array(128);
const SHIFT = new Int32Array(128);
const OFFSET = new Int32Array(128);
let tableSize = 0;
for (let i = 0; i < 128; i++) {
  const m = sliderMask(i & 63, i < 64 ? ROOK_DIRS : BISHOP_DIRS);
  const bits = popcount32(m[0]) + popcount32(m[1]);
  MASK_LO[i] = m[0];
  MASK_HI[i] = m[1];
  MAGIC_LO[i] = (i < 64 ? ROOK_MAGICS : BISHOP_MAGICS)[(i & 63) * 2] | 0;
  MAGIC_HI[i] = (i < 64 ? ROOK_MAGICS : BISHOP_MAGICS)[(i & 63) * 2 + 1] | 0;
  SHIFT[i] = 32 - bits;
  OFFSET[i] = tableSize;
  tableSize += 1 << bits;
}
export const SLIDER_LO = new Int32Array(tableSize);
export const SLIDER_HI = new Int32Array(tableSize);

/** Allocation-free ray walker for the table fill (rays.ts has the readable version). */
const ROOK_STEPS = [1, 0, -1, 0, 0, 1, 0, -1];
const BISHOP_STEPS = [1, 1, 1, -1, -1, 1, -1, -1];
let rayLo = 0;
let rayHi = 0;
function walk(sq: number, steps: number[], occLo: number, occHi: number): void {
  rayLo = 0;
  rayHi = 0;
  const f0 = sq & 7;
  const r0 = sq >> 3;
  for (let d = 0; d < 8; d += 2) {
    const df = steps[d];
    const dr = steps[d + 1];
    for (let f = f0 + df, r = r0 + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      const s = r * 8 + f;
      if (s < 32) {
        rayLo |= 1 << s;
        if ((occLo >>> s) & 1) break;
      } else {
        rayHi |= 1 << (s - 32);
        if ((occHi >>> (s - 32)) & 1) break;
      }
    }
  }
}
{
  const bits = new Int32Array(12);
  for (let i = 0; i < 128; i++) {
    const sq = i & 63;
    const steps = i < 64 ? ROOK_STEPS : BISHOP_STEPS;
    let n = 0;
    for (let s = 0; s < 64; s++) if (((s < 32 ? MASK_LO[i] >>> s : MASK_HI[i] >>> (s - 32)) & 1) !== 0) bits[n++] = s;
    for (let sub = 0; sub < 1 << n; sub++) {
      let oLo = 0;
      let oHi = 0;
      for (let j = 0; j < n; j++) {
        if ((sub >> j) & 1) {
          const s = bits[j];
          if (s < 32) oLo |= 1 << s;
          else oHi |= 1 << (s - 32);
        }
      }
      walk(sq, steps, oLo, oHi);
      const idx = OFFSET[i] + ((Math.imul(oLo, MAGIC_LO[i]) ^ Math.imul(oHi, MAGIC_HI[i])) >>> SHIFT[i]);
      SLIDER_LO[idx] = rayLo;
      SLIDER_HI[idx] = rayHi;
    }
  }
}

/** Index into SLIDER_LO/HI of the rook attacks from sq with the given occupancy. */
export function rookIndex(sq: number, occLo: number, occHi: number): number {
  return OFFSET[sq] + ((Math.imul(occLo & MASK_LO[sq], MAGIC_LO[sq]) ^ Math.imul(occHi & MASK_HI[sq], MAGIC_HI[sq])) >>> SHIFT[sq]);
}

/** Index into SLIDER_LO/HI of the bishop attacks from sq with the given occupancy. */
export function bishopIndex(sq: number, occLo: number, occHi: number): number {
  const i = sq + 64;
  return OFFSET[i] + ((Math.imul(occLo & MASK_LO[i], MAGIC_LO[i]) ^ Math.imul(occHi & MASK_HI[i], MAGIC_HI[i])) >>> SHIFT[i]);
}

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

function put(lo: Int32Array, hi: Int32Array, i: number, p: Pair): void {
  lo[i] = p[0];
  hi[i] = p[1];
}

for (let sq = 0; sq < 64; sq++) {
  const f = sq & 7;
  const r = sq >> 3;
  const kn: Pair = [0, 0];
  const kg: Pair = [0, 0];
  const add = (p: Pair, df: number, dr: number): void => {
    const nf = f + df;
    const nr = r + dr;
    if (nf < 0 || nf > 7 || nr < 0 || nr > 7) return;
    const s = nr * 8 + nf;
    if (s < 32) p[0] |= 1 << s;
    else p[1] |= 1 << (s - 32);
  };
  for (const [df, dr] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]) add(kn, df, dr);
  for (const [df, dr] of [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]]) add(kg, df, dr);
  put(KNIGHT_LO, KNIGHT_HI, sq, kn);
  put(KING_LO, KING_HI, sq, kg);
  const wp: Pair = [0, 0];
  add(wp, -1, 1);
  add(wp, 1, 1);
  put(PAWN_LO, PAWN_HI, sq, wp);
  const bp: Pair = [0, 0];
  add(bp, -1, -1);
  add(bp, 1, -1);
  put(PAWN_LO, PAWN_HI, 64 + sq, bp);
  put(ROOK_EMPTY_LO, ROOK_EMPTY_HI, sq, slidingAttacks(sq, ROOK_DIRS, 0, 0));
  put(BISHOP_EMPTY_LO, BISHOP_EMPTY_HI, sq, slidingAttacks(sq, BISHOP_DIRS, 0, 0));
}

for (let a = 0; a < 64; a++) {
  for (const dirs of [ROOK_DIRS, BISHOP_DIRS]) {
    for (const d of dirs) {
      const ray = [d];
      const fromA = slidingAttacks(a, ray, 0, 0);
      for (let b = 0; b < 64; b++) {
        const inRay = b < 32 ? (fromA[0] >>> b) & 1 : (fromA[1] >>> (b - 32)) & 1;
        if (!inRay) continue;
        const bLo = b < 32 ? 1 << b : 0;
        const bHi = b >= 32 ? 1 << (b - 32) : 0;
        // between: ray from a with b as the only blocker, minus b itself
        const blocked = slidingAttacks(a, ray, bLo, bHi);
        BETWEEN_LO[a * 64 + b] = blocked[0] & ~bLo;
        BETWEEN_HI[a * 64 + b] = blocked[1] & ~bHi;
        const back = slidingAttacks(a, [[-d[0], -d[1]]], 0, 0);
        const aLo = a < 32 ? 1 << a : 0;
        const aHi = a >= 32 ? 1 << (a - 32) : 0;
        LINE_LO[a * 64 + b] = fromA[0] | back[0] | aLo;
        LINE_HI[a * 64 + b] = fromA[1] | back[1] | aHi;
      }
    }
  }
}
