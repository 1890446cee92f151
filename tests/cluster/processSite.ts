/**
 * Node processes of one test site (a key prefix and a schema of their own on the test Redis and
 * PostgreSQL), for tests that hold a node up (SIGSTOP) or watch its Redis keys: each node with the
 * name it goes by, a Redis client and the site's key names, and the test's clients, all ended by
 * `stop()` (a held-up node is let go on first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ClusterKeys } from '../../server/cluster/keys';
import { afterEach } from 'vitest';
import { TestClient } from '../server/helpers';
import { killProcess, startProcess, type Proc } from '../server/serverProcess';
import { nodeEnv } from './balancedSite';
import { REDIS_URL, testSite } from './site';

export interface ProcessNode {
  proc: Proc;
  /** the node's name (its channel, its games' owner), as its /healthz says */
  name: string;
}

export interface ProcessSite {
  nodes: ProcessNode[];
  keys: ClusterKeys;
  redis: Redis;
  /** a client on `node`'s socket, closed by closeClients() or stop() */
  connect(node: ProcessNode): Promise<TestClient>;
  closeClients(): Promise<void>;
  stop(): Promise<void>;
}

/** `count` node processes of a new test site, each listening. */
export async function processSite(count: number): Promise<ProcessSite> {
  const site = testSite();
  const dataDir = mkdtempSync(join(tmpdir(), 'site-'));
  const redis = new Redis(REDIS_URL);
  const nodes: ProcessNode[] = [];
  const clients: TestClient[] = [];
  const closeClients = async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  };
  const stop = async () => {
    for (const n of nodes) if (n.proc.child.exitCode === null) n.proc.child.kill('SIGCONT');
    await closeClients();
    await Promise.all(nodes.splice(0).map((n) => killProcess(n.proc)));
    redis.disconnect();
    await site.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 1; i <= count; i++) {
      const proc = await startProcess(nodeEnv(site, join(dataDir, `node${i}`)));
      nodes.push({ proc, name: '' });
      const { node } = (await (await fetch(proc.url + '/healthz')).json()) as { node: string };
      nodes[i - 1]!.name = node;
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    nodes,
    keys: new ClusterKeys(site.options.prefix),
    redis,
    async connect(node) {
      const c = await TestClient.connect(node.proc.url);
      clients.push(c);
      return c;
    },
    closeClients,
    stop,
  };
}

/** Node processes of a test site per test: `start(count)` starts them, and they are stopped after each test. */
export function useProcessSite(): { start(count: number): Promise<ProcessSite> } {
  let site: ProcessSite | undefined;
  afterEach(async () => {
    await site?.stop();
    site = undefined;
  });
  return {
    async start(count) {
      site = await processSite(count);
      return site;
    },
  };
}
