/**
 * The gameMove frame as clients write it, read straight from the received bytes:
 *
 *   {"type":"gameMove","payload":{"gameId":"…","move":{"from":"e2","to":"e4"[,"piece":"p"][,"promotion":"q"]}}}
 *
 * This is what `JSON.stringify` gives for our browser client's, the load driver's and the k6
 * scripts' moves: a move is most of what a server receives, and JSON.parse plus building the
 * object cost more than the rest of the message handling. Only that exact text is read here
 * (keys in that order, no spaces, a game id of [A-Za-z0-9_-], a piece of ASCII letters); any
 * other frame, valid or not, returns null and goes through JSON.parse and the schemas, so the
 * answer is always the one `parseClientMessage` gives (tests/server/moveFrame.test.ts).
 */
import { SQUARE_NAMES } from '../../machines/chess/squares';
import type { ParsedMessage } from '../../machines/protocol/messages';
import { asciiBytes } from '../ascii';

const HEAD = asciiBytes('{"type":"gameMove","payload":{"gameId":"');
const FROM = asciiBytes('","move":{"from":"');
const TO = asciiBytes('","to":"');
const PIECE = asciiBytes('","piece":"');
const PROMOTION = asciiBytes('","promotion":"');
const TAIL = asciiBytes('"}}}');
const PROMOTIONS: Record<number, 'q' | 'r' | 'b' | 'n'> = { 113: 'q', 114: 'r', 98: 'b', 110: 'n' };
const QUOTE = 34;

type MoveMessage = Extract<ParsedMessage, { type: 'gameMove' }>;

function at(b: Uint8Array, i: number, lit: Uint8Array): boolean {
  if (i + lit.length > b.length) return false;
  for (let k = 0; k < lit.length; k++) if (b[i + k] !== lit[k]) return false;
  return true;
}

/** The square at b[i..i+2), or -1. */
function square(b: Uint8Array, i: number): number {
  const f = b[i] - 97;
  const r = b[i + 1] - 49;
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? (r << 3) | f : -1;
}

const isIdByte = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/** b[from..to) as a string (its bytes are ASCII: checked by the caller), made in one native step. */
function ascii(b: Buffer, from: number, to: number): string {
  return b.toString('latin1', from, to);
}

/** The gameMove message in `frame` if it is written exactly as above, else null. */
export function readMoveFrame(frame: ArrayBuffer): MoveMessage | null {
  const b = Buffer.from(frame);
  if (!at(b, 0, HEAD)) return null;
  let i = HEAD.length;
  const idStart = i;
  while (i < b.length && i - idStart <= 64 && isIdByte(b[i])) i++;
  const idLength = i - idStart;
  if (idLength < 1 || idLength > 64 || !at(b, i, FROM)) return null;
  i += FROM.length;
  const from = square(b, i);
  if (from < 0 || !at(b, i + 2, TO)) return null;
  i += 2 + TO.length;
  const to = square(b, i);
  if (to < 0) return null;
  i += 2;
  const move: MoveMessage['payload']['move'] = { from: SQUARE_NAMES[from], to: SQUARE_NAMES[to] };
  if (at(b, i, PIECE)) {
    i += PIECE.length;
    const start = i;
    while (i < b.length && i - start <= 8 && isLetter(b[i])) i++;
    if (i - start > 8 || b[i] !== QUOTE) return null;
    move.piece = ascii(b, start, i);
  }
  if (at(b, i, PROMOTION)) {
    i += PROMOTION.length;
    const promotion = PROMOTIONS[b[i]];
    if (!promotion || b[i + 1] !== QUOTE) return null;
    move.promotion = promotion;
    i += 1;
  }
  if (i + TAIL.length !== b.length || !at(b, i, TAIL)) return null;
  return { type: 'gameMove', payload: { gameId: ascii(b, idStart, idStart + idLength), move } };
}
