/**
 * Request limits are the site's, not each node's: a budget spent on one node is spent on all
 * (sign-in guessing, new sockets per address), the per-account sign-in back-off holds on every
 * node, and while Redis is unreachable each node keeps limiting on its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Redis } from 'ioredis';
import type { RunningServer } from '../../server/app';
import { ClusterKeys } from '../../server/cluster/keys';
import { SharedLimits } from '../../server/cluster/sharedLimits';
import { TRY_AGAIN_LATER_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import { connectRateRefusal } from '../../server/realtime/admission';
import { TestClient, startTestServer } from '../server/helpers';
import { testSite, REDIS_URL, type TestSite } from './site';
import { RedisProxy, hostPort } from './redisProxy';

let site: TestSite;
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await site?.destroy();
});

function redisAt(url: string): Redis {
  const r = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 100, lazyConnect: true });
  r.on('error', () => {});
  closers.push(async () => r.disconnect());
  return r;
}

/** Two nodes' limits on one site. */
async function twoNodes(url = REDIS_URL): Promise<[SharedLimits, SharedLimits]> {
  site = testSite();
  const keys = new ClusterKeys(site.options.prefix);
  const log = pino({ level: 'silent' });
  const [a, b] = [redisAt(url), redisAt(url)];
  await Promise.all([a.connect(), b.connect()]);
  return [new SharedLimits(a, keys, log), new SharedLimits(b, keys, log)];
}

describe('limits shared by the nodes', () => {
  it('spends one budget per address over every node', async () => {
    const [a, b] = await twoNodes();
    const onA = a.limiter('token', 4, 60_000);
    const onB = b.limiter('token', 4, 60_000);
    const answers = [await onA.take('203.0.113.9'), await onB.take('203.0.113.9'), await onA.take('203.0.113.9'), await onB.take('203.0.113.9')];
    expect(answers).toEqual([true, true, true, true]);
    expect(await onA.take('203.0.113.9')).toBe(false);
    expect(await onB.take('203.0.113.9')).toBe(false);
    // another address has its own budget
    expect(await onB.take('198.51.100.7')).toBe(true);
  });

  it('locks an account on every node once it is locked on one', async () => {
    const [a, b] = await twoNodes();
    const policy = { freeFailures: 2, baseLockMs: 60_000, maxLockMs: 900_000 };
    const onA = a.loginBackoff(policy);
    const onB = b.loginBackoff(policy);
    await onA.failed('email:ann@example.test');
    await onB.failed('email:ann@example.test');
    expect(await onA.waitSeconds('email:ann@example.test')).toBeGreaterThan(55);
    expect(await onB.waitSeconds('email:ann@example.test')).toBeGreaterThan(55);
    await onB.succeeded('email:ann@example.test');
    expect(await onA.waitSeconds('email:ann@example.test')).toBe(0);
  });

  it('keeps limiting on each node while Redis is unreachable', async () => {
    const proxy = new RedisProxy(hostPort(REDIS_URL));
    await proxy.start();
    closers.push(() => proxy.stop());
    const [a] = await twoNodes(proxy.url);
    await proxy.block();
    const onA = a.limiter('signup', 2, 60_000);
    expect([await onA.take('203.0.113.9'), await onA.take('203.0.113.9'), await onA.take('203.0.113.9')]).toEqual([true, true, false]);
  });

  it('closes a new socket (1013, with the reason) on one node once the address used its connect budget on the other', async () => {
    site = testSite();
    const servers: RunningServer[] = [];
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startTestServer({
          cluster: site.options,
          serverSecret: 'x'.repeat(32),
          admission: { maxSockets: 0, socketsPerAddress: 0, connectRate: { burst: 3, perSecond: 0.01 } },
        }),
      );
    }
    closers.push(() => Promise.all(servers.map((s) => s.close())));
    const opened: TestClient[] = [];
    closers.push(() => Promise.all(opened.map((c) => c.close())));
    for (const s of [servers[0], servers[1], servers[0]]) {
      const admitted = await TestClient.connect(s.url);
      opened.push(admitted);
      // The site's check runs once the socket is open, and the socket's messages wait for it: an
      // answer means this socket's token was taken before the next socket asks for one.
      admitted.send('checkActiveGame', {});
      await admitted.next('activeGameStatus');
    }
    const refused = new TestClient(servers[1].url);
    opened.push(refused);
    expect(await refused.closed).toEqual({ code: TRY_AGAIN_LATER_CLOSE_CODE, reason: connectRateRefusal(1).message });
  });
});
