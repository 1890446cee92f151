/**
 * Legal move generation with check and pin masks (no make/unmake needed to test legality, except
 * for the rare en passant capture, which is tried on the board).
 *
 * - checkers: enemy pieces giving check; with two, only king moves are generated.
 * - target mask: with one checker, the checker's square plus the squares between it and the king.
 * - pinned pieces move only along the line through their king (LINE table).
 * - king destinations are tested with the king removed from the occupancy (no stepping back
 *   along the checking ray).
 */
import {
  BETWEEN_HI as BETWEEN_HI_, BETWEEN_LO as BETWEEN_LO_, BISHOP_EMPTY_HI as BISHOP_EMPTY_HI_, BISHOP_EMPTY_LO as BISHOP_EMPTY_LO_, KING_HI as KING_HI_, KING_LO as KING_LO_, KNIGHT_HI as KNIGHT_HI_, KNIGHT_LO as KNIGHT_LO_, LINE_HI as LINE_HI_, LINE_LO as LINE_LO_, PAWN_HI as PAWN_HI_, PAWN_LO as PAWN_LO_, ROOK_EMPTY_HI as ROOK_EMPTY_HI_, ROOK_EMPTY_LO as ROOK_EMPTY_LO_, SLIDER_HI as SLIDER_HI_, SLIDER_LO as SLIDER_LO_, bishopIndex as bishopIndex_, rookIndex as rookIndex_,
} from './attacks';
import {
  popcount32 as popcount32_,
} from './bitboard';
import type { Position } from './position';
import {
  BISHOP as BISHOP_, CASTLE_BK as CASTLE_BK_, CASTLE_BQ as CASTLE_BQ_, CASTLE_WK as CASTLE_WK_, CASTLE_WQ as CASTLE_WQ_, FLAG_CASTLE as FLAG_CASTLE_, FLAG_DOUBLE as FLAG_DOUBLE_, FLAG_EP as FLAG_EP_, FLAG_PROMO_B as FLAG_PROMO_B_, FLAG_PROMO_N as FLAG_PROMO_N_, FLAG_PROMO_Q as FLAG_PROMO_Q_, FLAG_PROMO_R as FLAG_PROMO_R_, KING as KING_, KNIGHT as KNIGHT_, PAWN as PAWN_, QUEEN as QUEEN_, ROOK as ROOK_, WHITE as WHITE_,
} from './types';

// Local bindings of imported values: hot loops then read module-local constants, which stays
// fast even when a tool compiles these files to CommonJS (imports become property getters there).
const BETWEEN_HI = BETWEEN_HI_;
const BETWEEN_LO = BETWEEN_LO_;
const BISHOP_EMPTY_HI = BISHOP_EMPTY_HI_;
const BISHOP_EMPTY_LO = BISHOP_EMPTY_LO_;
const KING_HI = KING_HI_;
const KING_LO = KING_LO_;
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const LINE_HI = LINE_HI_;
const LINE_LO = LINE_LO_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const ROOK_EMPTY_HI = ROOK_EMPTY_HI_;
const ROOK_EMPTY_LO = ROOK_EMPTY_LO_;
const SLIDER_HI = SLIDER_HI_;
const SLIDER_LO = SLIDER_LO_;
const bishopIndex = bishopIndex_;
const rookIndex = rookIndex_;
const popcount32 = popcount32_;
const BISHOP = BISHOP_;
const CASTLE_BK = CASTLE_BK_;
const CASTLE_BQ = CASTLE_BQ_;
const CASTLE_WK = CASTLE_WK_;
const CASTLE_WQ = CASTLE_WQ_;
const FLAG_CASTLE = FLAG_CASTLE_;
const FLAG_DOUBLE = FLAG_DOUBLE_;
const FLAG_EP = FLAG_EP_;
const FLAG_PROMO_B = FLAG_PROMO_B_;
const FLAG_PROMO_N = FLAG_PROMO_N_;
const FLAG_PROMO_Q = FLAG_PROMO_Q_;
const FLAG_PROMO_R = FLAG_PROMO_R_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;
const WHITE = WHITE_;

const NOT_A = ~0x01010101;
const NOT_H = ~0x80808080;

/** Largest number of legal moves in any chess position is 218. */
export const MAX_MOVES = 256;

/** Results of the shared prologue: [checkersLo, checkersHi, pinnedLo, pinnedHi, targetLo, targetHi]. */
const S = new Int32Array(6);

/** Fills S for the side to move. Returns the number of checkers (0, 1 or 2 meaning 2+). */
function prepare(pos: Position): number {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const us = pos.turn;
  const them = us ^ 1;
  const t8 = them << 3;
  const k = pos.kingSq[us];
  const occLo = lo[0] | lo[8];
  const occHi = hi[0] | hi[8];
  const pi = (us << 6) | k;
  let cLo = (PAWN_LO[pi] & lo[t8 | PAWN]) | (KNIGHT_LO[k] & lo[t8 | KNIGHT]);
  let cHi = (PAWN_HI[pi] & hi[t8 | PAWN]) | (KNIGHT_HI[k] & hi[t8 | KNIGHT]);
  const dLo = lo[t8 | BISHOP] | lo[t8 | QUEEN];
  const dHi = hi[t8 | BISHOP] | hi[t8 | QUEEN];
  const sLo = lo[t8 | ROOK] | lo[t8 | QUEEN];
  const sHi = hi[t8 | ROOK] | hi[t8 | QUEEN];
  // snipers: enemy sliders on a line with the king on an empty board
  const snLo = (BISHOP_EMPTY_LO[k] & dLo) | (ROOK_EMPTY_LO[k] & sLo);
  const snHi = (BISHOP_EMPTY_HI[k] & dHi) | (ROOK_EMPTY_HI[k] & sHi);
  let pLo = 0;
  let pHi = 0;
  const ourLo = lo[us << 3];
  const ourHi = hi[us << 3];
  const kb = k << 6;
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? snLo : snHi;
    const base = h << 5;
    while (bb !== 0) {
      const s = base + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      const bLo = BETWEEN_LO[kb | s] & occLo;
      const bHi = BETWEEN_HI[kb | s] & occHi;
      if ((bLo | bHi) === 0) {
        if (s < 32) cLo |= 1 << s;
        else cHi |= 1 << (s - 32);
      } else if (bHi === 0 ? (bLo & (bLo - 1)) === 0 : bLo === 0 && (bHi & (bHi - 1)) === 0) {
        pLo |= bLo & ourLo;
        pHi |= bHi & ourHi;
      }
    }
  }
  S[0] = cLo;
  S[1] = cHi;
  S[2] = pLo;
  S[3] = pHi;
  const n = popcount32(cLo) + popcount32(cHi);
  if (n === 0) {
    S[4] = ~ourLo;
    S[5] = ~ourHi;
  } else if (n === 1) {
    const c = cLo !== 0 ? 31 - Math.clz32(cLo) : 63 - Math.clz32(cHi);
    S[4] = BETWEEN_LO[kb | c] | cLo;
    S[5] = BETWEEN_HI[kb | c] | cHi;
  } else {
    S[4] = 0;
    S[5] = 0;
  }
  return n > 1 ? 2 : n;
}

function emit(out: Int32Array, n: number, from: number, tLo: number, tHi: number): number {
  while (tLo !== 0) {
    out[n++] = from | ((31 - Math.clz32(tLo & -tLo)) << 6);
    tLo &= tLo - 1;
  }
  while (tHi !== 0) {
    out[n++] = from | ((63 - Math.clz32(tHi & -tHi)) << 6);
    tHi &= tHi - 1;
  }
  return n;
}

/** Castling i (0 O-O white, 1 O-O-O white, 2 O-O black, 3 O-O-O black): rights bit, king squares. */
const CASTLE_RIGHTS = [CASTLE_WK, CASTLE_WQ, CASTLE_BK, CASTLE_BQ];
const CASTLE_KING_FROM = [4, 4, 60, 60];
const CASTLE_KING_TO = [6, 2, 62, 58];
/** Squares between king and rook that must be empty, as a mask within the home rank's half. */
const CASTLE_EMPTY = [(1 << 5) | (1 << 6), (1 << 1) | (1 << 2) | (1 << 3), (1 << 29) | (1 << 30), (1 << 25) | (1 << 26) | (1 << 27)];
/** The two squares the king crosses and lands on (must not be attacked). */
const CASTLE_SAFE_1 = [5, 3, 61, 59];
const CASTLE_SAFE_2 = [6, 2, 62, 58];

/** Castling i is legal (the caller has checked the king is not in check). Rights imply king and rook at home. */
function castlingMoveOk(pos: Position, i: number, occLo: number, occHi: number): boolean {
  if ((pos.castling & CASTLE_RIGHTS[i]) === 0) return false;
  if (((i < 2 ? occLo : occHi) & CASTLE_EMPTY[i]) !== 0) return false;
  const them = pos.turn ^ 1;
  return !pos.attacked(CASTLE_SAFE_1[i], them, occLo, occHi) && !pos.attacked(CASTLE_SAFE_2[i], them, occLo, occHi);
}

/** Writes a pawn move from -> to; four moves (Q, R, B, N) when it reaches the last rank. */
function pawnMove(out: Int32Array, n: number, from: number, to: number, flag: number): number {
  const m = from | (to << 6);
  if (to < 8 || to >= 56) {
    out[n] = m | (FLAG_PROMO_Q << 12);
    out[n + 1] = m | (FLAG_PROMO_R << 12);
    out[n + 2] = m | (FLAG_PROMO_B << 12);
    out[n + 3] = m | (FLAG_PROMO_N << 12);
    return n + 4;
  }
  out[n] = m | (flag << 12);
  return n + 1;
}

/** Writes pawn moves for a set of destinations, each coming from `to - delta`. */
function emitPawns(out: Int32Array, n: number, tLo: number, tHi: number, delta: number, flag: number): number {
  while (tLo !== 0) {
    const to = 31 - Math.clz32(tLo & -tLo);
    tLo &= tLo - 1;
    n = pawnMove(out, n, to - delta, to, flag);
  }
  while (tHi !== 0) {
    const to = 63 - Math.clz32(tHi & -tHi);
    tHi &= tHi - 1;
    n = pawnMove(out, n, to - delta, to, flag);
  }
  return n;
}

/** Writes the legal moves of pos into out from index start; returns the end index. */
export function generateLegal(pos: Position, out: Int32Array, start: number): number {
  const nChecks = prepare(pos);
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const board = pos.board;
  const us = pos.turn;
  const them = us ^ 1;
  const u8 = us << 3;
  const k = pos.kingSq[us];
  const kb = k << 6;
  const ourLo = lo[u8];
  const ourHi = hi[u8];
  const themLo = lo[them << 3];
  const themHi = hi[them << 3];
  const occLo = ourLo | themLo;
  const occHi = ourHi | themHi;
  let n = start;

  // king
  {
    const kOccLo = k < 32 ? occLo & ~(1 << k) : occLo;
    const kOccHi = k >= 32 ? occHi & ~(1 << (k - 32)) : occHi;
    let tLo = KING_LO[k] & ~ourLo;
    let tHi = KING_HI[k] & ~ourHi;
    while (tLo !== 0) {
      const to = 31 - Math.clz32(tLo & -tLo);
      tLo &= tLo - 1;
      if (!pos.attacked(to, them, kOccLo, kOccHi)) out[n++] = k | (to << 6);
    }
    while (tHi !== 0) {
      const to = 63 - Math.clz32(tHi & -tHi);
      tHi &= tHi - 1;
      if (!pos.attacked(to, them, kOccLo, kOccHi)) out[n++] = k | (to << 6);
    }
  }
  if (nChecks === 2) return n;
  if (nChecks === 0 && pos.castling !== 0) {
    const first = us === WHITE ? 0 : 2;
    for (let i = first; i < first + 2; i++) {
      if (castlingMoveOk(pos, i, occLo, occHi)) out[n++] = CASTLE_KING_FROM[i] | (CASTLE_KING_TO[i] << 6) | (FLAG_CASTLE << 12);
    }
  }
  const tgLo = S[4];
  const tgHi = S[5];
  const pinLo = S[2];
  const pinHi = S[3];

  // knights (a pinned knight never moves)
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? lo[u8 | KNIGHT] & ~pinLo : hi[u8 | KNIGHT] & ~pinHi;
    const base = h << 5;
    while (bb !== 0) {
      const sq = base + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      n = emit(out, n, sq, KNIGHT_LO[sq] & tgLo, KNIGHT_HI[sq] & tgHi);
    }
  }
  // bishops, rooks, queens
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? lo[u8 | BISHOP] | lo[u8 | ROOK] | lo[u8 | QUEEN] : hi[u8 | BISHOP] | hi[u8 | ROOK] | hi[u8 | QUEEN];
    const base = h << 5;
    while (bb !== 0) {
      const sq = base + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      const t = board[sq] & 7;
      let aLo = 0;
      let aHi = 0;
      if (t !== ROOK) {
        const i = bishopIndex(sq, occLo, occHi);
        aLo = SLIDER_LO[i];
        aHi = SLIDER_HI[i];
      }
      if (t !== BISHOP) {
        const i = rookIndex(sq, occLo, occHi);
        aLo |= SLIDER_LO[i];
        aHi |= SLIDER_HI[i];
      }
      aLo &= tgLo;
      aHi &= tgHi;
      if (h === 0 ? (pinLo >>> sq) & 1 : (pinHi >>> (sq - 32)) & 1) {
        aLo &= LINE_LO[kb | sq];
        aHi &= LINE_HI[kb | sq];
      }
      n = emit(out, n, sq, aLo, aHi);
    }
  }
  // pawns that are not pinned: set-wise, as in countLegal
  const emptyLo = ~occLo;
  const emptyHi = ~occHi;
  const pLo = lo[u8 | PAWN];
  const pHi = hi[u8 | PAWN];
  const freeLo = pLo & ~pinLo;
  const freeHi = pHi & ~pinHi;
  if (us === WHITE) {
    const s1Lo = (freeLo << 8) & emptyLo;
    const s1Hi = ((freeHi << 8) | (freeLo >>> 24)) & emptyHi;
    const s2Lo = ((s1Lo & 0x00ff0000) << 8) & emptyLo & tgLo;
    const aLo = freeLo & NOT_A;
    const aHi = freeHi & NOT_A;
    const hLo = freeLo & NOT_H;
    const hHi = freeHi & NOT_H;
    n = emitPawns(out, n, (aLo << 7) & themLo & tgLo, ((aHi << 7) | (aLo >>> 25)) & themHi & tgHi, 7, 0);
    n = emitPawns(out, n, (hLo << 9) & themLo & tgLo, ((hHi << 9) | (hLo >>> 23)) & themHi & tgHi, 9, 0);
    n = emitPawns(out, n, s1Lo & tgLo, s1Hi & tgHi, 8, 0);
    n = emitPawns(out, n, s2Lo, 0, 16, FLAG_DOUBLE);
  } else {
    const s1Hi = (freeHi >>> 8) & emptyHi;
    const s1Lo = ((freeLo >>> 8) | (freeHi << 24)) & emptyLo;
    const s2Hi = ((s1Hi & 0x0000ff00) >>> 8) & emptyHi & tgHi;
    const aLo = freeLo & NOT_A;
    const aHi = freeHi & NOT_A;
    const hLo = freeLo & NOT_H;
    const hHi = freeHi & NOT_H;
    n = emitPawns(out, n, ((aLo >>> 9) | (aHi << 23)) & themLo & tgLo, (aHi >>> 9) & themHi & tgHi, -9, 0);
    n = emitPawns(out, n, ((hLo >>> 7) | (hHi << 25)) & themLo & tgLo, (hHi >>> 7) & themHi & tgHi, -7, 0);
    n = emitPawns(out, n, s1Lo & tgLo, s1Hi & tgHi, -8, 0);
    n = emitPawns(out, n, 0, s2Hi, -16, FLAG_DOUBLE);
  }
  // pinned pawns one by one, restricted to the pin line
  const fwd = us === WHITE ? 8 : -8;
  const startRankLo = us === WHITE ? 8 : 48;
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? pLo & pinLo : pHi & pinHi;
    const base = h << 5;
    while (bb !== 0) {
      const sq = base + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      const pi = (us << 6) | sq;
      const mLo = tgLo & LINE_LO[kb | sq];
      const mHi = tgHi & LINE_HI[kb | sq];
      const one = sq + fwd;
      if (board[one] === 0) {
        if (((one < 32 ? mLo >>> one : mHi >>> (one - 32)) & 1) !== 0) n = pawnMove(out, n, sq, one, 0);
        const two = one + fwd;
        if (sq >= startRankLo && sq < startRankLo + 8 && board[two] === 0) {
          if (((two < 32 ? mLo >>> two : mHi >>> (two - 32)) & 1) !== 0) out[n++] = sq | (two << 6) | (FLAG_DOUBLE << 12);
        }
      }
      let tLo = PAWN_LO[pi] & themLo & mLo;
      let tHi = PAWN_HI[pi] & themHi & mHi;
      while (tLo !== 0) {
        n = pawnMove(out, n, sq, 31 - Math.clz32(tLo & -tLo), 0);
        tLo &= tLo - 1;
      }
      while (tHi !== 0) {
        n = pawnMove(out, n, sq, 63 - Math.clz32(tHi & -tHi), 0);
        tHi &= tHi - 1;
      }
    }
  }
  // en passant: at most two capturers; tried on the board (the rank-pin case needs it)
  const ep = pos.ep;
  if (ep >= 0) {
    const pi = ((us ^ 1) << 6) | ep;
    const cLo = PAWN_LO[pi] & pLo;
    const cHi = PAWN_HI[pi] & pHi;
    for (let h = 0; h < 2; h++) {
      let cands = h === 0 ? cLo : cHi;
      while (cands !== 0) {
        const sq = (h << 5) + 31 - Math.clz32(cands & -cands);
        cands &= cands - 1;
        const m = sq | (ep << 6) | (FLAG_EP << 12);
        pos.make(m);
        const ok = !pos.attacked(k, them, pos.bbLo[0] | pos.bbLo[8], pos.bbHi[0] | pos.bbHi[8]);
        pos.unmake(m);
        if (ok) out[n++] = m;
      }
    }
  }
  return n;
}

/** Number of legal moves of pos (bulk counting for perft leaves: popcounts, no move list). */
export function countLegal(pos: Position): number {
  return legalCount(pos, false);
}

/**
 * Whether pos has any legal move (mate and stalemate detection after every move a server
 * relays). Stops at the first section that finds one: knights, pawns, sliders, then the king,
 * whose destinations each need an attack test, and en passant, tried on the board, last.
 */
export function hasLegalMove(pos: Position): boolean {
  return legalCount(pos, true) !== 0;
}

/** King steps of pos's side to move that do not walk into an attack (castling not included). */
function countKingSteps(pos: Position, k: number, them: number, ourLo: number, ourHi: number, occLo: number, occHi: number): number {
  let n = 0;
  const kOccLo = k < 32 ? occLo & ~(1 << k) : occLo;
  const kOccHi = k >= 32 ? occHi & ~(1 << (k - 32)) : occHi;
  let tLo = KING_LO[k] & ~ourLo;
  let tHi = KING_HI[k] & ~ourHi;
  while (tLo !== 0) {
    const to = 31 - Math.clz32(tLo & -tLo);
    tLo &= tLo - 1;
    if (!pos.attacked(to, them, kOccLo, kOccHi)) n++;
  }
  while (tHi !== 0) {
    const to = 63 - Math.clz32(tHi & -tHi);
    tHi &= tHi - 1;
    if (!pos.attacked(to, them, kOccLo, kOccHi)) n++;
  }
  return n;
}

/**
 * The legal moves of pos, counted; with `firstOnly`, a count that is above 0 as soon as one
 * legal move is known (the sections return early), for hasLegalMove.
 * Each section mirrors its twin in generateLegal (popcounts where that one emits moves), so a
 * fix to one is a fix to both: perft's known counts check both, and has-legal-move.test.ts sets
 * them against each other along random games. The slider lookups stay written out in both: a
 * shared helper returning its two halves through a scratch array cost perft 5-12%
 * (bench:perft --quick, three interleaved pairs, 2026-11-23).
 */
function legalCount(pos: Position, firstOnly: boolean): number {
  const nChecks = prepare(pos);
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const board = pos.board;
  const us = pos.turn;
  const them = us ^ 1;
  const u8 = us << 3;
  const k = pos.kingSq[us];
  const kb = k << 6;
  const ourLo = lo[u8];
  const ourHi = hi[u8];
  const themLo = lo[them << 3];
  const themHi = hi[them << 3];
  const occLo = ourLo | themLo;
  const occHi = ourHi | themHi;
  // in double check only the king can move
  if (nChecks === 2) return countKingSteps(pos, k, them, ourLo, ourHi, occLo, occHi);
  let n = 0;
  const tgLo = S[4];
  const tgHi = S[5];
  const pinLo = S[2];
  const pinHi = S[3];
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? lo[u8 | KNIGHT] & ~pinLo : hi[u8 | KNIGHT] & ~pinHi;
    const base = h << 5;
    while (bb !== 0) {
      const sq = base + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      n += popcount32(KNIGHT_LO[sq] & tgLo) + popcount32(KNIGHT_HI[sq] & tgHi);
    }
  }
  if (firstOnly && n !== 0) return n;
  // pawns that are not pinned: set-wise with shifts of the two halves
  const emptyLo = ~occLo;
  const emptyHi = ~occHi;
  const pLo = lo[u8 | PAWN];
  const pHi = hi[u8 | PAWN];
  const freeLo = pLo & ~pinLo;
  const freeHi = pHi & ~pinHi;
  if (us === WHITE) {
    // single pushes (<< 8), double pushes from rank 2, captures towards the a-file (<< 7) and h-file (<< 9)
    const s1Lo = (freeLo << 8) & emptyLo;
    const s1Hi = ((freeHi << 8) | (freeLo >>> 24)) & emptyHi;
    const s2Lo = ((s1Lo & 0x00ff0000) << 8) & emptyLo & tgLo;
    const aLo = freeLo & NOT_A;
    const aHi = freeHi & NOT_A;
    const hLo = freeLo & NOT_H;
    const hHi = freeHi & NOT_H;
    // two pawns can capture onto the same square: count each direction on its own
    const lLo = (aLo << 7) & themLo & tgLo;
    const lHi = ((aHi << 7) | (aLo >>> 25)) & themHi & tgHi;
    const rLo = (hLo << 9) & themLo & tgLo;
    const rHi = ((hHi << 9) | (hLo >>> 23)) & themHi & tgHi;
    const pLo1 = s1Lo & tgLo;
    const pHi1 = s1Hi & tgHi;
    const c = popcount32(lLo) + popcount32(lHi) + popcount32(rLo) + popcount32(rHi) + popcount32(pLo1) + popcount32(pHi1);
    // promotions (rank 8 = top byte of hi) count four times
    const promo = popcount32(lHi & 0xff000000) + popcount32(rHi & 0xff000000) + popcount32(pHi1 & 0xff000000);
    n += c + 3 * promo + popcount32(s2Lo);
  } else {
    const s1Hi = (freeHi >>> 8) & emptyHi;
    const s1Lo = ((freeLo >>> 8) | (freeHi << 24)) & emptyLo;
    const s2Hi = ((s1Hi & 0x0000ff00) >>> 8) & emptyHi & tgHi;
    const aLo = freeLo & NOT_A;
    const aHi = freeHi & NOT_A;
    const hLo = freeLo & NOT_H;
    const hHi = freeHi & NOT_H;
    // towards the a-file: >> 9; towards the h-file: >> 7
    const lHi = (aHi >>> 9) & themHi & tgHi;
    const lLo = ((aLo >>> 9) | (aHi << 23)) & themLo & tgLo;
    const rHi = (hHi >>> 7) & themHi & tgHi;
    const rLo = ((hLo >>> 7) | (hHi << 25)) & themLo & tgLo;
    const pLo1 = s1Lo & tgLo;
    const pHi1 = s1Hi & tgHi;
    const c = popcount32(lLo) + popcount32(lHi) + popcount32(rLo) + popcount32(rHi) + popcount32(pLo1) + popcount32(pHi1);
    // promotions (rank 1 = low byte of lo) count four times
    const promo = popcount32(lLo & 0xff) + popcount32(rLo & 0xff) + popcount32(pLo1 & 0xff);
    n += c + 3 * promo + popcount32(s2Hi);
  }
  // pinned pawns one by one, restricted to the pin line
  const fwd = us === WHITE ? 8 : -8;
  const startRankLo = us === WHITE ? 8 : 48;
  const promoRank = us === WHITE ? 7 : 0;
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? pLo & pinLo : pHi & pinHi;
    const base = h << 5;
    while (bb !== 0) {
      const sq = base + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      const pi = (us << 6) | sq;
      const mLo = tgLo & LINE_LO[kb | sq];
      const mHi = tgHi & LINE_HI[kb | sq];
      let tLo = PAWN_LO[pi] & themLo;
      let tHi = PAWN_HI[pi] & themHi;
      const one = sq + fwd;
      if (board[one] === 0) {
        if (one < 32) tLo |= 1 << one;
        else tHi |= 1 << (one - 32);
        const two = one + fwd;
        if (sq >= startRankLo && sq < startRankLo + 8 && board[two] === 0) {
          n += (two < 32 ? mLo >>> two : mHi >>> (two - 32)) & 1;
        }
      }
      const c = popcount32(tLo & mLo) + popcount32(tHi & mHi);
      n += (one >> 3) === promoRank ? c << 2 : c;
    }
  }
  if (firstOnly && n !== 0) return n;
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? lo[u8 | BISHOP] | lo[u8 | ROOK] | lo[u8 | QUEEN] : hi[u8 | BISHOP] | hi[u8 | ROOK] | hi[u8 | QUEEN];
    const base = h << 5;
    while (bb !== 0) {
      const sq = base + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      const t = board[sq] & 7;
      let aLo = 0;
      let aHi = 0;
      if (t !== ROOK) {
        const i = bishopIndex(sq, occLo, occHi);
        aLo = SLIDER_LO[i];
        aHi = SLIDER_HI[i];
      }
      if (t !== BISHOP) {
        const i = rookIndex(sq, occLo, occHi);
        aLo |= SLIDER_LO[i];
        aHi |= SLIDER_HI[i];
      }
      aLo &= tgLo;
      aHi &= tgHi;
      if (h === 0 ? (pinLo >>> sq) & 1 : (pinHi >>> (sq - 32)) & 1) {
        aLo &= LINE_LO[kb | sq];
        aHi &= LINE_HI[kb | sq];
      }
      n += popcount32(aLo) + popcount32(aHi);
    }
  }
  if (firstOnly && n !== 0) return n;
  n += countKingSteps(pos, k, them, ourLo, ourHi, occLo, occHi);
  if (nChecks === 0 && pos.castling !== 0) {
    const first = us === WHITE ? 0 : 2;
    for (let i = first; i < first + 2; i++) if (castlingMoveOk(pos, i, occLo, occHi)) n++;
  }
  if (firstOnly && n !== 0) return n;
  // en passant: at most two capturers; tried on the board (the rank-pin case needs it)
  const ep = pos.ep;
  if (ep >= 0) {
    const pi = ((us ^ 1) << 6) | ep; // squares from which a pawn of ours attacks ep
    let cands = 0;
    const cLo = PAWN_LO[pi] & pLo;
    const cHi = PAWN_HI[pi] & pHi;
    for (let h = 0; h < 2; h++) {
      cands = h === 0 ? cLo : cHi;
      while (cands !== 0) {
        const sq = (h << 5) + 31 - Math.clz32(cands & -cands);
        cands &= cands - 1;
        const m = sq | (ep << 6) | (FLAG_EP << 12);
        pos.make(m);
        if (!pos.attacked(k, them, pos.bbLo[0] | pos.bbLo[8], pos.bbHi[0] | pos.bbHi[8])) n++;
        pos.unmake(m);
      }
    }
  }
  return n;
}

/**
 * The encoded legal move from -> to (promo: 0 or piece type 2..5; a pawn reaching the last rank
 * without one promotes to a queen), or -1 when that move is not legal. Checks the single move
 * directly (geometry, then make / king-attacked / unmake), without generating the move list.
 */
export function findLegalMove(pos: Position, from: number, to: number, promo: number): number {
  const board = pos.board;
  const piece = board[from];
  const us = pos.turn;
  if (piece === 0 || piece >> 3 !== us || from === to) return -1;
  const target = board[to];
  if (target !== 0 && target >> 3 === us) return -1;
  const type = piece & 7;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const occLo = lo[0] | lo[8];
  const occHi = hi[0] | hi[8];
  const toBit = to < 32 ? 1 << to : 1 << (to - 32);
  let flag = 0;
  if (promo !== 0 && (type !== PAWN || (to >> 3) !== (us === WHITE ? 7 : 0))) return -1;
  switch (type) {
    case PAWN: {
      const fwd = us === WHITE ? 8 : -8;
      if (to === from + fwd) {
        if (target !== 0) return -1;
      } else if (to === from + 2 * fwd) {
        if (target !== 0 || board[from + fwd] !== 0 || (from >> 3) !== (us === WHITE ? 1 : 6)) return -1;
        flag = FLAG_DOUBLE;
      } else {
        const pi = (us << 6) | from;
        if (((to < 32 ? PAWN_LO[pi] : PAWN_HI[pi]) & toBit) === 0) return -1;
        if (target === 0) {
          if (to !== pos.ep) return -1;
          flag = FLAG_EP;
        }
      }
      if ((to >> 3) === (us === WHITE ? 7 : 0)) flag = promo === 0 ? FLAG_PROMO_Q : promo + 2;
      break;
    }
    case KNIGHT:
      if (((to < 32 ? KNIGHT_LO[from] : KNIGHT_HI[from]) & toBit) === 0) return -1;
      break;
    case KING:
      if (((to < 32 ? KING_LO[from] : KING_HI[from]) & toBit) === 0) {
        // castling: the king's two-square move along its home rank
        let i = -1;
        for (let j = us === WHITE ? 0 : 2, e = j + 2; j < e; j++) if (CASTLE_KING_FROM[j] === from && CASTLE_KING_TO[j] === to) i = j;
        if (i < 0 || pos.inCheck() || !castlingMoveOk(pos, i, occLo, occHi)) return -1;
        return from | (to << 6) | (FLAG_CASTLE << 12);
      }
      break;
    default: {
      let a = 0;
      if (type !== ROOK) {
        const i = bishopIndex(from, occLo, occHi);
        a = to < 32 ? SLIDER_LO[i] : SLIDER_HI[i];
      }
      if (type !== BISHOP) {
        const i = rookIndex(from, occLo, occHi);
        a |= to < 32 ? SLIDER_LO[i] : SLIDER_HI[i];
      }
      if ((a & toBit) === 0) return -1;
    }
  }
  const m = from | (to << 6) | (flag << 12);
  pos.make(m);
  const ok = !pos.attacked(pos.kingSq[us], us ^ 1, pos.bbLo[0] | pos.bbLo[8], pos.bbHi[0] | pos.bbHi[8]);
  pos.unmake(m);
  return ok ? m : -1;
}
