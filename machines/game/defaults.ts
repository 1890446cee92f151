/**
 * Every number the game core uses, with where it comes from. The product fixes some
 * (docs/product.md); the others are lichess's for a 10+0 game.
 */

/** docs/product.md, Constants: 600 000 ms (10 minutes) per side. */
export const DEFAULT_CLOCK_MS = 600_000;

/**
 * Until both sides have moved once no clock runs; instead each side's first move
 * must come within a deadline (lichess: 30 s for rapid). Missing it aborts the game.
 */
export const DEFAULT_FIRST_MOVE_DEADLINE_MS = 30_000;

/**
 * The absent player may come back within a grace period; lichess for 10+0 gives
 * 80 s to an account and 40 s to a guest (never under 10 s, its floor for computed values).
 */
export const DEFAULT_GRACE_MS = { account: 80_000, guest: 40_000 } as const;
export const MIN_DEFAULT_GRACE_MS = 10_000;

/**
 * lichess LagTracker for 10+0: a move is credited with its measured network lag,
 * up to 1 s per move, taken from a bank that starts at 3 s and is capped at 7 s. After every
 * move lichess adds a "quota gain" back to the bank: the mover's measured lag plus its estimate
 * of the server's own delay (ESTIMATED_CPU_LAG_MS), at most 1 s for 10+0; we do the same, so a
 * player's bank grows only by what its measured round trips justify.
 */
export const DEFAULT_LAG = {
  perMoveCapMs: 1_000,
  initialBankMs: 3_000,
  bankCapMs: 7_000,
  refillPerMoveMs: 1_000,
} as const;

/** lichess LagTracker's `estimatedCpuLag` (4 centiseconds), added to the measured lag the bank regains per move. */
export const ESTIMATED_CPU_LAG_MS = 40;

/**
 * A flag grace of at most 2 s (docs/product.md). The flag falls when the clock has been at
 * zero for min(2 s, per-move lag cap, the side's lag bank): a move still in flight is saved
 * only by lag credit, so waiting longer than the credit it could get would be pointless.
 */
export const MAX_FLAG_GRACE_MS = 2_000;

/** Maximum game length, 600 plies as lichess (then a draw, reason 'max plies'). */
export const MAX_PLIES = 600;

/** Draw offers are limited to one per 20 plies per player (lichess). */
export const DRAW_OFFER_INTERVAL_PLIES = 20;

/**
 * How often the host reports a running clock that no move has reported lately (`timerUpdate`,
 * docs/protocol.md): every 10 s of a turn. Every `gameMove` carries both clocks and every client
 * counts down between readings (../client/clock.ts), so a report only re-anchors a display during
 * a long think. The first version reported every second, which made clock reports, not moves,
 * most of a game's frames: two per second of play against two per move. lichess sends none.
 * Operators can choose another interval, or none (CLOCK_REPORT_SECONDS, docs/operations.md).
 */
export const DEFAULT_CLOCK_REPORT_MS = 10_000;

/** What a player gives the opponent's clock at a time (lichess "moretime": 15 s). */
export const GIVE_TIME_MS = 15_000;

/** A player gives time at most once per this long (so a held key cannot flood the game's frames). */
export const GIVE_TIME_INTERVAL_MS = 1_000;

/** Lichess's clock starts at ply 2: the first two plies (one per side) are untimed. */
export const UNTIMED_PLIES = 2;
