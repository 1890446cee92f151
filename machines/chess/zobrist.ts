/**
 * Zobrist keys (64-bit as two int32 halves) from a fixed-seed PRNG, so hashes are the same in
 * every process (server, browser, tests).
 */
let s0 = 0x1234567 | 0;
let s1 = 0x89abcdef | 0;
function next(): number {
  // xorshift64-ish on two 32-bit words
  let a = s0;
  const b = s1;
  s0 = b;
  a ^= a << 23;
  a ^= a >>> 17;
  a ^= b ^ (b >>> 26);
  s1 = a;
  return (s1 + b) | 0;
}

/** Keys per piece code (0..15) and square: index piece * 64 + sq. */
export const PIECE_KEY_LO = new Int32Array(16 * 64);
export const PIECE_KEY_HI = new Int32Array(16 * 64);
for (let i = 0; i < 16 * 64; i++) {
  PIECE_KEY_LO[i] = next();
  PIECE_KEY_HI[i] = next();
}
export const SIDE_KEY_LO = next();
export const SIDE_KEY_HI = next();
/** Keys per castling-rights bitmask (0..15). */
export const CASTLE_KEY_LO = new Int32Array(16);
export const CASTLE_KEY_HI = new Int32Array(16);
for (let i = 1; i < 16; i++) {
  CASTLE_KEY_LO[i] = next();
  CASTLE_KEY_HI[i] = next();
}
/** Keys per en passant file. */
export const EP_KEY_LO = new Int32Array(8);
export const EP_KEY_HI = new Int32Array(8);
for (let i = 0; i < 8; i++) {
  EP_KEY_LO[i] = next();
  EP_KEY_HI[i] = next();
}
