/**
 * Slow, obviously-correct slider attack computation by stepping along rays. Used to build the
 * magic lookup tables at start-up (and by the magic finder); the server's move generation never
 * walks rays (the k6 load-test build does, see sliders.ts).
 */

export const ROOK_DIRS: readonly (readonly [number, number])[] = [[1, 0], [-1, 0], [0, 1], [0, -1]];
export const BISHOP_DIRS: readonly (readonly [number, number])[] = [[1, 1], [1, -1], [-1, 1], [-1, -1]];

/** A bitboard as a [lo, hi] pair of int32 halves. */
export type Pair = [number, number];

export function setBit(bb: Pair, sq: number): void {
  if (sq < 32) bb[0] |= 1 << sq;
  else bb[1] |= 1 << (sq - 32);
}

export function hasBit(lo: number, hi: number, sq: number): boolean {
  return sq < 32 ? ((lo >>> sq) & 1) === 1 : ((hi >>> (sq - 32)) & 1) === 1;
}

/** Attacks of a slider on sq along dirs, stopping at (and including) the first occupied square. */
export function slidingAttacks(sq: number, dirs: readonly (readonly [number, number])[], occLo: number, occHi: number): Pair {
  const out: Pair = [0, 0];
  const f0 = sq & 7;
  const r0 = sq >> 3;
  for (const [df, dr] of dirs) {
    let f = f0 + df;
    let r = r0 + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const s = r * 8 + f;
      setBit(out, s);
      if (hasBit(occLo, occHi, s)) break;
      f += df;
      r += dr;
    }
  }
  return out;
}

/** Rook and bishop directions as flat (file, rank) step pairs, for rayAttacksInto. */
export const ROOK_STEPS: readonly number[] = [1, 0, -1, 0, 0, 1, 0, -1];
export const BISHOP_STEPS: readonly number[] = [1, 1, 1, -1, -1, 1, -1, -1];

/**
 * slidingAttacks without allocations: the attacks of a slider on sq along the four directions
 * of steps (ROOK_STEPS or BISHOP_STEPS), written to lo[i] / hi[i].
 */
export function rayAttacksInto(lo: Int32Array, hi: Int32Array, i: number, sq: number, steps: readonly number[], occLo: number, occHi: number): void {
  let aLo = 0;
  let aHi = 0;
  const f0 = sq & 7;
  const r0 = sq >> 3;
  for (let d = 0; d < 8; d += 2) {
    const df = steps[d];
    const dr = steps[d + 1];
    for (let f = f0 + df, r = r0 + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      const s = r * 8 + f;
      if (s < 32) {
        aLo |= 1 << s;
        if ((occLo >>> s) & 1) break;
      } else {
        aHi |= 1 << (s - 32);
        if ((occHi >>> (s - 32)) & 1) break;
      }
    }
  }
  lo[i] = aLo;
  hi[i] = aHi;
}

/** Relevant occupancy mask for magic indexing: the rays without their last (edge) square. */
export function sliderMask(sq: number, dirs: readonly (readonly [number, number])[]): Pair {
  const out: Pair = [0, 0];
  const f0 = sq & 7;
  const r0 = sq >> 3;
  for (const [df, dr] of dirs) {
    let f = f0 + df;
    let r = r0 + dr;
    while (f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8) {
      setBit(out, r * 8 + f);
      f += df;
      r += dr;
    }
  }
  return out;
}

/** All subsets of a mask (carry-rippler over the 64-bit value, done on the two halves). */
export function subsets(mask: Pair): Pair[] {
  const squares: number[] = [];
  for (let s = 0; s < 64; s++) if (hasBit(mask[0], mask[1], s)) squares.push(s);
  const out: Pair[] = [];
  const n = squares.length;
  for (let i = 0; i < 1 << n; i++) {
    const p: Pair = [0, 0];
    for (let j = 0; j < n; j++) if (i & (1 << j)) setBit(p, squares[j]);
    out.push(p);
  }
  return out;
}
