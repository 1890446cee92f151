/** Stand-in for `k6/timers`, counting pending timers so the runner knows when VUs are done. */
import { asThisVu, maybeIdle, runtime } from './runtime';

const live = new Map<number, NodeJS.Timeout>();
let nextId = 1;

export function setTimeout(fn: (...args: unknown[]) => void, delay: number, ...args: unknown[]): number {
  const id = nextId++;
  runtime().pendingTimers++;
  const run = asThisVu(fn);
  live.set(
    id,
    globalThis.setTimeout(() => {
      live.delete(id);
      runtime().pendingTimers--;
      try {
        run(...args);
      } finally {
        maybeIdle();
      }
    }, delay),
  );
  return id;
}

export function clearTimeout(id: number): void {
  const t = live.get(id);
  if (!t) return;
  globalThis.clearTimeout(t);
  live.delete(id);
  runtime().pendingTimers--;
  maybeIdle();
}

export function setInterval(): number {
  throw new Error('setInterval is not used by the scenarios');
}

export function clearInterval(): void {}
