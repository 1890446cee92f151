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

export interface K6NodeRuntime {
  metrics: Map<string, MetricSamples>;
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
    rt = { metrics: new Map(), liveSockets: 0, pendingTimers: 0, logs: [], idleWaiters: [] };
    g[KEY] = rt;
  }
  return rt;
}

export function resetRuntime(): void {
  const rt = runtime();
  rt.metrics.clear();
  rt.logs.length = 0;
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
