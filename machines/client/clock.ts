/**
 * Clock display: server-given milliseconds ticking locally between updates, through the game
 * core's own clock formula and format. The multiplayer view's clocks are its copy of the game's
 * core state (gameMirror.ts), re-anchored to the server's clocks whenever the server sends them.
 */
import type { Color, ClocksMs, Timers } from '../protocol/messages';
import { runningClocks } from '../game/clock';

export { formatClock } from '../game/display';

export interface ClockState {
  clocks: ClocksMs;
  /** when `clocks` was received (monotonic ms) */
  syncedAt: number;
  /** the side whose clock is running, or null */
  running: Color | null;
}

/** The server's clocks of a reading: its milliseconds, or its whole seconds when it has no `clocks` (the original unit). */
export function readingClocks(reading: { timers: Timers; clocks?: ClocksMs }): ClocksMs {
  return reading.clocks ?? { white: reading.timers.white * 1000, black: reading.timers.black * 1000 };
}

export function currentClocks(state: ClockState, now: number): ClocksMs {
  return runningClocks(state.clocks, state.running, state.syncedAt, now);
}

/** As lichess: tick every 100 ms under 10 s left, else every 500 ms. */
export function tickInterval(remainingMs: number): number {
  return remainingMs < 10_000 ? 100 : 500;
}
