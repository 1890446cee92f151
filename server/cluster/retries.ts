/**
 * Writes to Redis that must happen even when Redis is away at the time (the owner and seats of a
 * game that ended: left behind, they would hold its players out of the pool until they expire).
 * Each is tried again, later and later, until it works or the node leaves the site.
 */

/** The wait before the next try: 0.5 s, doubling, at most 10 s. */
export function retryDelayMs(failures: number): number {
  return Math.min(500 * 2 ** Math.max(0, failures - 1), 10_000);
}

interface Pending {
  timer: NodeJS.Timeout;
  again: () => void;
}

export class Retries {
  private readonly pending = new Set<Pending>();
  private stopped = false;

  /** `failed`: a try failed (its count so far); `worked`: a try after failures worked. */
  constructor(private readonly report: { failed(err: Error, what: string, failures: number): void; worked(what: string, failures: number): void }) {}

  /** Runs `write` now and again after each failure until it works. */
  run(what: string, write: () => Promise<unknown>, failures = 0): void {
    write().then(
      () => {
        if (failures > 0) this.report.worked(what, failures);
      },
      (err: Error) => {
        this.report.failed(err, what, failures + 1);
        if (this.stopped) return;
        const p: Pending = {
          again: () => {
            clearTimeout(p.timer);
            this.pending.delete(p);
            this.run(what, write, failures + 1);
          },
          timer: setTimeout(() => p.again(), retryDelayMs(failures + 1)),
        };
        p.timer.unref();
        this.pending.add(p);
      },
    );
  }

  /** How many writes wait for their next try. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Redis is back: every waiting write is tried at once, before the players it frees act again. */
  now(): void {
    for (const p of [...this.pending]) p.again();
  }

  /** The node leaves the site: no more tries (what is left expires in Redis, or the next owner clears it). */
  stop(): void {
    this.stopped = true;
    for (const p of this.pending) clearTimeout(p.timer);
    this.pending.clear();
  }
}
