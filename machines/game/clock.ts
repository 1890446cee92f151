/**
 * Clock arithmetic of the game core, as pure functions of a state and a time. All times are
 * milliseconds in the host's time base (the `now` a step is given).
 */
import { UNTIMED_PLIES } from './defaults';
import type { ClocksMs, Color, GameState, LagSettings } from './types';

/**
 * Both clocks at `nowMs` when `running`'s clock has been running down since `since` (the
 * running one counted down, never below 0). The one clock formula, for the game's own clocks
 * and for a client's display of the clocks it was last sent.
 */
export function runningClocks(clocks: ClocksMs, running: Color | null, since: number, nowMs: number): ClocksMs {
  if (running === null) return clocks;
  const left = Math.max(0, clocks[running] - Math.max(0, nowMs - since));
  return running === 'white' ? { white: left, black: clocks.black } : { white: clocks.white, black: left };
}

/** Whether the side to move has a running clock: from ply 2 on (lichess), while undecided. */
export function clockRunning(state: GameState): boolean {
  return state.result === null && state.moves.length >= UNTIMED_PLIES;
}

/** Time the side to move has spent on this turn so far. */
export function elapsedThisTurn(state: GameState, nowMs: number): number {
  return Math.max(0, nowMs - state.turnStartedAt);
}

/** Both clocks as they stand at `nowMs` (the running one counted down, never below 0). */
export function clocksAt(state: GameState, nowMs: number): ClocksMs {
  return runningClocks(state.clocks, clockRunning(state) ? state.turn : null, state.turnStartedAt, nowMs);
}

/**
 * How long a side's clock may stay at zero before its flag falls: a move already in flight
 * can only be saved by lag credit, so the grace is what that credit could be — at most the
 * per-move cap and the side's bank — and never more than maxFlagGraceMs (2 s).
 */
export function flagGraceMs(state: GameState, color: Color): number {
  return Math.max(0, Math.min(state.settings.maxFlagGraceMs, state.settings.lag.perMoveCapMs, state.lagBank[color]));
}

/** Remaining time (can be negative) of the side to move at nowMs, grace not included. */
function moverRemaining(state: GameState, nowMs: number): number {
  return state.clocks[state.turn] - elapsedThisTurn(state, nowMs);
}

/** True when the side to move has run out of time including its flag grace. */
export function moverFlagged(state: GameState, nowMs: number): boolean {
  return clockRunning(state) && moverRemaining(state, nowMs) + flagGraceMs(state, state.turn) <= 0;
}

/**
 * The time at which a deadline of the game falls due: before the clocks run, the first-move
 * deadline; then the flag of the side to move (its clock plus flag grace) or the end of a
 * counting disconnect grace, whichever is first. Infinity once the game is decided. A host
 * sends `WAKE` at or after this time; nothing else in a game happens without a command.
 */
export function wakeAt(state: GameState): number {
  if (state.result !== null) return Number.POSITIVE_INFINITY;
  if (state.moves.length < UNTIMED_PLIES) return state.turnStartedAt + state.settings.firstMoveDeadlineMs;
  const flagAt = state.turnStartedAt + state.clocks[state.turn] + flagGraceMs(state, state.turn);
  const g = state.graceCount;
  const graceEndsAt = g ? g.since + state.settings.graceMs[g.color] - state.graceUsed[g.color] : Number.POSITIVE_INFINITY;
  return Math.min(flagAt, graceEndsAt);
}

/**
 * Lag credit for one move (lichess LagTracker, simplified): the credit is the measured lag,
 * capped per move, by the bank and by the time actually spent; the bank pays it and then gets
 * the per-move refill back, never growing above its cap.
 */
export function creditLag(
  bank: number,
  lagMs: number | undefined,
  lag: Required<LagSettings>,
  elapsedMs: number,
): { creditMs: number; bankMs: number } {
  const measured = typeof lagMs === 'number' && Number.isFinite(lagMs) && lagMs > 0 ? lagMs : 0;
  const creditMs = Math.max(0, Math.min(measured, lag.perMoveCapMs, bank, elapsedMs));
  const bankMs = Math.min(lag.bankCapMs, bank - creditMs + lag.refillPerMoveMs);
  return { creditMs, bankMs };
}

/** `clocks` with the Fischer increment added to `mover`'s clock. */
export function withIncrement(clocks: ClocksMs, mover: Color, incrementMs: number): ClocksMs {
  if (incrementMs === 0) return clocks;
  return mover === 'white' ? { white: clocks.white + incrementMs, black: clocks.black } : { white: clocks.white, black: clocks.black + incrementMs };
}
