/** A side's clock in mm:ss, ticking locally between server updates. */
import { useEffect, useState } from 'react';
import type { ClocksMs, Color } from '../../../machines/protocol/messages';
import { currentClocks, formatClock, tickInterval } from '../../../machines/client/clock';

export interface ClockProps {
  clocks: ClocksMs;
  syncedAt: number;
  running: Color | null;
  active: Color | null;
  now: () => number;
}

export function useTickingClocks({ clocks, syncedAt, running, now }: Omit<ClockProps, 'active'>): ClocksMs {
  const [, setTick] = useState(0);
  const current = currentClocks({ clocks, syncedAt, running }, now());
  useEffect(() => {
    if (!running) return;
    const delay = tickInterval(current[running]);
    const t = setTimeout(() => setTick((n) => n + 1), delay);
    return () => clearTimeout(t);
  });
  return current;
}

export function ClockFace({ color, ms, active }: { color: Color; ms: number; active: boolean }) {
  return (
    <div className={`clock ${active ? 'clock-active' : ''} ${ms < 10_000 ? 'clock-low' : ''}`} data-testid={`clock-${color}`} aria-label={`${color === 'white' ? 'White' : 'Black'} clock`}>
      <span className="clock-side">{color === 'white' ? 'White' : 'Black'}</span>
      <span className="clock-time">{formatClock(ms)}</span>
    </div>
  );
}
