/**
 * Every number the game machine uses, with where it comes from. SPEC.md wins where it fixes
 * a value; otherwise the figures are lichess's for a 10+0 game as recorded in
 * /work/shared/notes/live-play.md.
 */

/** SPEC.md section 9: "Multiplayer clock 600000 ms (10 minutes) per side". */
export const DEFAULT_CLOCK_MS = 600_000;

/**
 * live-play.md: until both sides have moved once no clock runs; instead each side's first move
 * must come within a deadline (lichess: 30 s for rapid). Missing it aborts the game.
 */
export const DEFAULT_FIRST_MOVE_DEADLINE_MS = 30_000;

/**
 * live-play.md: the absent player may come back within a grace period; lichess for 10+0 gives
 * 80 s to an account and 40 s to a guest (never under 10 s, its floor for computed values).
 */
export const DEFAULT_GRACE_MS = { account: 80_000, guest: 40_000 } as const;
export const MIN_DEFAULT_GRACE_MS = 10_000;

/**
 * live-play.md, lichess LagTracker for 10+0: a move is credited with its measured network lag,
 * up to 1 s per move, taken from a bank that starts at 3 s and is capped at 7 s. Lichess adds
 * its "quota gain" (1 s for 10+0) back to the bank after every move; we do the same.
 */
export const DEFAULT_LAG = {
  perMoveCapMs: 1_000,
  initialBankMs: 3_000,
  bankCapMs: 7_000,
  refillPerMoveMs: 1_000,
} as const;

/**
 * live-play.md: "allow a flag grace of up to 2 s". The flag falls when the clock has been at
 * zero for min(2 s, per-move lag cap, the side's lag bank): a move still in flight is saved
 * only by lag credit, so waiting longer than the credit it could get would be pointless.
 */
export const MAX_FLAG_GRACE_MS = 2_000;

/** live-play.md "Maximum game length: 600 plies" (then a draw, reason 'max plies'). */
export const MAX_PLIES = 600;

/** live-play.md: draw offers are limited to one per 20 plies per player (lichess). */
export const DRAW_OFFER_INTERVAL_PLIES = 20;

/** The issue / SPEC timerUpdate: "once per second while a clock runs". */
export const CLOCK_TICK_MS = 1_000;

/** Lichess's clock starts at ply 2: the first two plies (one per side) are untimed. */
export const UNTIMED_PLIES = 2;
