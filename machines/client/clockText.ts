/** How a clock reads on the game screen: mm:ss, and mm:ss.t (tenths) under ten seconds, as on lichess. */
import { formatClock } from '../game/display';

export const TENTHS_BELOW_MS = 10_000;

export function clockText(ms: number): string {
  if (!(ms > 0) || ms >= TENTHS_BELOW_MS) return formatClock(ms);
  const tenths = Math.floor(ms / 100);
  return `00:0${Math.floor(tenths / 10)}.${tenths % 10}`;
}

/**
 * Milliseconds until the shown text of a running clock changes: the next tenth under ten
 * seconds, else the next whole second (seconds are rounded up). Waking at these instants, rather
 * than on a fixed interval, makes the clock step evenly.
 */
export function msUntilNextChange(ms: number): number {
  if (ms <= 0) return 1000;
  if (ms < TENTHS_BELOW_MS) return (ms % 100) + 1;
  const toNextSecond = ms % 1000;
  return (toNextSecond === 0 ? 1000 : toNextSecond) + 1;
}
