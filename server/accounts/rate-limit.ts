/**
 * In-memory token buckets (one per key): `limit` requests per `windowMs`, refilled continuously,
 * like GoTrue's per-IP limiters. Idle buckets are swept so memory stays bounded.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  private readonly ratePerMs: number;
  private sweeps = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.ratePerMs = limit / windowMs;
  }

  /** Takes one token for key; false when the bucket is empty (answer 429). */
  take(key: string): boolean {
    const t = this.now();
    if (++this.sweeps % 1024 === 0) this.sweep(t);
    const b = this.buckets.get(key) ?? { tokens: this.limit, at: t };
    b.tokens = Math.min(this.limit, b.tokens + (t - b.at) * this.ratePerMs);
    b.at = t;
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      return false;
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
    return true;
  }

  private sweep(t: number): void {
    for (const [k, b] of this.buckets) if (t - b.at > this.windowMs) this.buckets.delete(k);
  }
}

/** Remembers when something was last sent to an address (unknown addresses too, so 429s leak nothing). */
export class SendInterval {
  private last = new Map<string, number>();
  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds still to wait before the next send to key (0 = may send now). */
  waitSeconds(key: string, lastFromDb?: Date | null): number {
    const t = this.now();
    const mem = this.last.get(key) ?? 0;
    const db = lastFromDb ? lastFromDb.getTime() : 0;
    const since = t - Math.max(mem, db);
    return since >= this.intervalMs ? 0 : Math.ceil((this.intervalMs - since) / 1000);
  }

  mark(key: string): void {
    const t = this.now();
    this.last.set(key, t);
    if (this.last.size > 10_000) {
      for (const [k, v] of this.last) if (t - v > this.intervalMs) this.last.delete(k);
    }
  }
}
