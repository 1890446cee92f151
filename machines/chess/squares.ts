/** Square indices and names. Square 0 = a1, 7 = h1, 56 = a8, 63 = h8. */

export const FILE_NAMES = 'abcdefgh';

export function squareName(sq: number): string {
  return FILE_NAMES[sq & 7] + String.fromCharCode(49 + (sq >> 3));
}

/** Parses 'e4' to 28; returns -1 for anything that is not a square name. */
export function parseSquare(name: string): number {
  if (typeof name !== 'string' || name.length !== 2) return -1;
  const f = name.charCodeAt(0) - 97;
  const r = name.charCodeAt(1) - 49;
  if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return (r << 3) | f;
}

export const SQUARE_NAMES: readonly string[] = Array.from({ length: 64 }, (_, sq) => squareName(sq));

export const fileOf = (sq: number): number => sq & 7;
export const rankOf = (sq: number): number => sq >> 3;
