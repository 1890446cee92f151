/** Standard Algebraic Notation: writing (with disambiguation, x, =Q, +, #, O-O) and parsing. */
import { KNIGHT_HI, KNIGHT_LO, SLIDER_HI, SLIDER_LO, bishopIndex, rookIndex } from './attacks';
import { findLegalMove, hasLegalMove } from './movegen';
import type { Position } from './position';
import { BISHOP, FLAG_CASTLE, FLAG_EP, FLAG_PROMO_N, KING, KNIGHT, PAWN, PIECE_CHARS, ROOK } from './types';
import { SQUARE_NAMES, parseSquare } from './squares';

/**
 * SAN of the legal move m in pos. Disambiguation needs the other pieces of the same kind that
 * can legally reach the destination: they are found from the attack tables (the pieces of that
 * kind attacking the square) and each checked for legality on its own, so no move list is built.
 */
export function moveToSan(pos: Position, m: number): string {
  let san = sanBody(pos, m);
  pos.make(m);
  if (pos.inCheck()) san += checkSuffix(hasLegalMove(pos));
  pos.unmake(m);
  return san;
}

/** '+' for a check, '#' for mate: what SAN appends after a checking move, given whether the side checked can move. */
export const checkSuffix = (canMove: boolean): string => (canMove ? '+' : '#');

/** The SAN of move `m` in `pos` without its check suffix (the position is not changed). */
export function sanBody(pos: Position, m: number): string {
  const from = m & 63;
  const to = (m >> 6) & 63;
  const flag = m >> 12;
  const piece = pos.board[from];
  const type = piece & 7;
  let san: string;
  if (flag === FLAG_CASTLE) {
    san = to > from ? 'O-O' : 'O-O-O';
  } else {
    const capture = pos.board[to] !== 0 || flag === FLAG_EP;
    if (type === PAWN) {
      san = capture ? SQUARE_NAMES[from][0] + 'x' : '';
      san += SQUARE_NAMES[to];
      if (flag >= FLAG_PROMO_N) san += '=' + PIECE_CHARS[flag - 2].toUpperCase();
    } else {
      san = PIECE_CHARS[type].toUpperCase();
      if (type !== KING) san += disambiguation(pos, from, to, piece);
      if (capture) san += 'x';
      san += SQUARE_NAMES[to];
    }
  }
  return san;
}

/** '', a file, a rank or a square: what tells the move of `piece` from -> to apart from its twins'. */
function disambiguation(pos: Position, from: number, to: number, piece: number): string {
  const type = piece & 7;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  // squares from which a piece of this kind attacks `to` (attacks are symmetric)
  let aLo: number;
  let aHi: number;
  if (type === KNIGHT) {
    aLo = KNIGHT_LO[to];
    aHi = KNIGHT_HI[to];
  } else {
    const occLo = lo[0] | lo[8];
    const occHi = hi[0] | hi[8];
    aLo = 0;
    aHi = 0;
    if (type !== ROOK) {
      const i = bishopIndex(to, occLo, occHi);
      aLo = SLIDER_LO[i];
      aHi = SLIDER_HI[i];
    }
    if (type !== BISHOP) {
      const i = rookIndex(to, occLo, occHi);
      aLo |= SLIDER_LO[i];
      aHi |= SLIDER_HI[i];
    }
  }
  // the twins: same colour and kind, not the mover
  aLo &= lo[piece];
  aHi &= hi[piece];
  if (from < 32) aLo &= ~(1 << from);
  else aHi &= ~(1 << (from - 32));
  if (aLo === 0 && aHi === 0) return '';
  let ambiguous = false;
  let sameFile = false;
  let sameRank = false;
  for (let h = 0; h < 2; h++) {
    let bb = h === 0 ? aLo : aHi;
    while (bb !== 0) {
      const sq = (h << 5) + 31 - Math.clz32(bb & -bb);
      bb &= bb - 1;
      if (findLegalMove(pos, sq, to, 0) < 0) continue; // pinned
      ambiguous = true;
      if ((sq & 7) === (from & 7)) sameFile = true;
      if (sq >> 3 === from >> 3) sameRank = true;
    }
  }
  if (!ambiguous) return '';
  if (!sameFile) return SQUARE_NAMES[from][0];
  if (!sameRank) return SQUARE_NAMES[from][1];
  return SQUARE_NAMES[from];
}

const SAN_RE = /^([NBRQK])?([a-h])?([1-8])?(x|:)?([a-h][1-8])(?:=?([NBRQnbrq]))?$/;

/**
 * Finds the legal move written in SAN among moves[start..end). Accepts the usual variants:
 * check/mate/annotation suffixes, '0-0', promotion without '=', over-disambiguation.
 * Returns the move or -1 when no move or more than one move matches.
 */
export function parseSan(pos: Position, text: string, moves: Int32Array, start: number, end: number): number {
  if (typeof text !== 'string') return -1;
  const san = text.trim().replace(/[+#!?]+$/, '');
  if (san === 'O-O' || san === '0-0' || san === 'O-O-O' || san === '0-0-0') {
    const long = san.length === 5;
    for (let i = start; i < end; i++) {
      const m = moves[i];
      if (m >> 12 === FLAG_CASTLE && ((m >> 6) & 63) < (m & 63) === long) return m;
    }
    return -1;
  }
  const match = SAN_RE.exec(san);
  if (!match) return -1;
  const type = match[1] ? PIECE_CHARS.indexOf(match[1].toLowerCase()) : PAWN;
  const fromFile = match[2] ? match[2].charCodeAt(0) - 97 : -1;
  const fromRank = match[3] ? match[3].charCodeAt(0) - 49 : -1;
  const to = parseSquare(match[5]);
  const promo = match[6] ? PIECE_CHARS.indexOf(match[6].toLowerCase()) : 0;
  let found = -1;
  for (let i = start; i < end; i++) {
    const m = moves[i];
    const from = m & 63;
    const flag = m >> 12;
    if (((m >> 6) & 63) !== to || (pos.board[from] & 7) !== type || flag === FLAG_CASTLE) continue;
    if (fromFile >= 0 && (from & 7) !== fromFile) continue;
    if (fromRank >= 0 && (from >> 3) !== fromRank) continue;
    const movePromo = flag >= FLAG_PROMO_N ? flag - 2 : 0;
    if (movePromo !== promo) continue;
    if (found >= 0) return -1;
    found = m;
  }
  return found;
}
