/**
 * A test's own site of nodes in this process (on the test Redis and PostgreSQL, under a prefix
 * and schema of its own) and its clients: after each test the clients are closed, then the
 * nodes, then the site's keys and schema removed. As useServerPerTest, for several nodes.
 */
import { afterEach } from 'vitest';
import type { RunningServer, StartServerOptions } from '../../server/app';
import type { GuestCredentials } from '../../machines/protocol/guestClaim';
import { TestClient, startTestServer } from '../server/helpers';
import { testSite, type TestSite } from './site';

export interface NodesPerTest {
  /** starts this test's site of `count` nodes (startTestServer under `opts`, on the site) */
  start(count: number, opts?: StartServerOptions): Promise<RunningServer[]>;
  /** a client on `node`: a new guest, or `guest` coming back */
  connect(node: RunningServer, guest?: GuestCredentials | null): Promise<TestClient>;
  /** where this test's site keeps its keys and its schema (after start) */
  options(): TestSite['options'];
}

export function useNodesPerTest(): NodesPerTest {
  let site: TestSite | null = null;
  const nodes: RunningServer[] = [];
  const clients: TestClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(nodes.splice(0).map((s) => s.close()));
    await site?.destroy();
    site = null;
  });
  return {
    async start(count, opts = {}) {
      const s = (site = testSite());
      for (let i = 0; i < count; i++) nodes.push(await startTestServer({ cluster: s.options, serverSecret: 'x'.repeat(32), ...opts }));
      return [...nodes];
    },
    options() {
      if (!site) throw new Error('the site is not started');
      return site.options;
    },
    async connect(node, guest = null) {
      const c = await TestClient.connect(node.url, guest);
      clients.push(c);
      return c;
    },
  };
}
