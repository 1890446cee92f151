/** UCI move strings ('e2e4', 'e7e8q'; castling as the king's two-square move 'e1g1'). */
import { parseSquare, SQUARE_NAMES } from './squares';
import { FLAG_PROMO_N } from './types';

const PROMO_CHARS = 'nbrq';

export function moveToUci(m: number): string {
  const flag = m >> 12;
  const s = SQUARE_NAMES[m & 63] + SQUARE_NAMES[(m >> 6) & 63];
  return flag >= FLAG_PROMO_N ? s + PROMO_CHARS[flag - FLAG_PROMO_N] : s;
}

/**
 * Parses a UCI string into from, to and promotion piece type (0 none, else 2..5 = n,b,r,q).
 * Returns null when the text is not UCI-shaped.
 */
export function parseUci(text: string): { from: number; to: number; promo: number } | null {
  if (typeof text !== 'string' || (text.length !== 4 && text.length !== 5)) return null;
  const from = parseSquare(text.slice(0, 2));
  const to = parseSquare(text.slice(2, 4));
  if (from < 0 || to < 0) return null;
  let promo = 0;
  if (text.length === 5) {
    const i = PROMO_CHARS.indexOf(text[4].toLowerCase());
    if (i < 0) return null;
    promo = i + 2;
  }
  return { from, to, promo };
}
