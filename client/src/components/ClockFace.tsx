/**
 * A side's clock: mm:ss, with tenths under ten seconds. It re-renders itself (not the screen)
 * exactly when its text changes, from the last server reading and the monotonic clock.
 */
import { useEffect, useState } from 'react';
import type { Color } from '../../../machines/protocol/messages';
import { currentClocks, type ClockState } from '../../../machines/client/clock';
import { clockText, msUntilNextChange, TENTHS_BELOW_MS } from '../../../machines/client/clockText';
import { clockLabel } from '../../../machines/client/speech';

export interface ClockFaceProps {
  color: Color;
  clock: ClockState;
  now: () => number;
  /** highlighted as the side to move */
  active: boolean;
  /** called once when the shown time drops under ten seconds while running (the low-time sound) */
  onLow?: () => void;
}

export function ClockFace({ color, clock, now, active, onLow }: ClockFaceProps) {
  const [, setTick] = useState(0);
  const ms = currentClocks(clock, now())[color];
  const running = clock.running === color;
  const low = ms < TENTHS_BELOW_MS;
  useEffect(() => {
    if (!running || ms <= 0) return;
    const t = setTimeout(() => setTick((n) => n + 1), msUntilNextChange(ms));
    return () => clearTimeout(t);
  });
  useEffect(() => {
    if (running && low) onLow?.();
  }, [running, low, onLow]);
  return (
    <div className={`clock ${active ? 'clock-active' : ''} ${low ? 'clock-low' : ''}`} data-testid={`clock-${color}`} role="timer" aria-label={clockLabel(color, ms)}>
      <span className="clock-time" aria-hidden="true">{clockText(ms)}</span>
    </div>
  );
}
