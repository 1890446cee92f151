/** Material-based draw rules. */
import { popcount32 } from './bitboard';
import type { Position } from './position';
import { BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE } from './types';

const DARK_LO = 0xaa55aa55 | 0; // a1 is dark: squares with (file + rank) even
const DARK_HI = 0xaa55aa55 | 0;

function count(pos: Position, piece: number): number {
  return popcount32(pos.bbLo[piece]) + popcount32(pos.bbHi[piece]);
}

/**
 * Dead position by material: K v K, K + one minor v K, or only kings and bishops with all
 * bishops on squares of one colour.
 */
export function insufficientMaterial(pos: Position): boolean {
  for (const c of [WHITE, BLACK]) {
    const o = c << 3;
    if (count(pos, o | PAWN) + count(pos, o | ROOK) + count(pos, o | QUEEN) > 0) return false;
  }
  const knights = count(pos, KNIGHT) + count(pos, 8 | KNIGHT);
  const bLo = pos.bbLo[BISHOP] | pos.bbLo[8 | BISHOP];
  const bHi = pos.bbHi[BISHOP] | pos.bbHi[8 | BISHOP];
  const bishops = popcount32(bLo) + popcount32(bHi);
  if (knights + bishops <= 1) return true;
  if (knights > 0) return false;
  const dark = popcount32(bLo & DARK_LO) + popcount32(bHi & DARK_HI);
  return dark === 0 || dark === bishops;
}

/** False when `color` has a lone king or king and a single knight or bishop (cannot mate by force or otherwise). */
export function hasMatingMaterial(pos: Position, color: number): boolean {
  const o = color << 3;
  if (count(pos, o | PAWN) + count(pos, o | ROOK) + count(pos, o | QUEEN) > 0) return true;
  return count(pos, o | KNIGHT) + count(pos, o | BISHOP) > 1;
}
