/**
 * A site of several nodes for tests: a key prefix and a database schema of its own on the test
 * Redis and PostgreSQL (TEST_REDIS_URL, TEST_DATABASE_URL), so that runs cannot meet.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { RunningServer, SiteOptions } from '../../server/app';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestSite {
  options: SiteOptions;
  /** removes the site's keys and schema */
  destroy(): Promise<void>;
}

export function testSite(): TestSite {
  const id = `t${process.pid}_${randomBytes(4).toString('hex')}`;
  const options: SiteOptions = { redisUrl: REDIS_URL, prefix: `chess-test:${id}`, databaseUrl: DATABASE_URL, databaseSchema: `site_${id}` };
  return {
    options,
    async destroy() {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${options.prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${options.databaseSchema}" CASCADE`);
      await c.end();
    },
  };
}

/** The name a node of a site goes by (its channel, its games' owner), as its /healthz says. */
export async function nodeName(server: RunningServer): Promise<string> {
  return ((await (await fetch(server.url + '/healthz')).json()) as { node: string }).node;
}

/** Polls `check` every 50 ms until it holds; throws, naming `what`, after `ms`. */
export async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`waited in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
