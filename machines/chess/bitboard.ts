/**
 * 64-bit bitboards as two signed 32-bit halves: `lo` holds squares 0..31 (ranks 1-4),
 * `hi` holds squares 32..63 (ranks 5-8). V8 keeps int32 values unboxed, which makes this
 * much faster than BigInt. All helpers here work on one half.
 */

/** Number of set bits in a 32-bit value. */
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index (0..31) of the lowest set bit; x must not be 0. */
export function lsb32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Index (0..31) of the highest set bit; x must not be 0. */
export function msb32(x: number): number {
  return 31 - Math.clz32(x);
}

/** Bit of square sq within its half. */
export function bitOf(sq: number): number {
  return 1 << (sq & 31);
}
