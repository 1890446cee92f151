/**
 * The lobby's hooks and the challenges of a site of several nodes, in Redis: one hash of records
 * per kind (JSON by id) and one of when each record's creator was last seen, and where. Any node
 * reads and changes them; taking a record is atomic, so of two nodes accepting one challenge (or
 * joining one hook) at once, one gets it. Changes are announced on the site's lobby channel, which
 * every node follows. Redis keeps them across a restart of any node.
 */
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { Logger } from 'pino';
import { challengeSchema, hookSchema } from '../../machines/protocol/schemas';
import type { LobbyNews, LobbyStore, Records, Seen } from '../lobby/records';
import type { ClusterKeys } from './keys';

/** HGET then HDEL of one field, and of its seen entry: the record to exactly one taker. */
const TAKE = `local v = redis.call('HGET', KEYS[1], ARGV[1])
if v then redis.call('HDEL', KEYS[1], ARGV[1]); redis.call('HDEL', KEYS[2], ARGV[1]) end
return v`;

class RedisRecords<T extends { id: string }> implements Records<T> {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly seenKey: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  private read(text: string | null | undefined): T | null {
    if (!text) return null;
    try {
      const parsed = this.schema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async put(rec: T): Promise<void> {
    await this.redis.hset(this.key, rec.id, JSON.stringify(rec));
  }
  async take(id: string): Promise<T | null> {
    return this.read((await this.redis.eval(TAKE, 2, this.key, this.seenKey, id)) as string | null);
  }
  async get(id: string): Promise<T | null> {
    return this.read(await this.redis.hget(this.key, id));
  }
  async all(): Promise<T[]> {
    const all = await this.redis.hgetall(this.key);
    return Object.values(all).flatMap((text) => this.read(text) ?? []);
  }
  async seen(ids: readonly string[], seen: Seen): Promise<void> {
    if (ids.length === 0) return;
    const value = `${seen.at}:${seen.node}`;
    await this.redis.hset(this.seenKey, Object.fromEntries(ids.map((id) => [id, value])));
  }
  async forgetSeen(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.redis.hdel(this.seenKey, ...ids);
  }
  async lastSeen(): Promise<Map<string, Seen>> {
    const all = await this.redis.hgetall(this.seenKey);
    const out = new Map<string, Seen>();
    for (const [id, value] of Object.entries(all)) {
      const at = Number(value.slice(0, value.indexOf(':')));
      if (Number.isFinite(at)) out.set(id, { at, node: value.slice(value.indexOf(':') + 1) });
    }
    return out;
  }
}

function readNews(text: string): LobbyNews | null {
  try {
    const news = JSON.parse(text) as { k?: unknown; c?: unknown };
    if (news.k === 'hooks') return { k: 'hooks' };
    if (news.k !== 'challenge') return null;
    const c = challengeSchema.safeParse(news.c);
    return c.success ? { k: 'challenge', c: c.data } : null;
  } catch {
    return null;
  }
}

/** The site's lobby in Redis; `sub` is the node's subscribing connection (its messages for the lobby channel are passed to `received`). */
export function redisLobbyStore(cmd: Redis, keys: ClusterKeys, logger: Logger): LobbyStore & { channel: string; received(text: string): void } {
  const handlers: ((news: LobbyNews) => void)[] = [];
  const channel = keys.lobby;
  return {
    hooks: new RedisRecords(cmd, keys.records('hooks'), keys.recordsSeen('hooks'), hookSchema),
    challenges: new RedisRecords(cmd, keys.records('challenges'), keys.recordsSeen('challenges'), challengeSchema),
    channel,
    announce: (news) => {
      cmd.publish(channel, JSON.stringify(news)).catch((err: Error) => logger.warn({ err: err.message, k: news.k }, 'lobby news not sent'));
    },
    onNews: (h) => void handlers.push(h),
    flush: () => Promise.resolve(),
    received: (text) => {
      const news = readNews(text);
      if (!news) return logger.error({ bytes: text.length }, 'unreadable lobby news; ignored');
      for (const h of handlers) h(news);
    },
  };
}
