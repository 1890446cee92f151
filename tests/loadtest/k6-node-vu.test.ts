/**
 * The k6 stand-in runs every VU in one process: a timer's (or a socket's) callback must run as
 * the VU that scheduled it, or what it logs ("VU n: ...") and reads from k6/execution names the
 * last VU started instead (every problem of a run was reported as the last VU's).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setTimeout as k6SetTimeout } from './k6-node/shim-timers';
import { vu } from './k6-node/shim-execution';

afterEach(() => {
  vi.useRealTimers();
});

describe('the k6 stand-in', () => {
  it('runs a timer callback as the VU that set it, and puts the current VU back after', () => {
    vi.useFakeTimers();
    const g = globalThis as unknown as { __VU: number; __ITER: number };
    const seen: number[] = [];
    g.__VU = 1;
    g.__ITER = 0;
    k6SetTimeout(() => seen.push(vu.idInInstance), 5);
    g.__VU = 2;
    k6SetTimeout(() => seen.push(vu.idInInstance), 10);
    // the runner has started the next VU by the time the timers fire
    g.__VU = 3;
    vi.advanceTimersByTime(10);
    expect(seen).toEqual([1, 2]);
    expect(g.__VU).toBe(3);
  });
});
