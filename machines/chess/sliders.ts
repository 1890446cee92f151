/**
 * Slider attacks by split 32-bit magics (see magics.ts): one multiply per half, one lookup in
 * SLIDER_LO/SLIDER_HI (about 108,000 entries each, built at module load).
 *
 * The contract every caller relies on, and that a replacement of this module must keep:
 * rookIndex/bishopIndex(sq, occLo, occHi) return an index i such that SLIDER_LO[i] and
 * SLIDER_HI[i] are the attacks from sq with that occupancy; callers read both halves before
 * asking for another index.
 */
import { BISHOP_DIRS, BISHOP_STEPS, ROOK_DIRS, ROOK_STEPS, rayAttacksInto, sliderMask } from './rays';
import { BISHOP_MAGICS, ROOK_MAGICS } from './magics';
import { popcount32 } from './bitboard';

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
      const idx = OFFSET[i] + ((Math.imul(oLo, MAGIC_LO[i]) ^ Math.imul(oHi, MAGIC_HI[i])) >>> SHIFT[i]);
      rayAttacksInto(SLIDER_LO, SLIDER_HI, idx, sq, steps, oLo, oHi);
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
