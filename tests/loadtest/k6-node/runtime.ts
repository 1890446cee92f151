/**
 * Shared state of the k6 stand-in: the samples every custom metric received and the sockets and
 * timers still pending (a k6 VU iteration ends when none are left). Kept on globalThis so the
 * bundled scenario and the test read the same object.
 */
export type MetricKind = 'counter' | 'trend' | 'rate' | 'gauge';

export interface MetricSamples {
  kind: MetricKind;
  values: number[];
  tags: Record<string, string>[];
}

/** Behaviours of some k6 versions the stand-in can take on, to test the scripts against them. */
export interface K6Quirks {
  /** readyState as a wrapped value that equals the number but is not === to it (k6 before v0.54) */
  wrappedReadyState?: boolean;
  /** send() throws, as k6's does on a socket it does not consider open */
  sendThrows?: boolean;
}

/**
 * The share of a test this stand-in runs, as k6's `--execution-segment i/n:(i+1)/n` with the
 * sequence 0,1/n,…,1 does: of the test's VUs numbered 1, 2, 3…, generator i runs every n-th,
 * starting at i + 1, and that number is the VU's exec.vu.idInTest.
 */
export interface Segment {
  index: number;
  count: number;
}

export interface K6NodeRuntime {
  metrics: Map<string, MetricSamples>;
  quirks: K6Quirks;
  segment: Segment;
  liveSockets: number;
  pendingTimers: number;
  logs: string[];
  idleWaiters: (() => void)[];
}

const KEY = '__k6NodeRuntime';

export function runtime(): K6NodeRuntime {
  const g = globalThis as unknown as Record<string, K6NodeRuntime | undefined>;
  let rt = g[KEY];
  if (!rt) {
    rt = { metrics: new Map(), quirks: {}, segment: { index: 0, count: 1 }, liveSockets: 0, pendingTimers: 0, logs: [], idleWaiters: [] };
    g[KEY] = rt;
  }
  return rt;
}

export function resetRuntime(quirks: K6Quirks = {}, segment: Segment = { index: 0, count: 1 }): void {
  const rt = runtime();
  rt.metrics.clear();
  rt.logs.length = 0;
  rt.quirks = quirks;
  rt.segment = segment;
}

/** How many of a test's `total` VUs a generator runs in this segment (k6 stripes them). */
export function vusInSegment(total: number, segment: Segment): number {
  return total > segment.index ? Math.floor((total - segment.index - 1) / segment.count) + 1 : 0;
}

/** exec.vu.idInTest of this generator's VU number `local` (1, 2, …). */
export function idInTest(local: number, segment: Segment): number {
  return segment.index + 1 + (local - 1) * segment.count;
}

export function record(name: string, kind: MetricKind, value: number, tags?: Record<string, string>): void {
  const rt = runtime();
  let m = rt.metrics.get(name);
  if (!m) {
    m = { kind, values: [], tags: [] };
    rt.metrics.set(name, m);
  }
  m.values.push(value);
  m.tags.push(tags ?? {});
}

/** Called whenever a socket closes or a timer fires/clears. */
export function maybeIdle(): void {
  const rt = runtime();
  if (rt.liveSockets === 0 && rt.pendingTimers === 0) {
    const waiters = rt.idleWaiters.splice(0);
    for (const w of waiters) w();
  }
}

/** Resolves once no socket is open and no timer is pending (all VU iterations are over). */
export function whenIdle(): Promise<void> {
  const rt = runtime();
  return new Promise((resolve) => {
    rt.idleWaiters.push(resolve);
    setImmediate(maybeIdle);
  });
}

/**
 * `fn`, run later as the VU that scheduled it: in k6 each VU has a runtime of its own, here all
 * share one, so a timer's or a socket's callback runs with the VU's numbers (__VU, __ITER) put
 * back, and what it logs or reads from k6/execution is its own VU's.
 */
export function asThisVu<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  const g = globalThis as unknown as { __VU: number; __ITER: number };
  const vu = g.__VU;
  const iter = g.__ITER;
  return (...args: A) => {
    const [outerVu, outerIter] = [g.__VU, g.__ITER];
    g.__VU = vu;
    g.__ITER = iter;
    try {
      fn(...args);
    } finally {
      g.__VU = outerVu;
      g.__ITER = outerIter;
    }
  };
}
