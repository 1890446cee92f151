/**
 * Clock arithmetic of the game core, as pure functions of a state and a time. All times are
 * milliseconds in the host's time base (the `now` a step is given).
 */
import { ESTIMATED_CPU_LAG_MS, UNTIMED_PLIES } from './defaults';
import type { ClocksMs, Color, GameState, LagSettings, MoveLag } from './types';

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
 * The lag a move's credit may rest on: the measured lag, unless the mover was holding a lag
 * ping's answer. A ping still unanswered after longer than this turn has lasted was sent before
 * the frame that began the turn; a client answers a ping as it reads it, and the connection
 * keeps order, so an honest answer would have arrived before the move that frame led to. A
 * client that holds its answers (making its round trips look long) is credited nothing.
 */
export function creditableLag(lag: MoveLag, elapsedMs: number): number {
  const measured = typeof lag.lagMs === 'number' && Number.isFinite(lag.lagMs) && lag.lagMs > 0 ? lag.lagMs : 0;
  const held = typeof lag.unansweredPingMs === 'number' && lag.unansweredPingMs > elapsedMs;
  return held ? 0 : measured;
}

/**
 * Lag credit for one move (lichess LagTracker): the credit is the creditable lag, capped per
 * move, by the bank and by the time actually spent; the bank pays it and then regains that lag
 * and ESTIMATED_CPU_LAG_MS, at most the per-move refill, never growing above its cap.
 */
export function creditLag(bank: number, moveLag: MoveLag, lag: Required<LagSettings>, elapsedMs: number): { creditMs: number; bankMs: number } {
  const measured = creditableLag(moveLag, elapsedMs);
  const creditMs = Math.max(0, Math.min(measured, lag.perMoveCapMs, bank, elapsedMs));
  const gainMs = Math.min(lag.refillPerMoveMs, measured + ESTIMATED_CPU_LAG_MS);
  const bankMs = Math.min(lag.bankCapMs, bank - creditMs + gainMs);
  return { creditMs, bankMs };
}

/** `clocks` with `incrementMs` added to `mover`'s clock: the Fischer increment, or time a player gave (giveTime.ts). */
export function withIncrement(clocks: ClocksMs, mover: Color, incrementMs: number): ClocksMs {
  if (incrementMs === 0) return clocks;
  return mover === 'white' ? { white: clocks.white + incrementMs, black: clocks.black } : { white: clocks.white, black: clocks.black + incrementMs };
}
