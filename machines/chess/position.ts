/**
 * The low-level position: mailbox + bitboards + state, with make/unmake and a Zobrist hash.
 * Bitboards are kept per piece code in bbLo/bbHi[16]: index color * 8 + type for pieces and
 * index color * 8 (0 white, 8 black) for that colour's occupancy.
 */
import {
  BISHOP_EMPTY_HI as BISHOP_EMPTY_HI_, BISHOP_EMPTY_LO as BISHOP_EMPTY_LO_, KING_HI as KING_HI_, KING_LO as KING_LO_, KNIGHT_HI as KNIGHT_HI_, KNIGHT_LO as KNIGHT_LO_, PAWN_HI as PAWN_HI_, PAWN_LO as PAWN_LO_, ROOK_EMPTY_HI as ROOK_EMPTY_HI_, ROOK_EMPTY_LO as ROOK_EMPTY_LO_, SLIDER_HI as SLIDER_HI_, SLIDER_LO as SLIDER_LO_, bishopIndex as bishopIndex_, rookIndex as rookIndex_,
} from './attacks';
import {
  BISHOP as BISHOP_, BLACK as BLACK_, CASTLE_BK as CASTLE_BK_, CASTLE_BQ as CASTLE_BQ_, CASTLE_WK as CASTLE_WK_, CASTLE_WQ as CASTLE_WQ_, FLAG_CASTLE as FLAG_CASTLE_, FLAG_DOUBLE as FLAG_DOUBLE_, FLAG_EP as FLAG_EP_, FLAG_PROMO_N as FLAG_PROMO_N_, KING as KING_, KNIGHT as KNIGHT_, PAWN as PAWN_, QUEEN as QUEEN_, ROOK as ROOK_, WHITE as WHITE_, encodeMove as encodeMove_,
} from './types';
import {
  CASTLE_KEY_HI as CASTLE_KEY_HI_, CASTLE_KEY_LO as CASTLE_KEY_LO_, EP_KEY_HI as EP_KEY_HI_, EP_KEY_LO as EP_KEY_LO_, PIECE_KEY_HI as PIECE_KEY_HI_, PIECE_KEY_LO as PIECE_KEY_LO_, SIDE_KEY_HI as SIDE_KEY_HI_, SIDE_KEY_LO as SIDE_KEY_LO_,
} from './zobrist';
import { FenError } from './fen-error';
import { LETTER_OF_PIECE as LETTER_OF_PIECE_, fenFields, isDigits, readPlacement } from './fenText';
import {
  parseSquare as parseSquare_, squareName as squareName_,
} from './squares';

// Local bindings of imported values: hot loops then read module-local constants, which stays
// fast even when a tool compiles these files to CommonJS (imports become property getters there).
const BISHOP_EMPTY_HI = BISHOP_EMPTY_HI_;
const BISHOP_EMPTY_LO = BISHOP_EMPTY_LO_;
const KING_HI = KING_HI_;
const KING_LO = KING_LO_;
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const ROOK_EMPTY_HI = ROOK_EMPTY_HI_;
const ROOK_EMPTY_LO = ROOK_EMPTY_LO_;
const SLIDER_HI = SLIDER_HI_;
const SLIDER_LO = SLIDER_LO_;
const bishopIndex = bishopIndex_;
const rookIndex = rookIndex_;
const BISHOP = BISHOP_;
const BLACK = BLACK_;
const CASTLE_BK = CASTLE_BK_;
const CASTLE_BQ = CASTLE_BQ_;
const CASTLE_WK = CASTLE_WK_;
const CASTLE_WQ = CASTLE_WQ_;
const FLAG_CASTLE = FLAG_CASTLE_;
const FLAG_DOUBLE = FLAG_DOUBLE_;
const FLAG_EP = FLAG_EP_;
const FLAG_PROMO_N = FLAG_PROMO_N_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const LETTER_OF_PIECE = LETTER_OF_PIECE_;
/**
 * toFen writes the whole FEN as bytes into this buffer and decodes it once. The longest FEN is
 * 64 + 7 placement bytes, 13 more for the side, castling and en passant fields and their
 * spaces, and two counters (a number prints in at most 24 characters).
 */
const FEN_BUFFER = new Uint8Array(160);
/** One view per length, so a FEN is decoded without making a view for it. */
const FEN_VIEWS = Array.from({ length: FEN_BUFFER.length + 1 }, (_, n) => FEN_BUFFER.subarray(0, n));
/**
 * A FEN is ASCII, so UTF-8 decoding is exact. TextDecoder is a web API (browsers, Node, Deno);
 * without it (a bare JavaScript runtime, such as k6's) the bytes go through String.fromCharCode,
 * which is about five times slower and makes more garbage. Looked up on globalThis: the chess
 * core is type-checked without the DOM's declarations too (loadtest/k6).
 */
const FEN_DECODER: { decode(bytes: Uint8Array): string } | null = (() => {
  const Decoder = (globalThis as { TextDecoder?: new () => { decode(bytes: Uint8Array): string } }).TextDecoder;
  return typeof Decoder === 'function' ? new Decoder() : null;
})();
const ZERO = 48;

/** Writes a counter as the FEN prints it (as String(v) would) at buf[n..]; returns the next index. */
function writeDigits(buf: Uint8Array, n: number, v: number): number {
  if (v >= 0 && v < 10) {
    buf[n] = ZERO + v;
    return n + 1;
  }
  const digits = String(v);
  for (let i = 0; i < digits.length; i++) buf[n++] = digits.charCodeAt(i);
  return n;
}
const QUEEN = QUEEN_;
const ROOK = ROOK_;
const WHITE = WHITE_;
const encodeMove = encodeMove_;
const CASTLE_KEY_HI = CASTLE_KEY_HI_;
const CASTLE_KEY_LO = CASTLE_KEY_LO_;
const EP_KEY_HI = EP_KEY_HI_;
const EP_KEY_LO = EP_KEY_LO_;
const PIECE_KEY_HI = PIECE_KEY_HI_;
const PIECE_KEY_LO = PIECE_KEY_LO_;
const SIDE_KEY_HI = SIDE_KEY_HI_;
const SIDE_KEY_LO = SIDE_KEY_LO_;
const parseSquare = parseSquare_;
const squareName = squareName_;

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Castling rights kept after a move touches a square (king and rook home squares clear rights). */
const CASTLE_KEEP = new Int32Array(64).fill(15);
CASTLE_KEEP[0] = 15 & ~CASTLE_WQ;
CASTLE_KEEP[7] = 15 & ~CASTLE_WK;
CASTLE_KEEP[4] = 15 & ~(CASTLE_WK | CASTLE_WQ);
CASTLE_KEEP[56] = 15 & ~CASTLE_BQ;
CASTLE_KEEP[63] = 15 & ~CASTLE_BK;
CASTLE_KEEP[60] = 15 & ~(CASTLE_BK | CASTLE_BQ);

/** Undo record layout in the stack (ints per ply). */
const U_CAPTURED = 0;
const U_CASTLING = 1;
const U_EP = 2;
const U_HALFMOVE = 3;
const U_HASH_LO = 4;
const U_HASH_HI = 5;
const U_SIZE = 8;

let LOAD_SCRATCH: Position | undefined;
/** The board loadFen reads a placement into before it checks the whole FEN. */
const LOAD_BOARD = new Int8Array(64);
/** Each castling right's letter, colour, bit, king and rook home squares, and what it needs, for loadFen. */
const CASTLING_RIGHTS: readonly (readonly [string, number, number, number, number, string])[] = [
  ['K', WHITE, CASTLE_WK, 4, 7, 'white king on e1 and white rook on h1'],
  ['Q', WHITE, CASTLE_WQ, 4, 0, 'white king on e1 and white rook on a1'],
  ['k', BLACK, CASTLE_BK, 60, 63, 'black king on e8 and black rook on h8'],
  ['q', BLACK, CASTLE_BQ, 60, 56, 'black king on e8 and black rook on a8'],
];

export class Position {
  /** Piece code per square (0 empty). */
  board = new Int8Array(64);
  bbLo = new Int32Array(16);
  bbHi = new Int32Array(16);
  kingSq = new Int32Array(2);
  turn = WHITE;
  /** CASTLE_* bits. */
  castling = 0;
  /**
   * En passant target square, or -1. Set only when a pawn of the side to move stands next to
   * the pawn that just made a double push (same rule as the hash used for repetitions).
   */
  ep = -1;
  halfmove = 0;
  fullmove = 1;
  hashLo = 0;
  hashHi = 0;
  private stack = new Int32Array(U_SIZE * 64);
  private sp = 0;

  static fromFen(fen: string): Position {
    const p = new Position();
    p.loadFen(fen);
    return p;
  }

  /** Independent copy, including the undo stack (moves made before can be unmade on the copy). */
  clone(): Position {
    const p = new Position();
    p.board.set(this.board);
    p.bbLo.set(this.bbLo);
    p.bbHi.set(this.bbHi);
    p.kingSq.set(this.kingSq);
    p.turn = this.turn;
    p.castling = this.castling;
    p.ep = this.ep;
    p.halfmove = this.halfmove;
    p.fullmove = this.fullmove;
    p.hashLo = this.hashLo;
    p.hashHi = this.hashHi;
    p.stack = this.stack.slice();
    p.sp = this.sp;
    return p;
  }

  /** Empty board, white to move, no rights, counters reset, empty undo stack. */
  private clear(): void {
    this.board.fill(0);
    this.bbLo.fill(0);
    this.bbHi.fill(0);
    this.kingSq.fill(0);
    this.turn = WHITE;
    this.castling = 0;
    this.ep = -1;
    this.halfmove = 0;
    this.fullmove = 1;
    this.hashLo = 0;
    this.hashHi = 0;
    this.sp = 0;
  }

  occLo(): number {
    return this.bbLo[0] | this.bbLo[8];
  }

  occHi(): number {
    return this.bbHi[0] | this.bbHi[8];
  }

  /** Adds a piece on an empty square (board, bitboards, hash). */
  private put(piece: number, sq: number): void {
    this.board[sq] = piece;
    const c = piece & 8;
    if (sq < 32) {
      const b = 1 << sq;
      this.bbLo[piece] |= b;
      this.bbLo[c] |= b;
    } else {
      const b = 1 << (sq - 32);
      this.bbHi[piece] |= b;
      this.bbHi[c] |= b;
    }
    this.hashLo ^= PIECE_KEY_LO[(piece << 6) | sq];
    this.hashHi ^= PIECE_KEY_HI[(piece << 6) | sq];
  }

  /** Removes the piece on sq (board, bitboards, hash). */
  private remove(piece: number, sq: number): void {
    this.board[sq] = 0;
    const c = piece & 8;
    if (sq < 32) {
      const b = ~(1 << sq);
      this.bbLo[piece] &= b;
      this.bbLo[c] &= b;
    } else {
      const b = ~(1 << (sq - 32));
      this.bbHi[piece] &= b;
      this.bbHi[c] &= b;
    }
    this.hashLo ^= PIECE_KEY_LO[(piece << 6) | sq];
    this.hashHi ^= PIECE_KEY_HI[(piece << 6) | sq];
  }

  /** Is sq attacked by colour `by`, given the occupancy (lo, hi)? */
  attacked(sq: number, by: number, occLo: number, occHi: number): boolean {
    const o = by << 3;
    const lo = this.bbLo;
    const hi = this.bbHi;
    const pi = ((by ^ 1) << 6) | sq;
    if ((PAWN_LO[pi] & lo[o | PAWN]) | (PAWN_HI[pi] & hi[o | PAWN])) return true;
    if ((KNIGHT_LO[sq] & lo[o | KNIGHT]) | (KNIGHT_HI[sq] & hi[o | KNIGHT])) return true;
    if ((KING_LO[sq] & lo[o | KING]) | (KING_HI[sq] & hi[o | KING])) return true;
    const qLo = lo[o | QUEEN];
    const qHi = hi[o | QUEEN];
    const dLo = lo[o | BISHOP] | qLo;
    const dHi = hi[o | BISHOP] | qHi;
    if ((BISHOP_EMPTY_LO[sq] & dLo) | (BISHOP_EMPTY_HI[sq] & dHi)) {
      const bi = bishopIndex(sq, occLo, occHi);
      if ((SLIDER_LO[bi] & dLo) | (SLIDER_HI[bi] & dHi)) return true;
    }
    const sLo = lo[o | ROOK] | qLo;
    const sHi = hi[o | ROOK] | qHi;
    if ((ROOK_EMPTY_LO[sq] & sLo) | (ROOK_EMPTY_HI[sq] & sHi)) {
      const ri = rookIndex(sq, occLo, occHi);
      if ((SLIDER_LO[ri] & sLo) | (SLIDER_HI[ri] & sHi)) return true;
    }
    return false;
  }

  inCheck(): boolean {
    return this.attacked(this.kingSq[this.turn], this.turn ^ 1, this.occLo(), this.occHi());
  }

  /** Plays a legal move (encoded as in types.ts). */
  make(m: number): void {
    const from = m & 63;
    const to = (m >> 6) & 63;
    const flag = m >> 12;
    const piece = this.board[from];
    const us = this.turn;
    let sp = this.sp;
    if (sp + U_SIZE > this.stack.length) {
      const bigger = new Int32Array(this.stack.length * 2);
      bigger.set(this.stack);
      this.stack = bigger;
    }
    const st = this.stack;
    let captured = this.board[to];
    st[sp + U_CASTLING] = this.castling;
    st[sp + U_EP] = this.ep;
    st[sp + U_HALFMOVE] = this.halfmove;
    st[sp + U_HASH_LO] = this.hashLo;
    st[sp + U_HASH_HI] = this.hashHi;

    if (this.ep >= 0) {
      this.hashLo ^= EP_KEY_LO[this.ep & 7];
      this.hashHi ^= EP_KEY_HI[this.ep & 7];
      this.ep = -1;
    }
    if (flag === FLAG_EP) {
      const capSq = to ^ 8;
      captured = this.board[capSq];
      this.remove(captured, capSq);
    } else if (captured !== 0) {
      this.remove(captured, to);
    }
    st[sp + U_CAPTURED] = captured;
    this.remove(piece, from);
    if (flag >= FLAG_PROMO_N) this.put((us << 3) | (flag - 2), to);
    else this.put(piece, to);
    if ((piece & 7) === KING) {
      this.kingSq[us] = to;
      if (flag === FLAG_CASTLE) {
        const rank = from & 56;
        if (to > from) {
          this.remove((us << 3) | ROOK, rank | 7);
          this.put((us << 3) | ROOK, rank | 5);
        } else {
          this.remove((us << 3) | ROOK, rank);
          this.put((us << 3) | ROOK, rank | 3);
        }
      }
    }
    const newCastling = this.castling & CASTLE_KEEP[from] & CASTLE_KEEP[to];
    if (newCastling !== this.castling) {
      this.hashLo ^= CASTLE_KEY_LO[this.castling] ^ CASTLE_KEY_LO[newCastling];
      this.hashHi ^= CASTLE_KEY_HI[this.castling] ^ CASTLE_KEY_HI[newCastling];
      this.castling = newCastling;
    }
    if (flag === FLAG_DOUBLE) {
      // en passant square only if an enemy pawn stands next to the pushed pawn
      const them = us ^ 1;
      const adj = this.adjacentPawns(to, them);
      if (adj) {
        this.ep = (from + to) >> 1;
        this.hashLo ^= EP_KEY_LO[to & 7];
        this.hashHi ^= EP_KEY_HI[to & 7];
      }
    }
    this.halfmove = (piece & 7) === PAWN || captured !== 0 ? 0 : this.halfmove + 1;
    if (us === BLACK) this.fullmove++;
    this.turn = us ^ 1;
    this.hashLo ^= SIDE_KEY_LO;
    this.hashHi ^= SIDE_KEY_HI;
    sp += U_SIZE;
    this.sp = sp;
  }

  /** Flips piece on sq in the bitboards only (unmake restores the hash from the stack). */
  private flip(piece: number, sq: number): void {
    const c = piece & 8;
    if (sq < 32) {
      const b = 1 << sq;
      this.bbLo[piece] ^= b;
      this.bbLo[c] ^= b;
    } else {
      const b = 1 << (sq - 32);
      this.bbHi[piece] ^= b;
      this.bbHi[c] ^= b;
    }
  }

  /** Takes back the move m, which must be the last one made. */
  unmake(m: number): void {
    const from = m & 63;
    const to = (m >> 6) & 63;
    const flag = m >> 12;
    const sp = (this.sp -= U_SIZE);
    const st = this.stack;
    const board = this.board;
    const us = this.turn ^ 1;
    this.turn = us;
    if (us === BLACK) this.fullmove--;
    const moved = board[to];
    const original = flag >= FLAG_PROMO_N ? (us << 3) | PAWN : moved;
    this.flip(moved, to);
    board[to] = 0;
    this.flip(original, from);
    board[from] = original;
    const captured = st[sp + U_CAPTURED];
    if (captured !== 0) {
      const capSq = flag === FLAG_EP ? to ^ 8 : to;
      this.flip(captured, capSq);
      board[capSq] = captured;
    }
    if ((moved & 7) === KING) {
      this.kingSq[us] = from;
      if (flag === FLAG_CASTLE) {
        const rank = from & 56;
        const rook = (us << 3) | ROOK;
        const rFrom = to > from ? rank | 7 : rank;
        const rTo = to > from ? rank | 5 : rank | 3;
        this.flip(rook, rTo);
        board[rTo] = 0;
        this.flip(rook, rFrom);
        board[rFrom] = rook;
      }
    }
    this.castling = st[sp + U_CASTLING];
    this.ep = st[sp + U_EP];
    this.halfmove = st[sp + U_HALFMOVE];
    this.hashLo = st[sp + U_HASH_LO];
    this.hashHi = st[sp + U_HASH_HI];
  }

  /** Bits (as a truthy number) of pawns of colour c on the squares left and right of sq. */
  private adjacentPawns(sq: number, c: number): number {
    const f = sq & 7;
    const p = (c << 3) | PAWN;
    let found = 0;
    if (f > 0 && this.board[sq - 1] === p) found |= 1;
    if (f < 7 && this.board[sq + 1] === p) found |= 2;
    return found;
  }

  /** True when the side to move has a legal en passant capture (decides the FEN ep field). */
  epCaptureIsLegal(): boolean {
    if (this.ep < 0) return false;
    const us = this.turn;
    const pawnSq = this.ep ^ 8;
    const f = pawnSq & 7;
    const p = (us << 3) | PAWN;
    for (const from of [f > 0 ? pawnSq - 1 : -1, f < 7 ? pawnSq + 1 : -1]) {
      if (from < 0 || this.board[from] !== p) continue;
      const m = encodeMove(from, this.ep, FLAG_EP);
      this.make(m);
      const legal = !this.attacked(this.kingSq[us], us ^ 1, this.occLo(), this.occHi());
      this.unmake(m);
      if (legal) return true;
    }
    return false;
  }

  /** Recomputes the Zobrist hash from scratch. */
  computeHash(): [number, number] {
    let lo = 0;
    let hi = 0;
    for (let sq = 0; sq < 64; sq++) {
      const pc = this.board[sq];
      if (pc) {
        lo ^= PIECE_KEY_LO[(pc << 6) | sq];
        hi ^= PIECE_KEY_HI[(pc << 6) | sq];
      }
    }
    lo ^= CASTLE_KEY_LO[this.castling];
    hi ^= CASTLE_KEY_HI[this.castling];
    if (this.ep >= 0) {
      lo ^= EP_KEY_LO[this.ep & 7];
      hi ^= EP_KEY_HI[this.ep & 7];
    }
    if (this.turn === BLACK) {
      lo ^= SIDE_KEY_LO;
      hi ^= SIDE_KEY_HI;
    }
    return [lo, hi];
  }

  /** Replaces the whole position with the one described by fen; throws FenError (and then changes nothing). */
  loadFen(fen: string): void {
    if (typeof fen !== 'string') throw new FenError('Invalid FEN: expected a string');
    const fields = fenFields(fen);
    if (fields.length < 4 || fields[0] === '') {
      throw new FenError(`Invalid FEN: expected at least 4 space-separated fields (placement, side, castling, en passant), got ${fields[0] === '' ? 0 : fields.length}`);
    }
    if (fields.length > 6) throw new FenError(`Invalid FEN: expected at most 6 fields, got ${fields.length}`);
    const [placement, side, castlingField, epField] = fields;
    const board = LOAD_BOARD.fill(0);
    readPlacement(placement, board);
    const kings = [0, 0];
    const kingSq = [-1, -1];
    for (let sq = 0; sq < 64; sq++) {
      const pc = board[sq];
      if ((pc & 7) === KING) {
        kings[pc >> 3]++;
        kingSq[pc >> 3] = sq;
      }
      if ((pc & 7) === PAWN && (sq < 8 || sq >= 56)) {
        throw new FenError(`Invalid FEN: pawn on ${squareName(sq)} (pawns cannot stand on the first or last rank)`);
      }
    }
    for (const c of [WHITE, BLACK]) {
      const name = c === WHITE ? 'white' : 'black';
      if (kings[c] === 0) throw new FenError(`Invalid FEN: missing ${name} king`);
      if (kings[c] > 1) throw new FenError(`Invalid FEN: ${kings[c]} ${name} kings (exactly one allowed)`);
    }
    if (side !== 'w' && side !== 'b') throw new FenError(`Invalid FEN: side to move must be 'w' or 'b', got '${side}'`);
    const turn = side === 'w' ? WHITE : BLACK;
    let castling = 0;
    if (castlingField !== '-') {
      if (!/^K?Q?k?q?$/.test(castlingField) || castlingField === '') {
        throw new FenError(`Invalid FEN: castling field must be '-' or a subset of 'KQkq' in that order, got '${castlingField}'`);
      }
      for (const [ch, c, bit, k, r, need] of CASTLING_RIGHTS) {
        if (!castlingField.includes(ch)) continue;
        if (board[k] !== ((c << 3) | KING) || board[r] !== ((c << 3) | ROOK)) {
          throw new FenError(`Invalid FEN: castling right '${ch}' needs the ${need}`);
        }
        castling |= bit;
      }
    }
    let ep = -1;
    if (epField !== '-') {
      const sq = parseSquare(epField);
      if (sq < 0) throw new FenError(`Invalid FEN: en passant field must be '-' or a square, got '${epField}'`);
      const needRank = turn === WHITE ? 5 : 2;
      const pawnSq = turn === WHITE ? sq - 8 : sq + 8;
      const originSq = turn === WHITE ? sq + 8 : sq - 8;
      if ((sq >> 3) !== needRank) {
        throw new FenError(`Invalid FEN: impossible en passant square ${epField} (must be on rank ${needRank + 1} when ${turn === WHITE ? 'white' : 'black'} is to move)`);
      }
      if (board[pawnSq] !== (((turn ^ 1) << 3) | PAWN) || board[sq] !== 0 || board[originSq] !== 0) {
        throw new FenError(`Invalid FEN: impossible en passant square ${epField} (no pawn just made a double step past it)`);
      }
      ep = sq;
    }
    let halfmove = 0;
    let fullmove = 1;
    if (fields.length >= 5) {
      if (!isDigits(fields[4])) throw new FenError(`Invalid FEN: halfmove clock must be a non-negative integer, got '${fields[4]}'`);
      halfmove = parseInt(fields[4], 10);
    }
    if (fields.length >= 6) {
      if (!isDigits(fields[5]) || parseInt(fields[5], 10) < 1) throw new FenError(`Invalid FEN: fullmove number must be a positive integer, got '${fields[5]}'`);
      fullmove = parseInt(fields[5], 10);
    }

    // Build into a scratch position so a later error leaves this one untouched (one scratch for
    // all loads: a server loads a position for every move it relays).
    const p = (LOAD_SCRATCH ??= new Position());
    p.clear();
    for (let sq = 0; sq < 64; sq++) if (board[sq]) p.put(board[sq], sq);
    p.kingSq[WHITE] = kingSq[WHITE];
    p.kingSq[BLACK] = kingSq[BLACK];
    p.turn = turn;
    p.castling = castling;
    p.halfmove = halfmove;
    p.fullmove = fullmove;
    const them = turn ^ 1;
    if (p.attacked(kingSq[them], turn, p.occLo(), p.occHi())) {
      throw new FenError(`Invalid FEN: the side not to move (${them === WHITE ? 'white' : 'black'}) is in check`);
    }
    if (ep >= 0 && p.adjacentPawns(ep ^ 8, turn)) p.ep = ep;
    const [hLo, hHi] = p.computeHash();
    this.board.set(p.board);
    this.bbLo.set(p.bbLo);
    this.bbHi.set(p.bbHi);
    this.kingSq.set(p.kingSq);
    this.turn = p.turn;
    this.castling = p.castling;
    this.ep = p.ep;
    this.halfmove = p.halfmove;
    this.fullmove = p.fullmove;
    this.hashLo = hLo;
    this.hashHi = hHi;
    this.sp = 0;
  }

  /** FEN with the real counters; the en passant square only when that capture is legal. */
  toFen(): string {
    // Written as bytes into one reused buffer and decoded once: a FEN is made for every move a
    // server relays, and building it from strings (per square, then per field) made most of the
    // garbage of a move.
    const buf = FEN_BUFFER;
    let n = 0;
    for (let rank = 7; rank >= 0; rank--) {
      let empty = 0;
      for (let file = 0; file < 8; file++) {
        const pc = this.board[rank * 8 + file];
        if (pc === 0) {
          empty++;
          continue;
        }
        if (empty) buf[n++] = ZERO + empty;
        empty = 0;
        buf[n++] = LETTER_OF_PIECE[pc];
      }
      if (empty) buf[n++] = ZERO + empty;
      if (rank > 0) buf[n++] = 47; // '/'
    }
    buf[n++] = 32;
    buf[n++] = this.turn === WHITE ? 119 : 98; // 'w' / 'b'
    buf[n++] = 32;
    const castling = this.castling;
    if (castling & CASTLE_WK) buf[n++] = 75; // 'K'
    if (castling & CASTLE_WQ) buf[n++] = 81; // 'Q'
    if (castling & CASTLE_BK) buf[n++] = 107; // 'k'
    if (castling & CASTLE_BQ) buf[n++] = 113; // 'q'
    if (!(castling & (CASTLE_WK | CASTLE_WQ | CASTLE_BK | CASTLE_BQ))) buf[n++] = 45; // '-'
    buf[n++] = 32;
    if (this.epCaptureIsLegal()) {
      buf[n++] = 97 + (this.ep & 7); // file
      buf[n++] = 49 + (this.ep >> 3); // rank
    } else buf[n++] = 45;
    buf[n++] = 32;
    n = writeDigits(buf, n, this.halfmove);
    buf[n++] = 32;
    n = writeDigits(buf, n, this.fullmove);
    const bytes = FEN_VIEWS[n];
    return FEN_DECODER ? FEN_DECODER.decode(bytes) : String.fromCharCode.apply(null, bytes as unknown as number[]);
  }

}
