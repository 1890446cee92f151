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

/**
 * Per-account sign-in back-off: after `freeFailures` wrong passwords in a row for one account
 * (from any number of addresses), the account is locked for `baseLockMs`, doubling with every
 * further failure up to `maxLockMs`; a right password (outside a lock) clears it. Keyed by the
 * address typed, whether or not it has an account, so the answers tell nothing about that.
 */
export class LoginBackoff {
  private failures = new Map<string, { count: number; lockedUntil: number }>();

  constructor(
    private readonly policy: { freeFailures: number; baseLockMs: number; maxLockMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again (0 = now). */
  waitSeconds(key: string): number {
    const f = this.failures.get(key);
    const left = f ? f.lockedUntil - this.now() : 0;
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  failed(key: string): void {
    const t = this.now();
    const f = this.failures.get(key) ?? { count: 0, lockedUntil: 0 };
    f.count++;
    const over = f.count - this.policy.freeFailures;
    if (over >= 0) f.lockedUntil = t + Math.min(this.policy.maxLockMs, this.policy.baseLockMs * 2 ** Math.min(over, 30));
    this.failures.set(key, f);
    if (this.failures.size > 100_000) this.sweep(t);
  }

  succeeded(key: string): void {
    this.failures.delete(key);
  }

  /** Forgets accounts whose lock ended long ago (memory stays bounded under a spray). */
  private sweep(t: number): void {
    for (const [k, f] of this.failures) if (t - f.lockedUntil > this.policy.maxLockMs) this.failures.delete(k);
  }
}

/** A limit on requests per key (an address), kept by this node or shared by every node of a site. */
export interface RequestLimiter {
  /** Takes one request's token for `key`; false when the budget is spent (answer 429). */
  take(key: string): Promise<boolean>;
}

/** The per-account sign-in back-off (LoginBackoff), kept by this node or shared by every node of a site. */
export interface SignInBackoff {
  waitSeconds(key: string): Promise<number>;
  failed(key: string): Promise<void>;
  succeeded(key: string): Promise<void>;
}

/** Where the accounts' request limits are kept. */
export interface RequestLimits {
  limiter(name: string, limit: number, windowMs: number): RequestLimiter;
  loginBackoff(policy: { freeFailures: number; baseLockMs: number; maxLockMs: number }): SignInBackoff;
}

/** The limits of a single node: in this process's memory. */
export const LOCAL_LIMITS: RequestLimits = {
  limiter(_name, limit, windowMs) {
    const local = new RateLimiter(limit, windowMs);
    return { take: async (key) => local.take(key) };
  },
  loginBackoff(policy) {
    const local = new LoginBackoff(policy);
    return {
      waitSeconds: async (key) => local.waitSeconds(key),
      failed: async (key) => local.failed(key),
      succeeded: async (key) => local.succeeded(key),
    };
  },
};

/**
 * After-reply work starts at a random moment within this many milliseconds of the answer. It
 * costs more for an address with an account (a token, the mail), and on one event loop that cost
 * delays whatever runs next: started at once it fell on the answer itself or on the next
 * request's (8.8 ms against 3.8 ms). Spread out, it falls on no request in particular.
 */
export const AFTER_REPLY_SPREAD_MS = 250;

/**
 * Work an endpoint does after it has answered (looking an address up, sending mail), so that the
 * answer and its timing are the same whether or not the address has an account. `settled()`
 * waits for what has been started so far (the development inbox lists mail only after it).
 */
export class AfterReply {
  private pending = new Set<Promise<void>>();

  constructor(
    private readonly onError: (err: unknown, what: string) => void,
    /** how long after the answer a job starts (random within AFTER_REPLY_SPREAD_MS) */
    private readonly startDelayMs: () => number = () => Math.random() * AFTER_REPLY_SPREAD_MS,
  ) {}

  run(what: string, job: () => Promise<void>): void {
    const p: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, this.startDelayMs()))
      .then(job)
      .catch((err: unknown) => this.onError(err, what))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
