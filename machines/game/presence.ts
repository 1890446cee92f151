/**
 * Disconnect grace bookkeeping, as pure functions of the state and a time.
 *
 * lila#6044: the grace of an absent player counts only while that player is to move and its
 * clock runs. So at most one grace counts at a time — the mover's — and it is described by
 * `graceCount {color, since}` plus the grace that side already used in this absence
 * (`graceUsed`). The step calls `syncGrace` after anything that can change who is to move,
 * who is away or whether the clock runs, and wakes up when the counting grace would run out.
 */
import { clockRunning } from './clock';
import type { GameState } from './types';

type GraceFields = Pick<GameState, 'graceUsed' | 'graceCount'>;

/** Whether the side to move's grace should be counting in `state`. */
export function moverGraceShouldCount(state: GameState): boolean {
  const c = state.turn;
  return clockRunning(state) && state.away[c] && state.graceUsed[c] < state.settings.graceMs[c];
}

/** Starts or stops the counting grace so that it matches the state; returns the grace fields. */
export function syncGrace(state: GameState, nowMs: number): GraceFields {
  let { graceUsed, graceCount } = state;
  if (graceCount && !(moverGraceShouldCount(state) && graceCount.color === state.turn)) {
    const c = graceCount.color;
    // An absence still going on keeps the grace it used; a return resets it anyway.
    if (state.away[c]) graceUsed = { ...graceUsed, [c]: graceUsed[c] + Math.max(0, nowMs - graceCount.since) };
    graceCount = null;
  }
  if (!graceCount && moverGraceShouldCount({ ...state, graceUsed })) {
    graceCount = { color: state.turn, since: nowMs };
  }
  return { graceUsed, graceCount };
}

/** The grace each absent side has left at nowMs (the counting one counted down); null when both are present. */
export function awayGrace(state: GameState, nowMs: number): { white?: number; black?: number } | null {
  if (!state.away.white && !state.away.black) return null;
  const left = (c: 'white' | 'black') => {
    const counting = state.graceCount?.color === c ? Math.max(0, nowMs - state.graceCount.since) : 0;
    return Math.max(0, state.settings.graceMs[c] - state.graceUsed[c] - counting);
  };
  return { ...(state.away.white ? { white: left('white') } : {}), ...(state.away.black ? { black: left('black') } : {}) };
}

/** Grace left to the counting side at nowMs (Infinity when no grace is counting). */
export function graceLeftMs(state: GameState, nowMs: number): number {
  const g = state.graceCount;
  if (!g) return Number.POSITIVE_INFINITY;
  return state.settings.graceMs[g.color] - state.graceUsed[g.color] - Math.max(0, nowMs - g.since);
}
