/** Clock display: server-given milliseconds ticking locally between updates. */
import type { Color, ClocksMs } from '../protocol/messages';

/** mm:ss, never negative. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

export interface ClockState {
  clocks: ClocksMs;
  /** when `clocks` was received (monotonic ms) */
  syncedAt: number;
  /** the side whose clock is running, or null */
  running: Color | null;
}

export function currentClocks(state: ClockState, now: number): ClocksMs {
  if (!state.running) return state.clocks;
  const elapsed = Math.max(0, now - state.syncedAt);
  return { ...state.clocks, [state.running]: Math.max(0, state.clocks[state.running] - elapsed) };
}

/** As lichess: tick every 100 ms under 10 s left, else every 500 ms. */
export function tickInterval(remainingMs: number): number {
  return remainingMs < 10_000 ? 100 : 500;
}
