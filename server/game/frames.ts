/**
 * The two frames a live game sends most: `gameMove` after every move and `timerUpdate` during a
 * long think, each to both players. They are written byte by byte into one
 * reused buffer that both sends read from, exactly the bytes `JSON.stringify` gives for the same
 * message (tests/server/frames.test.ts): no message object is serialised, no string is built
 * and encoded, and uWS copies a frame when it is sent, so nothing is allocated for it. On a busy
 * server these two frames are nearly everything it writes; building them as strings made a
 * kilobyte of garbage per move.
 *
 * Every string written here is ASCII by construction: game ids are base64url, squares,
 * colours, SAN and FEN use no character JSON escapes. A value that is not (an unexpected
 * string, a clock that is not a finite number) sends the frame through JSON.stringify instead.
 */
import type { ClocksMs, GameMoveMsg, TimerUpdateMsg } from '../../machines/protocol/messages';
import { timerSeconds } from '../../machines/game';
import { asciiBytes } from '../ascii';

const SCRATCH = new Uint8Array(4096);
/**
 * Room kept free after each string, for the literals and numbers that may follow it: the longest
 * tail is a timerUpdate's after its game id, four numbers (at most 17 characters each) and 60
 * bytes of keys.
 */
const TAIL_ROOM = 160;
/** SCRATCH's first n bytes, one view per length, made when first needed (a frame allocates none). */
const VIEWS: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(SCRATCH.length + 1).fill(undefined);
/** What the writers below return instead of the next index when a value cannot be written as it is. */
const FAILED = -1;

const MOVE_HEAD = asciiBytes('{"type":"gameMove","gameId":"');
const MOVE_FROM = asciiBytes('","move":{"from":"');
const MOVE_TO = asciiBytes('","to":"');
const MOVE_PROMOTION = asciiBytes('","promotion":"');
const MOVE_NEXT_TURN = asciiBytes('"},"nextTurn":"');
const MOVE_SAN = asciiBytes('","san":"');
const MOVE_FEN = asciiBytes('","fen":"');
const CLOCKS_WHITE = asciiBytes('","clocks":{"white":');
const CLOCKS_BLACK = asciiBytes(',"black":');
const MOVE_SEQ = asciiBytes('},"seq":');
const TIMER_HEAD = asciiBytes('{"type":"timerUpdate","gameId":"');
const TIMERS_WHITE = asciiBytes('","timers":{"white":');
const TIMER_CLOCKS_WHITE = asciiBytes('},"clocks":{"white":');
const CLOSE = asciiBytes('}');
const CLOSE2 = asciiBytes('}}');

// Each writer puts its bytes at SCRATCH[n..] and returns the index after them, or FAILED (and
// every writer passes FAILED on), so a frame is one chain of calls with one check at the end.

function put(bytes: Uint8Array, n: number): number {
  if (n === FAILED) return FAILED;
  for (let i = 0; i < bytes.length; i++) SCRATCH[n++] = bytes[i];
  return n;
}

/**
 * `s` as JSON writes it between quotes, if it can be written as it is: printable ASCII other
 * than `"` and `\`, and room left. Otherwise the frame must go through JSON instead.
 */
function putPlain(s: string, n: number): number {
  if (n === FAILED || n + s.length > SCRATCH.length - TAIL_ROOM) return FAILED;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return FAILED;
    SCRATCH[n++] = c;
  }
  return n;
}

/** An integer as JSON writes it (-0 as 0); anything but a safe integer fails. */
function putInt(v: number, n: number): number {
  if (n === FAILED || !Number.isSafeInteger(v)) return FAILED;
  if (v < 0) {
    SCRATCH[n++] = 45; // '-'
    v = -v;
  }
  const start = n;
  do {
    SCRATCH[n++] = 48 + (v % 10);
    v = Math.floor(v / 10);
  } while (v > 0);
  for (let i = start, j = n - 1; i < j; i++, j--) {
    const c = SCRATCH[i];
    SCRATCH[i] = SCRATCH[j];
    SCRATCH[j] = c;
  }
  return n;
}

/** The frame of n bytes just written: a view of SCRATCH, valid until the next frame is written. */
function written(n: number): Uint8Array {
  return (VIEWS[n] ??= SCRATCH.subarray(0, n));
}

/** Clocks on the wire in whole milliseconds (shorter frames, and integers print faster than fractions). */
const ms = (v: number) => Math.round(v);

/**
 * The gameMove frame, valid until the next frame is written:
 * {"type":"gameMove","gameId","move":{from,to[,promotion]},"nextTurn","san","fen","clocks":{white,black},"seq"}
 */
export function gameMoveFrame(msg: Required<Omit<GameMoveMsg, 'move'>> & Pick<GameMoveMsg, 'move'>): Uint8Array {
  const { gameId, move, nextTurn, san, fen, clocks, seq } = msg;
  const white = ms(clocks.white);
  const black = ms(clocks.black);
  // one key and its value a line; a failed write passes FAILED on to the end
  let n = putPlain(gameId, put(MOVE_HEAD, 0));
  n = putPlain(move.from, put(MOVE_FROM, n));
  n = putPlain(move.to, put(MOVE_TO, n));
  if (move.promotion !== undefined) n = putPlain(move.promotion, put(MOVE_PROMOTION, n));
  if (move.piece !== undefined) n = FAILED;
  n = putPlain(nextTurn, put(MOVE_NEXT_TURN, n));
  n = putPlain(san, put(MOVE_SAN, n));
  n = putPlain(fen, put(MOVE_FEN, n));
  n = putInt(white, put(CLOCKS_WHITE, n));
  n = putInt(black, put(CLOCKS_BLACK, n));
  n = putInt(seq, put(MOVE_SEQ, n));
  if (n === FAILED) return encodeJson({ type: 'gameMove', gameId, move, nextTurn, san, fen, clocks: { white, black }, seq });
  return written(put(CLOSE, n));
}

/** The timerUpdate frame (whole seconds, and the milliseconds), valid until the next frame is written. */
export function timerUpdateFrame(gameId: string, clocks: ClocksMs): Uint8Array {
  const white = ms(clocks.white);
  const black = ms(clocks.black);
  const wholeWhite = timerSeconds(clocks.white);
  const wholeBlack = timerSeconds(clocks.black);
  let n = putPlain(gameId, put(TIMER_HEAD, 0));
  n = putInt(wholeWhite, put(TIMERS_WHITE, n));
  n = putInt(wholeBlack, put(CLOCKS_BLACK, n));
  n = putInt(white, put(TIMER_CLOCKS_WHITE, n));
  n = putInt(black, put(CLOCKS_BLACK, n));
  if (n === FAILED) {
    const timers = { white: wholeWhite, black: wholeBlack };
    return encodeJson({ type: 'timerUpdate', gameId, timers, clocks: { white, black } } satisfies TimerUpdateMsg);
  }
  return written(put(CLOSE2, n));
}

/** Any other message, through JSON (its own buffer: UTF-8, any characters). */
export function encodeJson(msg: object): Uint8Array {
  return Buffer.from(JSON.stringify(msg));
}
