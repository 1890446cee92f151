/**
 * How long the engine may think on a move, from its clock: pure functions of the engine's
 * remaining time and increment (lichess's bots budget a share of what is left plus most of the
 * increment). Its think time counts on its clock like any player's, so a short clock means
 * short searches and no human-like pause.
 */

/** The engine's clock when it is to move: what it has left and its increment, ms. */
export interface EngineClock {
  remainingMs: number;
  incrementMs: number;
}

/** The shortest search ever asked for (ms): a move still comes, at the level's depth or less. */
export const MIN_ENGINE_MOVETIME_MS = 30;

/** Kept back from every budget (ms): what the engine's reply takes besides the search (queue, process, the move's way back). */
export const ENGINE_RESERVE_MS = 1_000;

/** The moves still to play that the remaining time is shared over (lichess: a 40th of it). */
export const MOVES_TO_GO = 40;

/** A clock with less than this left is short (ms): the human-like pause is skipped. */
export const SHORT_CLOCK_MS = 60_000;

/**
 * The search time for the engine's next move: the level's movetime, capped by a 40th of what is
 * left (less the reserve) plus 0.8 of the increment; never under MIN_ENGINE_MOVETIME_MS. Without
 * a clock (`clock` null), the level's movetime.
 */
export function engineMovetimeMs(levelMovetimeMs: number, clock: EngineClock | null): number {
  if (!clock) return levelMovetimeMs;
  const spare = Math.max(0, clock.remainingMs - ENGINE_RESERVE_MS);
  const budget = spare / MOVES_TO_GO + clock.incrementMs * 0.8;
  return Math.max(MIN_ENGINE_MOVETIME_MS, Math.round(Math.min(levelMovetimeMs, budget)));
}

/**
 * The human-like pause before the engine's move is played, given what its thinking already
 * took: the rest of `targetMs`, or none when the clock is short.
 */
export function enginePauseMs(targetMs: number, thoughtMs: number, clock: EngineClock | null): number {
  if (clock && clock.remainingMs - thoughtMs < SHORT_CLOCK_MS) return 0;
  return Math.max(0, Math.round(targetMs - thoughtMs));
}
