/**
 * identifyUser's budget: checking an access token costs a signature verification and database
 * reads, so a flood of them (issue 24: 1,000 sockets from one address stalled every game 5.7 s)
 * must not run unbounded. Each token's answer is kept for a short while (so a token presented
 * again, by any socket, costs a hash and a map lookup), concurrent checks of one token share one
 * verification, and verifications that do run draw from a per-address and a global token bucket
 * and a cap on how many are in flight at once. Past the budget the answer is "try later" and
 * nothing changes.
 */
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { AccessClaims } from '../wiring';
import { KeyedBuckets, fullBucket, takeFrom, type Bucket, type BucketRate } from './buckets';

export interface IdentificationLimits {
  /** verifications per client address */
  perAddress: BucketRate;
  /** verifications for the whole server */
  global: BucketRate;
  /** verifications running at once */
  maxInFlight: number;
  /** how long a token's answer is kept (a valid token's never past its expiry) */
  cacheTtlMs: number;
  /** tokens whose answers are kept at most (the oldest go first) */
  cacheSize: number;
}

/**
 * Defaults: a verification costs well under a millisecond of the event loop's time (the
 * signature is checked off it, the two database reads are on it with the embedded database), so
 * 100 a second leave the games nearly all of it; an address gets a tab per player of a household
 * at once, then 2 a second. A token's answer is kept a minute: a session ended elsewhere can
 * still identify a new socket for that long (its access token is valid until it expires anyway).
 */
export const DEFAULT_IDENTIFICATION_LIMITS: IdentificationLimits = {
  perAddress: { burst: 20, perSecond: 2 },
  global: { burst: 200, perSecond: 100 },
  maxInFlight: 32,
  cacheTtlMs: 60_000,
  cacheSize: 10_000,
};

export type IdentifyOutcome =
  | { kind: 'ok'; claims: AccessClaims }
  | { kind: 'failed' }
  /** the budget is spent: nothing was checked, the client may try again later */
  | { kind: 'rate_limited' };

export type IdentificationCounter = { inc(labels: { outcome: string }): void };

interface Answer {
  claims: AccessClaims | null;
  until: number;
}

/** The key a token is known by: a hash, so the cache holds no tokens. */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export class Identification {
  private readonly answers = new Map<string, Answer>();
  private readonly running = new Map<string, Promise<AccessClaims | null>>();
  private readonly perAddress: KeyedBuckets;
  private readonly global: Bucket;

  constructor(
    private readonly verify: (token: string) => Promise<AccessClaims | null>,
    private readonly limits: IdentificationLimits,
    private readonly counter: IdentificationCounter,
    /** monotonic milliseconds for the buckets and the cache */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.perAddress = new KeyedBuckets(limits.perAddress);
    this.global = fullBucket(limits.global, this.now());
  }

  /** The answer for `token` presented from `address` (key: tokenKey(token)). */
  async check(token: string, key: string, address: string): Promise<IdentifyOutcome> {
    const now = this.now();
    const known = this.answers.get(key);
    if (known && known.until > now) {
      this.counter.inc({ outcome: 'cached' });
      return outcomeOf(known.claims);
    }
    const shared = this.running.get(key);
    if (shared) {
      this.counter.inc({ outcome: 'shared' });
      return outcomeOf(await shared);
    }
    if (!this.admit(address, now)) {
      this.counter.inc({ outcome: 'rate_limited' });
      return { kind: 'rate_limited' };
    }
    const verification = this.verify(token).catch(() => null);
    this.running.set(key, verification);
    try {
      const claims = await verification;
      this.remember(key, claims, token);
      this.counter.inc({ outcome: claims ? 'verified' : 'invalid' });
      return outcomeOf(claims);
    } finally {
      this.running.delete(key);
    }
  }

  /** Takes a verification from the address's and the server's budgets, or neither. */
  private admit(address: string, now: number): boolean {
    if (this.running.size >= this.limits.maxInFlight) return false;
    if (!this.perAddress.take(address, now)) return false;
    if (takeFrom(this.global, this.limits.global, now)) return true;
    this.perAddress.giveBack(address);
    return false;
  }

  private remember(key: string, claims: AccessClaims | null, token: string): void {
    const now = this.now();
    let ttl = this.limits.cacheTtlMs;
    if (claims) {
      const exp = decodeJwt(token).exp;
      if (typeof exp === 'number') ttl = Math.min(ttl, exp * 1000 - Date.now());
    }
    if (ttl <= 0) return;
    this.answers.delete(key);
    this.answers.set(key, { claims, until: now + ttl });
    while (this.answers.size > this.limits.cacheSize) {
      const oldest = this.answers.keys().next().value;
      if (oldest === undefined) break;
      this.answers.delete(oldest);
    }
  }

  /** Forgets expired answers and refilled address buckets (call now and then). */
  sweep(): void {
    const now = this.now();
    for (const [key, a] of this.answers) if (a.until <= now) this.answers.delete(key);
    this.perAddress.sweep(now);
  }
}

function outcomeOf(claims: AccessClaims | null): IdentifyOutcome {
  return claims ? { kind: 'ok', claims } : { kind: 'failed' };
}
