/**
 * The k6 build's replacement for the chess core's magic-bitboard slider module
 * (machines/chess/sliders.ts): the same exports and the same contract, without the tables.
 *
 * The magic tables are about 108,000 entries per half, built when the module loads: in k6's
 * interpreter that costs every virtual user most of a second and about 1 MB before it plays.
 * Here each call walks the rays from the square to the first blocker instead (the core's own
 * rayAttacksInto), writes the attacks into the single slot SLIDER_LO[0] / SLIDER_HI[0] and
 * returns 0. That is enough because every caller reads both halves of an index before asking
 * for the next one (the contract stated in sliders.ts). A simulated player generates moves a
 * few times per second at most, so the slower lookup costs nothing that matters; the chess
 * rules themselves (move generation, legality, game end) are the core's own, unchanged.
 */
import { BISHOP_STEPS, ROOK_STEPS, rayAttacksInto } from '../../../machines/chess/rays';

export const SLIDER_LO = new Int32Array(1);
export const SLIDER_HI = new Int32Array(1);

/** Rook attacks from sq with the given occupancy, in SLIDER_LO/HI at the returned index. */
export function rookIndex(sq: number, occLo: number, occHi: number): number {
  rayAttacksInto(SLIDER_LO, SLIDER_HI, 0, sq, ROOK_STEPS, occLo, occHi);
  return 0;
}

/** Bishop attacks from sq with the given occupancy, in SLIDER_LO/HI at the returned index. */
export function bishopIndex(sq: number, occLo: number, occHi: number): number {
  rayAttacksInto(SLIDER_LO, SLIDER_HI, 0, sq, BISHOP_STEPS, occLo, occHi);
  return 0;
}
