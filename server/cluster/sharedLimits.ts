/**
 * Request limits shared by every node of a site, in Redis: a token bucket per limit and key, and
 * the per-account sign-in back-off. Each check is one script run in Redis, atomic whichever node
 * asks. While Redis cannot be reached, each node falls back to its own in-memory limits (a site
 * keeps limiting, each node on its own), rather than refusing every request or none.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { LOCAL_LIMITS, type RequestLimiter, type RequestLimits, type SignInBackoff } from '../accounts/rate-limit';
import type { ClusterKeys } from './keys';

/** Takes a token: refills `limit` per `windowMs` continuously; 1 taken, 0 spent. */
const TAKE = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or limit
local at = tonumber(b[2]) or now
tokens = math.min(limit, tokens + (now - at) * limit / window)
local ok = 0
if tokens >= 1 then tokens = tokens - 1 ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', now)
redis.call('PEXPIRE', KEYS[1], window)
return ok`;

/** A failed sign-in: counts it and, past the free ones, locks the account (doubling); returns the lock end. */
const FAILED = `
local free = tonumber(ARGV[1])
local base = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
local over = count - free
local until_ = tonumber(redis.call('HGET', KEYS[1], 'until')) or 0
if over >= 0 then until_ = now + math.min(max, base * 2 ^ math.min(over, 30)) redis.call('HSET', KEYS[1], 'until', until_) end
redis.call('PEXPIRE', KEYS[1], math.max(max, until_ - now) + max)
return until_`;

export class SharedLimits implements RequestLimits {
  private warned = false;

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly log: Logger,
  ) {}

  limiter(name: string, limit: number, windowMs: number): RequestLimiter {
    const local = LOCAL_LIMITS.limiter(name, limit, windowMs);
    return {
      take: (key) =>
        this.orLocally(
          async () => (await this.redis.eval(TAKE, 1, this.keys.bucket(name, key), limit, windowMs, Date.now())) === 1,
          () => local.take(key),
        ),
    };
  }

  loginBackoff(policy: { freeFailures: number; baseLockMs: number; maxLockMs: number }): SignInBackoff {
    const local = LOCAL_LIMITS.loginBackoff(policy);
    const key = (account: string) => this.keys.bucket('signin', account);
    return {
      waitSeconds: (account) =>
        this.orLocally(
          async () => {
            const until = Number(await this.redis.hget(key(account), 'until')) || 0;
            const left = until - Date.now();
            return left > 0 ? Math.ceil(left / 1000) : 0;
          },
          () => local.waitSeconds(account),
        ),
      failed: (account) =>
        this.orLocally(
          async () => void (await this.redis.eval(FAILED, 1, key(account), policy.freeFailures, policy.baseLockMs, policy.maxLockMs, Date.now())),
          () => local.failed(account),
        ),
      succeeded: (account) =>
        this.orLocally(
          async () => void (await this.redis.del(key(account))),
          () => local.succeeded(account),
        ),
    };
  }

  /** The shared answer, or this node's own while Redis does not answer (logged once per outage). */
  private async orLocally<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    try {
      const answer = await shared();
      this.warned = false;
      return answer;
    } catch (err) {
      if (!this.warned) this.log.warn({ err: (err as Error).message }, 'shared request limits unreachable; this node limits on its own meanwhile');
      this.warned = true;
      return local();
    }
  }
}
