/**
 * The text of a FEN: the letters of the pieces, both ways (Position.toFen writes with them), and
 * reading a FEN's fields, its piece placement and its counters. These read character codes rather
 * than making a string per character or per rank: a server keeps each game's position as a FEN
 * and loads it for every move it relays. Position.loadFen checks what the fields mean (kings,
 * castling rights, en passant, check).
 */
import { FenError } from './fen-error';
import { BLACK, PIECE_CHARS, WHITE } from './types';

const SPACE = 32;
const SLASH = 47;
const DIGIT_0 = 48;

/** The FEN letter (as a char code) of each board code (colour << 3 | type), 0 for an empty square. */
export const LETTER_OF_PIECE = new Uint16Array(16);
for (let t = 1; t < PIECE_CHARS.length; t++) {
  LETTER_OF_PIECE[(WHITE << 3) | t] = PIECE_CHARS.toUpperCase().charCodeAt(t);
  LETTER_OF_PIECE[(BLACK << 3) | t] = PIECE_CHARS.charCodeAt(t);
}
/** The board code of each ASCII piece letter (LETTER_OF_PIECE read backwards), 0 for any other character. */
const PIECE_OF_LETTER = new Int8Array(128);
LETTER_OF_PIECE.forEach((letter, code) => {
  if (letter) PIECE_OF_LETTER[letter] = code;
});

/** A character that may be part of a run of whitespace other than one plain space (checked by the slow path). */
function mayBeOtherWhitespace(code: number): boolean {
  return code < SPACE || code === 160 || code >= 0x1680;
}

/**
 * The whitespace-separated fields of `fen`, as `fen.trim().split(/\s+/)` gives them (so `['']`
 * for an empty text). A FEN written with single spaces, as every FEN this product makes is, is
 * split without a regular expression.
 */
export function fenFields(fen: string): string[] {
  const n = fen.length;
  if (n === 0 || fen.charCodeAt(0) === SPACE || fen.charCodeAt(n - 1) === SPACE) return fen.trim().split(/\s+/);
  for (let i = 0; i < n; i++) {
    const c = fen.charCodeAt(i);
    if (mayBeOtherWhitespace(c) || (c === SPACE && fen.charCodeAt(i + 1) === SPACE)) return fen.trim().split(/\s+/);
  }
  return fen.split(' ');
}

/** True when `s` is one or more ASCII digits. */
export function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_0 + 9) return false;
  }
  return true;
}

/** The character (a whole code point) at `i` of `s`, for an error message. */
function characterAt(s: string, i: number): string {
  return String.fromCodePoint(s.codePointAt(i) ?? 0);
}

/**
 * Writes the pieces of a FEN's placement field into `board` (64 squares, a1 = 0, all empty on
 * entry); throws FenError naming the first rank or letter at fault.
 */
export function readPlacement(placement: string, board: Int8Array): void {
  let ranks = 1;
  for (let i = 0; i < placement.length; i++) if (placement.charCodeAt(i) === SLASH) ranks++;
  if (ranks !== 8) throw new FenError(`Invalid FEN: piece placement must have 8 ranks separated by '/', got ${ranks}`);
  let rank = 7;
  let file = 0;
  let rankStart = 0;
  for (let i = 0; i <= placement.length; i++) {
    const c = i < placement.length ? placement.charCodeAt(i) : SLASH;
    if (c === SLASH) {
      if (file !== 8) throw new FenError(`Invalid FEN: rank ${rank + 1} ('${placement.slice(rankStart, i)}') does not describe exactly 8 squares`);
      rank--;
      file = 0;
      rankStart = i + 1;
      continue;
    }
    // a rank that already describes more than 8 squares is refused as such when it ends
    if (file > 8) continue;
    if (c > DIGIT_0 && c <= DIGIT_0 + 8) {
      file += c - DIGIT_0;
      continue;
    }
    const code = c < 128 ? PIECE_OF_LETTER[c] : 0;
    if (code === 0) throw new FenError(`Invalid FEN: bad piece letter '${characterAt(placement, i)}' in rank ${rank + 1}`);
    if (file < 8) board[rank * 8 + file] = code;
    file++;
  }
}
