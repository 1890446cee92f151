/**
 * Token buckets: a budget of `burst` actions that refills at `perSecond`, on a monotonic clock
 * the caller passes in (tests pass their own). KeyedBuckets keeps one bucket per key (a client
 * address) and forgets the full ones, so an idle address costs nothing.
 */
import type { BucketRate } from '../config/server';

export interface Bucket {
  tokens: number;
  at: number;
}

export function fullBucket(rate: BucketRate, now: number): Bucket {
  return { tokens: rate.burst, at: now };
}

function refill(b: Bucket, rate: BucketRate, now: number): void {
  if (now > b.at) b.tokens = Math.min(rate.burst, b.tokens + ((now - b.at) / 1000) * rate.perSecond);
  b.at = now;
}

/** Takes one token; false (and nothing taken) when the bucket is empty. */
export function takeFrom(b: Bucket, rate: BucketRate, now: number): boolean {
  refill(b, rate, now);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

/** Gives back a token taken for an action that did not happen. */
export function giveBack(b: Bucket, rate: BucketRate): void {
  b.tokens = Math.min(rate.burst, b.tokens + 1);
}

/** Seconds until the bucket holds a token again (for Retry-After). */
export function secondsUntilToken(b: Bucket, rate: BucketRate): number {
  return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / rate.perSecond);
}

export class KeyedBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly rate: BucketRate) {}

  /** Takes one token from `key`'s bucket; false when it is empty. */
  take(key: string, now: number): boolean {
    let b = this.buckets.get(key);
    if (!b) {
      b = fullBucket(this.rate, now);
      this.buckets.set(key, b);
    }
    return takeFrom(b, this.rate, now);
  }

  giveBack(key: string): void {
    const b = this.buckets.get(key);
    if (b) giveBack(b, this.rate);
  }

  retryAfterSeconds(key: string): number {
    const b = this.buckets.get(key);
    return b ? secondsUntilToken(b, this.rate) : 0;
  }

  /** Forgets the buckets that have refilled: they are the same as no bucket. */
  sweep(now: number): void {
    for (const [key, b] of this.buckets) {
      refill(b, this.rate, now);
      if (b.tokens >= this.rate.burst) this.buckets.delete(key);
    }
  }

  get size(): number {
    return this.buckets.size;
  }
}
