/**
 * identifyUser's budget: checking an access token costs a signature verification and database
 * reads, so a flood of them (issue 24: 1,000 sockets from one address stalled every game 5.7 s)
 * must not run unbounded. Each token's answer is kept for a short while (so a token presented
 * again, by any socket, costs a hash and a map lookup), and concurrent checks of one token share
 * one verification. Verifications that do run draw from a per-address and a global token bucket,
 * then wait in a short queue and run one at a time, each started in its own event-loop turn.
 * Past the budget or the queue the answer is "try later" and nothing changes.
 *
 * Why one at a time: the signature is checked on libuv's thread pool (4 threads), which the
 * game journal's write and fdatasync share, and a move is relayed only once its batch is on
 * disk. With up to 32 checks started at once, a burst of distinct tokens queued every move's
 * commit behind them and took the cores from the event loop. One at a time, with socket events
 * read between two checks, a check costs the games about its own synchronous part (~50 µs; the
 * database reads of a valid token with the embedded database) and one pool thread. This alone
 * did not bring a bystander's relay p99 under a flood of 1,000 distinct bad tokens from 100
 * addresses below 50 ms on a shared 2-core machine (BENCHMARKS.md at a71349e, "Floods, second pass").
 */
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { VerifiedIdentity as AccessClaims } from '../accounts/verifiedIdentity';
import { KeyedBuckets, fullBucket, takeFrom, type Bucket } from './buckets';
import type { IdentificationLimits } from '../config/server';

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

/** Runs `start` in a later event-loop turn (setImmediate; tests step it by hand). */
export type Defer = (start: () => void) => void;

interface Waiting {
  token: string;
  settle: (claims: AccessClaims | null) => void;
}

export class Identification {
  private readonly answers = new Map<string, Answer>();
  /** checks admitted and not yet answered (queued or running), by token key */
  private readonly running = new Map<string, Promise<AccessClaims | null>>();
  private readonly queue: Waiting[] = [];
  private inFlight = 0;
  private startScheduled = false;
  private readonly perAddress: KeyedBuckets;
  private readonly global: Bucket;

  constructor(
    private readonly verify: (token: string) => Promise<AccessClaims | null>,
    private readonly limits: IdentificationLimits,
    private readonly counter: IdentificationCounter,
    /** monotonic milliseconds for the buckets and the cache */
    private readonly now: () => number = () => performance.now(),
    private readonly defer: Defer = (start) => void setImmediate(start),
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
    const verification = this.enqueue(token);
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

  /** Verifications admitted and not yet started. */
  get queued(): number {
    return this.queue.length;
  }

  /** Takes a verification from the address's and the server's budgets, or neither. */
  private admit(address: string, now: number): boolean {
    if (this.queue.length >= this.limits.maxQueued) return false;
    if (!this.perAddress.take(address, now)) return false;
    if (takeFrom(this.global, this.limits.global, now)) return true;
    this.perAddress.giveBack(address);
    return false;
  }

  /** The claims of `token` once its turn has come and its verification has run. */
  private enqueue(token: string): Promise<AccessClaims | null> {
    return new Promise((settle) => {
      this.queue.push({ token, settle });
      this.scheduleStart();
    });
  }

  /** Starts the next waiting verification in a later turn, if one may run. */
  private scheduleStart(): void {
    if (this.startScheduled || this.queue.length === 0 || this.inFlight >= this.limits.maxInFlight) return;
    this.startScheduled = true;
    this.defer(() => {
      this.startScheduled = false;
      this.startNext();
    });
  }

  private startNext(): void {
    const next = this.queue.shift();
    if (!next) return;
    this.inFlight++;
    void this.verify(next.token)
      .catch(() => null)
      .then((claims) => {
        this.inFlight--;
        next.settle(claims);
        this.scheduleStart();
      });
    this.scheduleStart(); // with more than one allowed at once, the next starts a turn later
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
