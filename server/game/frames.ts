/**
 * The two frames a live game sends most: `gameMove` after every move and `timerUpdate` every
 * second of a running clock, each to both players. They are written out by hand, byte for byte
 * what `JSON.stringify` gives for the same message (tests/server/frames.test.ts), and encoded
 * into one reused buffer that both sends read from: uWS copies a frame when it is sent, so
 * nothing is allocated for the bytes. On a busy server these two frames are nearly everything
 * it writes, and serialising a nested object then encoding it cost about as much as the
 * chess work of the move.
 *
 * Every string written here is ASCII by construction: game ids are base64url, squares,
 * colours, SAN and FEN use no character JSON escapes. A value that is not (an unexpected
 * string, a clock that is not a finite number) sends the frame through JSON.stringify instead.
 */
import type { ClocksMs, GameMoveMsg, TimerUpdateMsg } from '../../machines/protocol/messages';
import { toTimers } from './machines';

const SCRATCH = Buffer.allocUnsafe(4096);

/** Characters JSON writes as they are: printable ASCII other than `"` and `\`. */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

const finite = (n: number) => Number.isFinite(n);

/**
 * The frame's bytes, valid until the next call: `text` encoded into the scratch buffer (ASCII:
 * one byte per character), or a buffer of its own when it is longer than the scratch.
 */
function encode(text: string): Uint8Array {
  if (text.length > SCRATCH.length) return Buffer.from(text, 'latin1');
  const n = SCRATCH.write(text, 0, 'latin1');
  return SCRATCH.subarray(0, n);
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
  if (
    !(finite(white) && finite(black) && Number.isInteger(seq)) ||
    !(plain(gameId) && plain(move.from) && plain(move.to) && plain(san) && plain(fen)) ||
    (move.promotion !== undefined && !plain(move.promotion)) ||
    move.piece !== undefined
  ) {
    return encodeJson({ type: 'gameMove', gameId, move, nextTurn, san, fen, clocks: { white, black }, seq });
  }
  const promotion = move.promotion === undefined ? '' : '","promotion":"' + move.promotion;
  return encode(
    '{"type":"gameMove","gameId":"' + gameId +
      '","move":{"from":"' + move.from + '","to":"' + move.to + promotion +
      '"},"nextTurn":"' + nextTurn + '","san":"' + san + '","fen":"' + fen +
      '","clocks":{"white":' + white + ',"black":' + black + '},"seq":' + seq + '}',
  );
}

/** The timerUpdate frame (SPEC's whole seconds, and the milliseconds), valid until the next frame is written. */
export function timerUpdateFrame(gameId: string, clocks: ClocksMs): Uint8Array {
  const timers = toTimers(clocks);
  const white = ms(clocks.white);
  const black = ms(clocks.black);
  if (!(finite(white) && finite(black) && plain(gameId))) {
    return encodeJson({ type: 'timerUpdate', gameId, timers, clocks: { white, black } } satisfies TimerUpdateMsg);
  }
  return encode(
    '{"type":"timerUpdate","gameId":"' + gameId +
      '","timers":{"white":' + timers.white + ',"black":' + timers.black +
      '},"clocks":{"white":' + white + ',"black":' + black + '}}',
  );
}

/** Any other message, through JSON (its own buffer: UTF-8, any characters). */
export function encodeJson(msg: object): Uint8Array {
  return Buffer.from(JSON.stringify(msg));
}
