/**
 * Disconnect grace bookkeeping, as pure functions of the context and a time.
 *
 * lila#6044: the grace of an absent player counts only while that player is to move and its
 * clock runs. So at most one grace counts at a time — the mover's — and it is described by
 * `graceCount {color, since}` plus the grace that side already used in this absence
 * (`graceUsed`). The machine calls `syncGrace` after anything that can change who is to move,
 * who is away or whether the clock runs, and wakes up when the counting grace would run out.
 */
import { clockRunning } from './clock';
import type { GameContext } from './types';

type GraceFields = Pick<GameContext, 'graceUsed' | 'graceCount'>;

/** Whether the side to move's grace should be counting in `ctx`. */
export function moverGraceShouldCount(ctx: GameContext): boolean {
  const c = ctx.turn;
  return clockRunning(ctx) && ctx.away[c] && ctx.graceUsed[c] < ctx.settings.graceMs[c];
}

/** Starts or stops the counting grace so that it matches the context; returns the grace fields. */
export function syncGrace(ctx: GameContext, nowMs: number): GraceFields {
  let { graceUsed, graceCount } = ctx;
  if (graceCount && !(moverGraceShouldCount(ctx) && graceCount.color === ctx.turn)) {
    const c = graceCount.color;
    // An absence still going on keeps the grace it used; a return resets it anyway.
    if (ctx.away[c]) graceUsed = { ...graceUsed, [c]: graceUsed[c] + Math.max(0, nowMs - graceCount.since) };
    graceCount = null;
  }
  if (!graceCount && moverGraceShouldCount({ ...ctx, graceUsed })) {
    graceCount = { color: ctx.turn, since: nowMs };
  }
  return { graceUsed, graceCount };
}

/** Grace left to the counting side at nowMs (Infinity when no grace is counting). */
export function graceLeftMs(ctx: GameContext, nowMs: number): number {
  const g = ctx.graceCount;
  if (!g) return Number.POSITIVE_INFINITY;
  return ctx.settings.graceMs[g.color] - ctx.graceUsed[g.color] - Math.max(0, nowMs - g.since);
}
