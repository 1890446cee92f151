/**
 * ChessGame: the small API the rest of the product uses (server validation, client board,
 * AI games, tests). Wraps the low-level Position with a move history, repetition counting,
 * SAN/UCI/PGN and game status.
 */
import { hasMatingMaterial, insufficientMaterial } from './material';
import { MAX_MOVES, findLegalMove, generateLegal, hasLegalMove } from './movegen';
import { buildPgn } from './pgn';
import { Position, START_FEN } from './position';
import { checkSuffix, moveToSan, parseSan, sanBody } from './san';
import { SQUARE_NAMES, parseSquare } from './squares';
import {
  BLACK, FLAG_CASTLE, FLAG_DOUBLE, FLAG_EP, FLAG_PROMO_N, FLAG_PROMO_Q, PAWN, PIECE_CHARS, WHITE,
} from './types';
import { moveToUci, parseUci } from './uci';

export type PieceType = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
export type ColorName = 'white' | 'black';
export type Promotion = 'q' | 'r' | 'b' | 'n';
export interface MoveInput {
  from: string;
  to: string;
  promotion?: Promotion;
}
export interface PlayedMove {
  uci: string;
  san: string;
  from: string;
  to: string;
  promotion?: Promotion;
  piece: PieceType;
  color: ColorName;
  captured?: PieceType;
  /** Subset of 'n' normal, 'c' capture, 'b' double push, 'e' en passant, 'k' O-O, 'q' O-O-O, 'p' promotion. */
  flags: string;
  fenAfter: string;
}
export type EndReason =
  | 'checkmate' | 'stalemate' | 'insufficient material' | 'fifty-move rule'
  | 'threefold repetition' | 'fivefold repetition';
export interface GameStatus {
  turn: ColorName;
  inCheck: boolean;
  checkmate: boolean;
  stalemate: boolean;
  insufficientMaterial: boolean;
  /** Halfmove clock >= 100. */
  fiftyMove: boolean;
  /** Occurrences of the current position in the game (including now). */
  repetitionCount: number;
  threefold: boolean;
  fivefold: boolean;
  /** Any of: checkmate, stalemate, insufficient material, fifty-move, threefold. */
  over: boolean;
  winner?: ColorName | 'draw';
  reason?: EndReason;
}
/** A finished game's result: status().winner and status().reason together. */
export interface GameOutcome {
  winner: ColorName | 'draw';
  reason: EndReason;
}
export interface BoardPiece {
  type: PieceType;
  color: 'w' | 'b';
}

const COLOR_NAMES: readonly ColorName[] = ['white', 'black'];

/** Why the game is over, or undefined: mate and stalemate before the draws by rule (FIDE: a mate on the fiftieth move stands). */
function endReason(checkmate: boolean, stalemate: boolean, insufficient: boolean, repetitions: number, fiftyMove: boolean): EndReason | undefined {
  if (checkmate) return 'checkmate';
  if (stalemate) return 'stalemate';
  if (insufficient) return 'insufficient material';
  if (repetitions >= 5) return 'fivefold repetition';
  if (repetitions >= 3) return 'threefold repetition';
  if (fiftyMove) return 'fifty-move rule';
  return undefined;
}
const TYPES: readonly PieceType[] = ['p', 'n', 'b', 'r', 'q', 'k'];

export class ChessGame {
  private pos: Position;
  /**
   * The FEN the game started from as it was given, and its normalised form (what fen() would
   * have said then) once asked for: a server loads a position for every move it relays and
   * almost never needs the start again.
   */
  private startFenGiven: string;
  private startFenNormal: string | null;
  /**
   * The moves played, as move codes: with the start FEN, the whole game. Their descriptions
   * (PlayedMove: SAN, FEN after, ...) are not kept; history() and pgn() rebuild them when asked.
   * A server holds thousands of games, and a description per ply, about 250 bytes with its
   * strings, was most of a live game's memory and of what survived each young-generation GC.
   */
  private readonly codes: number[] = [];
  /** Hash halves of every position so far, the current one last. */
  private readonly hashLo: number[] = [];
  private readonly hashHi: number[] = [];
  /** Legal moves of the current position, computed on demand. */
  private readonly moves = new Int32Array(MAX_MOVES);
  private moveCount = -1;
  /** whether the side to move is in check, when already known for this position (1 or 0), else -1 */
  private checkKnown = -1;

  /** Default START_FEN; throws FenError (see fen-error.ts) for a bad FEN. */
  constructor(fen: string = START_FEN) {
    this.pos = Position.fromFen(fen);
    this.startFenGiven = fen;
    this.startFenNormal = this.pos.toFen();
    this.hashLo.push(this.pos.hashLo);
    this.hashHi.push(this.pos.hashHi);
  }

  /**
   * Starts again from `fen` with an empty history, reusing this object's buffers (throws
   * FenError for a bad FEN, and then changes nothing). For a caller that keeps only the FEN
   * between moves and plays one move at a time on a scratch game.
   */
  load(fen: string): this {
    this.pos.loadFen(fen);
    this.startFenGiven = fen;
    this.startFenNormal = null;
    this.codes.length = 0;
    this.hashLo.length = 0;
    this.hashHi.length = 0;
    this.hashLo.push(this.pos.hashLo);
    this.hashHi.push(this.pos.hashHi);
    this.moveCount = -1;
    this.checkKnown = -1;
    return this;
  }

  private legal(): number {
    if (this.moveCount < 0) this.moveCount = generateLegal(this.pos, this.moves, 0);
    return this.moveCount;
  }

  fen(): string {
    return this.pos.toFen();
  }

  turn(): ColorName {
    return COLOR_NAMES[this.pos.turn];
  }

  /** Legal moves as UCI strings; castling as the king's two-square move. */
  legalMoves(): string[] {
    const n = this.legal();
    const out: string[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = moveToUci(this.moves[i]);
    return out;
  }

  /** From-square -> destination squares (promotions appear once), for the board UI. */
  dests(): Map<string, string[]> {
    const n = this.legal();
    const map = new Map<string, string[]>();
    for (let i = 0; i < n; i++) {
      const m = this.moves[i];
      const flag = m >> 12;
      if (flag >= FLAG_PROMO_N && flag !== FLAG_PROMO_Q) continue;
      const from = SQUARE_NAMES[m & 63];
      const to = SQUARE_NAMES[(m >> 6) & 63];
      const list = map.get(from);
      if (list) list.push(to);
      else map.set(from, [to]);
    }
    return map;
  }

  /** The encoded legal move for the input, or -1. A pawn reaching the last rank without a promotion piece promotes to a queen. */
  private find(move: MoveInput | string): number {
    let from: number;
    let to: number;
    let promo: number;
    if (typeof move === 'string') {
      const p = parseUci(move);
      if (!p) return -1;
      ({ from, to, promo } = p);
    } else {
      if (move === null || typeof move !== 'object') return -1;
      from = parseSquare(move.from);
      to = parseSquare(move.to);
      if (from < 0 || to < 0) return -1;
      promo = 0;
      if (move.promotion !== undefined && move.promotion !== null) {
        promo = typeof move.promotion === 'string' && move.promotion.length === 1 ? 'pnbrq'.indexOf(move.promotion.toLowerCase()) + 1 : 0;
        if (promo < 2) return -1;
      }
    }
    // UCI strings are strict; an object's promotion field is ignored for a non-promotion move
    if (promo !== 0 && typeof move !== 'string') {
      const p = this.pos.board[from];
      if ((p & 7) !== PAWN || (to >> 3) !== ((p >> 3) === WHITE ? 7 : 0)) promo = 0;
    }
    return findLegalMove(this.pos, from, to, promo);
  }

  isLegal(move: MoveInput | string): boolean {
    return this.find(move) >= 0;
  }

  /** Plays a legal move; null (and nothing changes) when it is not legal. */
  play(move: MoveInput | string): PlayedMove | null {
    const m = this.find(move);
    return m < 0 ? null : this.apply(m);
  }

  /** Plays a move given in SAN; null when it is not a (unique) legal move. */
  playSan(san: string): PlayedMove | null {
    const n = this.legal();
    const m = parseSan(this.pos, san, this.moves, 0, n);
    return m < 0 ? null : this.apply(m);
  }

  /** SAN for a move in the current position, or null when illegal. */
  san(move: MoveInput | string): string | null {
    const m = this.find(move);
    return m < 0 ? null : moveToSan(this.pos, m);
  }

  private apply(m: number): PlayedMove {
    const played = this.make(m);
    this.codes.push(m);
    this.hashLo.push(this.pos.hashLo);
    this.hashHi.push(this.pos.hashHi);
    return played;
  }

  /** Makes move `m` on the position and describes it (the history is the caller's). */
  private make(m: number): PlayedMove {
    const pos = this.pos;
    let san = sanBody(pos, m);
    const from = m & 63;
    const to = (m >> 6) & 63;
    const flag = m >> 12;
    const piece = pos.board[from];
    const capturedCode = flag === FLAG_EP ? pos.board[to ^ 8] : pos.board[to];
    let flags = '';
    if (flag === FLAG_EP) flags = 'e';
    else if (flag === FLAG_CASTLE) flags = to > from ? 'k' : 'q';
    else if (flag === FLAG_DOUBLE) flags = 'b';
    else flags = capturedCode ? 'c' : 'n';
    if (flag >= FLAG_PROMO_N) flags += 'p';
    pos.make(m);
    this.moveCount = -1;
    // SAN's check suffix, from the position the move makes (status() reuses what it learns)
    const check = pos.inCheck();
    this.checkKnown = check ? 1 : 0;
    if (check) {
      const canMove = hasLegalMove(pos);
      if (!canMove) this.moveCount = 0;
      san += checkSuffix(canMove);
    }
    const played: PlayedMove = {
      uci: moveToUci(m),
      san,
      from: SQUARE_NAMES[from],
      to: SQUARE_NAMES[to],
      piece: TYPES[(piece & 7) - 1],
      color: COLOR_NAMES[piece >> 3],
      flags,
      fenAfter: pos.toFen(),
    };
    if (flag >= FLAG_PROMO_N) played.promotion = PIECE_CHARS[flag - 2] as Promotion;
    if (capturedCode) played.captured = TYPES[(capturedCode & 7) - 1];
    return played;
  }

  /** Takes back the last move; null when there is none. */
  undo(): PlayedMove | null {
    const m = this.codes.pop();
    if (m === undefined) return null;
    this.pos.unmake(m);
    this.hashLo.pop();
    this.hashHi.pop();
    // described as play() described it: made once more and taken back
    const played = this.make(m);
    this.pos.unmake(m);
    this.moveCount = -1;
    this.checkKnown = -1;
    return played;
  }

  /** How often the current position has occurred in this game (same pieces, side, castling, en passant). */
  repetitionCount(): number {
    const lo = this.pos.hashLo;
    const hi = this.pos.hashHi;
    // positions before the last capture or pawn move cannot recur: look back halfmove-clock plies
    const last = this.hashLo.length - 1;
    const first = Math.max(0, last - this.pos.halfmove);
    let c = 0;
    for (let i = last; i >= first; i -= 2) if (this.hashLo[i] === lo && this.hashHi[i] === hi) c++;
    return c;
  }

  status(): GameStatus {
    const pos = this.pos;
    const inCheck = this.inCheckNow();
    const noMoves = this.noMovesNow();
    const checkmate = inCheck && noMoves;
    const stalemate = !inCheck && noMoves;
    const insufficient = insufficientMaterial(pos);
    const fiftyMove = pos.halfmove >= 100;
    const repetitionCount = this.repetitionCount();
    const threefold = repetitionCount >= 3;
    const fivefold = repetitionCount >= 5;
    const status: GameStatus = {
      turn: COLOR_NAMES[pos.turn],
      inCheck,
      checkmate,
      stalemate,
      insufficientMaterial: insufficient,
      fiftyMove,
      repetitionCount,
      threefold,
      fivefold,
      over: checkmate || stalemate || insufficient || fiftyMove || threefold,
    };
    const reason = endReason(checkmate, stalemate, insufficient, repetitionCount, fiftyMove);
    if (reason) {
      status.reason = reason;
      status.winner = checkmate ? COLOR_NAMES[pos.turn ^ 1] : 'draw';
    }
    return status;
  }

  /**
   * How the game has ended, or null while it goes on: status()'s winner and reason, without
   * making the whole status (the server asks after every move, and almost every answer is null).
   * `repetitions` is how often the current position has occurred, when the caller counts them
   * itself (a game kept as a FEN and a list of earlier positions); default repetitionCount().
   */
  outcome(repetitions?: number): GameOutcome | null {
    const pos = this.pos;
    if (this.noMovesNow()) {
      return this.inCheckNow() ? { winner: COLOR_NAMES[pos.turn ^ 1], reason: 'checkmate' } : { winner: 'draw', reason: 'stalemate' };
    }
    const reason = endReason(false, false, insufficientMaterial(pos), repetitions ?? this.repetitionCount(), pos.halfmove >= 100);
    return reason ? { winner: 'draw', reason } : null;
  }

  /** Whether the side to move is in check (known from the last move when it can be). */
  private inCheckNow(): boolean {
    return this.checkKnown >= 0 ? this.checkKnown === 1 : this.pos.inCheck();
  }

  /** Whether the side to move has no legal move: a list already made is used, else the search stops at the first legal move. */
  private noMovesNow(): boolean {
    return this.moveCount >= 0 ? this.moveCount === 0 : !hasLegalMove(this.pos);
  }

  /** The start position's FEN, normalised as fen() writes it. */
  private get startFen(): string {
    return (this.startFenNormal ??= Position.fromFen(this.startFenGiven).toFen());
  }

  /** The moves played so far, each as play() described it: rebuilt by replaying the game (plies() is the count). */
  history(): PlayedMove[] {
    const replay = new ChessGame(this.startFen);
    return this.codes.map((m) => replay.apply(m));
  }

  /** How many plies have been played. */
  plies(): number {
    return this.codes.length;
  }

  pieceAt(square: string): BoardPiece | null {
    const sq = parseSquare(square);
    if (sq < 0) return null;
    const pc = this.pos.board[sq];
    return pc ? { type: TYPES[(pc & 7) - 1], color: pc & 8 ? 'b' : 'w' } : null;
  }

  /** 8x8 array, [0] = rank 8, [0][0] = a8. */
  board(): (BoardPiece | null)[][] {
    const rows: (BoardPiece | null)[][] = [];
    for (let rank = 7; rank >= 0; rank--) {
      const row: (BoardPiece | null)[] = [];
      for (let file = 0; file < 8; file++) {
        const pc = this.pos.board[rank * 8 + file];
        row.push(pc ? { type: TYPES[(pc & 7) - 1], color: pc & 8 ? 'b' : 'w' } : null);
      }
      rows.push(row);
    }
    return rows;
  }

  checkedKingSquare(): string | null {
    return this.pos.inCheck() ? SQUARE_NAMES[this.pos.kingSq[this.pos.turn]] : null;
  }

  /** False for a lone king, or king with a single knight or bishop and nothing else. */
  hasMatingMaterial(color: ColorName): boolean {
    return hasMatingMaterial(this.pos, color === 'white' ? WHITE : BLACK);
  }

  /** PGN with the seven standard tags (defaults '?'), SetUp/FEN for a non-standard start, moves and result. */
  pgn(tags?: Record<string, string>): string {
    const st = this.status();
    let result = '*';
    if (st.checkmate) result = st.winner === 'white' ? '1-0' : '0-1';
    else if (st.over) result = '1/2-1/2';
    const replay = Position.fromFen(this.startFen);
    const firstMoveNumber = replay.fullmove;
    const blackFirst = replay.turn === BLACK;
    const sans = this.codes.map((m) => {
      const san = moveToSan(replay, m);
      replay.make(m);
      return san;
    });
    return buildPgn({
      sans,
      startFen: this.startFen,
      standardStart: this.startFen === START_FEN,
      firstMoveNumber,
      blackFirst,
      result,
      tags,
    });
  }

  clone(): ChessGame {
    const g = new ChessGame(this.startFen);
    for (const m of this.codes) g.apply(m);
    return g;
  }

  /** Low-level position (read-only use: AI and benchmarks). */
  position(): Position {
    return this.pos;
  }
}

