/**
 * Clock arithmetic of the game machine, as pure functions of the context and a time.
 * All times are monotonic milliseconds from the injected now().
 */
import { CLOCK_TICK_MS, UNTIMED_PLIES } from './defaults';
import type { ClocksMs, Color, GameContext, LagSettings } from './types';

/** Whether the side to move has a running clock: from ply 2 on (lichess), while undecided. */
export function clockRunning(ctx: GameContext): boolean {
  return ctx.result === null && ctx.moves.length >= UNTIMED_PLIES;
}

/** Time the side to move has spent on this turn so far. */
export function elapsedThisTurn(ctx: GameContext, nowMs: number): number {
  return Math.max(0, nowMs - ctx.turnStartedAt);
}

/** Both clocks as they stand at `nowMs` (the running one counted down, never below 0). */
export function clocksAt(ctx: GameContext, nowMs: number): ClocksMs {
  if (!clockRunning(ctx)) return { ...ctx.clocks };
  const running = Math.max(0, ctx.clocks[ctx.turn] - elapsedThisTurn(ctx, nowMs));
  return { ...ctx.clocks, [ctx.turn]: running };
}

/**
 * How long a side's clock may stay at zero before its flag falls: a move already in flight
 * can only be saved by lag credit, so the grace is what that credit could be — at most the
 * per-move cap and the side's bank — and never more than maxFlagGraceMs (docs/product.md, 2 s).
 */
export function flagGraceMs(ctx: GameContext, color: Color): number {
  return Math.max(0, Math.min(ctx.settings.maxFlagGraceMs, ctx.settings.lag.perMoveCapMs, ctx.lagBank[color]));
}

/** Remaining time (can be negative) of the side to move at nowMs, grace not included. */
export function moverRemaining(ctx: GameContext, nowMs: number): number {
  return ctx.clocks[ctx.turn] - elapsedThisTurn(ctx, nowMs);
}

/** True when the side to move has run out of time including its flag grace. */
export function moverFlagged(ctx: GameContext, nowMs: number): boolean {
  return clockRunning(ctx) && moverRemaining(ctx, nowMs) + flagGraceMs(ctx, ctx.turn) <= 0;
}

/**
 * Delay until the running clock needs attention: the next whole second of this turn (a
 * `clock` event, when the machine emits them) or its next deadline (`wakeAt`), whichever is first.
 */
export function nextClockWakeMs(ctx: GameContext, nowMs: number): number {
  const untilTick = ctx.settings.clockEvents ? (ctx.tickIndex + 1) * CLOCK_TICK_MS - elapsedThisTurn(ctx, nowMs) : Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(untilTick, wakeAt(ctx) - nowMs));
}
/**
 * The monotonic time at which a deadline of the game falls due: before the clocks run, the
 * first-move deadline; then the flag of the side to move (its clock plus flag grace) or the end
 * of a counting disconnect grace, whichever is first. Infinity once the game is decided. The
 * runner of a 'driven' game machine sends `WAKE` at or after this time.
 */
export function wakeAt(ctx: GameContext): number {
  if (ctx.result !== null) return Number.POSITIVE_INFINITY;
  if (ctx.moves.length < UNTIMED_PLIES) return ctx.turnStartedAt + ctx.settings.firstMoveDeadlineMs;
  const flagAt = ctx.turnStartedAt + ctx.clocks[ctx.turn] + flagGraceMs(ctx, ctx.turn);
  const g = ctx.graceCount;
  const graceEndsAt = g ? g.since + ctx.settings.graceMs[g.color] - ctx.graceUsed[g.color] : Number.POSITIVE_INFINITY;
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
