/**
 * Pure helpers shared with the client for showing clocks and results.
 * No XState, no chess core: the client may import this file alone.
 */
import type { ClocksMs, Color, GameEndReason, Timers, Winner } from '../protocol/messages';

/**
 * Remaining time as mm:ss (docs/product.md). Seconds are rounded up, so
 * "00:00" appears only when the time is really gone; minutes are not capped at 59.
 * Negative or non-finite input shows "00:00".
 */
export function formatClock(ms: number): string {
  const totalSeconds = timerSeconds(ms);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** A clock's milliseconds as the whole seconds the clocks show: rounded up; 0 when gone, negative or not finite. */
export function timerSeconds(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** Millisecond clocks to the whole seconds the protocol's `timers` field carries (rounded up, as formatClock). */
export function toTimers(clocks: ClocksMs): Timers {
  return { white: timerSeconds(clocks.white), black: timerSeconds(clocks.black) };
}

/** docs/product.md, "End reasons as shown". */
export const REASON_LABELS: Readonly<Record<string, string>> = {
  checkmate: 'Checkmate',
  timeout: 'Time Out',
  resignation: 'Resignation',
  agreement: 'Draw by Agreement',
  stalemate: 'Stalemate',
  'threefold repetition': 'Threefold Repetition',
  'insufficient material': 'Insufficient Material',
  disconnection: 'Opponent Disconnected',
  technical_draw: 'Technical Draw (AI Error)',
};

/** The label for a reason; any other reason is shown as given (multiplayer dialog). */
export function reasonLabel(reason: GameEndReason | string): string {
  return Object.prototype.hasOwnProperty.call(REASON_LABELS, reason) ? REASON_LABELS[reason] : reason;
}

const PGN_RESULT = { white: '1-0', black: '0-1', draw: '1/2-1/2' } as const;

/** A result as a PGN `Result` tag writes it. */
export function pgnResultTag(winner: Winner): (typeof PGN_RESULT)[Winner] {
  return PGN_RESULT[winner];
}

/** A result as a score shown to people (lichess: 1-0, 0-1, ½-½). */
export function resultScore(winner: Winner): '1-0' | '0-1' | '½-½' {
  return winner === 'draw' ? '½-½' : PGN_RESULT[winner];
}

export type Outcome = 'win' | 'loss' | 'draw';

/** docs/product.md: "the outcome is computed for the local player (win, loss or draw)". */
export function outcomeFor(color: Color, winner: Winner): Outcome {
  if (winner === 'draw') return 'draw';
  return winner === color ? 'win' : 'loss';
}

export function opposite(color: Color): Color {
  return color === 'white' ? 'black' : 'white';
}
