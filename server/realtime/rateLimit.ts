/**
 * Per-socket message budget: at most `messages` per `windowMs` (lichess: 100 per 20 s).
 * A sliding approximation over two fixed windows, O(1) memory per socket.
 */
export interface RateState {
  windowStart: number;
  count: number;
  prevCount: number;
}

export function newRateState(now: number): RateState {
  return { windowStart: now, count: 0, prevCount: 0 };
}

/** Counts one message; returns false when the budget is exceeded. */
export function takeToken(s: RateState, now: number, messages: number, windowMs: number): boolean {
  const elapsed = now - s.windowStart;
  if (elapsed >= windowMs) {
    const windows = Math.floor(elapsed / windowMs);
    s.prevCount = windows === 1 ? s.count : 0;
    s.count = 0;
    s.windowStart += windows * windowMs;
  }
  s.count++;
  const weightPrev = 1 - (now - s.windowStart) / windowMs;
  return s.count + s.prevCount * weightPrev <= messages;
}
