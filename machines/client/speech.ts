/**
 * What a screen reader says of a game (lichess's blind mode is the model): a move in SAN read
 * as words ("Nxe5+" is "knight takes e5, check"), the opponent's move as the game screen
 * announces it, and a clock as spoken time. Pure: the game screens put these texts in their
 * live region and labels.
 */
import type { Color } from '../protocol/messages';
import { TENTHS_BELOW_MS } from './clockText';

const PIECE_NAMES: Readonly<Record<string, string>> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

const SAN = /^([KQRBN])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=([QRBN]))?/;

/** A move in SAN as words: "e4", "knight f3", "e takes d5", "short castling", "e8 promotes to queen, check". */
export function spokenSan(san: string): string {
  const suffix = san.endsWith('#') ? ', checkmate' : san.endsWith('+') ? ', check' : '';
  const bare = san.replace(/[+#!?]+$/, '');
  if (bare === 'O-O-O') return `long castling${suffix}`;
  if (bare === 'O-O') return `short castling${suffix}`;
  const m = SAN.exec(bare);
  if (!m) return san;
  const [, piece, file, rank, takes, to, promotion] = m;
  const words = [piece ? PIECE_NAMES[piece] : '', file ?? '', rank ?? '', takes ? 'takes' : '', to, promotion ? `promotes to ${PIECE_NAMES[promotion]}` : '']
    .filter((w) => w !== '');
  return `${words.join(' ')}${suffix}`;
}

const SIDE = { white: 'White', black: 'Black' } as const;

/** The announcement of a move: "Black: knight f6." */
export function moveAnnouncement(by: Color, san: string): string {
  return `${SIDE[by]}: ${spokenSan(san)}.`;
}

/** Said once when the player's own clock drops under ten seconds. */
export const LOW_TIME_ANNOUNCEMENT = 'Less than ten seconds left on your clock.';

/** A clock as spoken time: "9 minutes 58 seconds", "45 seconds", "7.5 seconds" under ten seconds. */
export function spokenClock(ms: number): string {
  const left = Math.max(0, ms);
  if (left < TENTHS_BELOW_MS) return `${(Math.floor(left / 100) / 10).toFixed(1)} seconds`;
  const total = Math.ceil(left / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const parts = [minutes ? `${minutes} minute${minutes === 1 ? '' : 's'}` : '', seconds ? `${seconds} second${seconds === 1 ? '' : 's'}` : ''];
  return parts.filter((p) => p !== '').join(' ');
}

/** A clock's accessible name: "White clock: 9 minutes 58 seconds". */
export function clockLabel(color: Color, ms: number): string {
  return `${SIDE[color]} clock: ${spokenClock(ms)}`;
}
