/**
 * The node's two Redis connections: one for commands (it fails fast while Redis is away, so a
 * move never waits on a reconnect) and one subscribed to the node's channel. Both reconnect on
 * their own; `reachable` says whether the command connection answers right now.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisLink {
  cmd: Redis;
  sub: Redis;
  /** false from a connection's loss until it is ready again */
  readonly reachable: boolean;
  /** `fn` runs whenever `reachable` changes */
  onChange(fn: (reachable: boolean) => void): void;
  close(): Promise<void>;
}

/** How long a command may wait for an answer before it counts as failed. */
const COMMAND_TIMEOUT_MS = 1000;
/** Reconnect attempts: every 200 ms at first, then at most once a second. */
const retryDelay = (attempt: number) => Math.min(200 * attempt, 1000);

function connect(url: string, name: string, log: Logger, onState: (up: boolean) => void): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: retryDelay,
  });
  let up = false;
  redis.on('ready', () => {
    if (!up) log.info({ connection: name }, 'redis connected');
    up = true;
    onState(true);
  });
  redis.on('close', () => {
    if (up) log.error({ connection: name }, 'redis connection lost; reconnecting');
    up = false;
    onState(false);
  });
  // errors come with 'close' too; ioredis wants a listener so they are not thrown
  redis.on('error', () => {});
  return redis;
}

/** Opens both connections; rejects with the reason when Redis cannot be reached at start. */
export async function openRedis(url: string, node: string, log: Logger): Promise<RedisLink> {
  const state = { cmd: false, sub: false };
  const listeners: ((reachable: boolean) => void)[] = [];
  let was = false;
  const changed = () => {
    const now = state.cmd && state.sub;
    if (now === was) return;
    was = now;
    for (const fn of listeners) fn(now);
  };
  const cmd = connect(url, `chess-${node}`, log, (up) => {
    state.cmd = up;
    changed();
  });
  const sub = connect(url, `chess-${node}-sub`, log, (up) => {
    state.sub = up;
    changed();
  });
  try {
    await Promise.all([cmd.connect(), sub.connect()]);
  } catch (err) {
    cmd.disconnect();
    sub.disconnect();
    throw new Error(`cannot reach Redis at ${redactedUrl(url)}: ${(err as Error).message}`);
  }
  return {
    cmd,
    sub,
    get reachable() {
      return state.cmd && state.sub;
    },
    onChange(fn) {
      listeners.push(fn);
    },
    async close() {
      await Promise.allSettled([cmd.quit(), sub.quit()]);
    },
  };
}

/** One command connection (request limits shared by the nodes); rejects when Redis cannot be reached. */
export async function openRedisCommands(url: string, name: string, log: Logger): Promise<Redis> {
  const redis = connect(url, name, log, () => {});
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${redactedUrl(url)}: ${(err as Error).message}`);
  }
  return redis;
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * A pipeline's or transaction's replies: ioredis answers each command's error in them instead of
 * rejecting, so the first one is thrown here (and a transaction that did not run is a failure).
 */
export function execOrThrow(replies: [Error | null, unknown][] | null): void {
  if (replies === null) throw new Error('the pipeline was not run (its connection is down)');
  const failed = replies.find(([err]) => err !== null);
  if (failed) throw failed[0];
}
