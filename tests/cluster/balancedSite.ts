/**
 * A site as an operator runs it on one machine (docs/operations.md): three server processes
 * sharing the test Redis and PostgreSQL (a key prefix and schema of their own), behind HAProxy
 * started with the repository's deploy/haproxy.cfg.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { killProcess, startProcess, type Proc } from '../server/serverProcess';
import { testSite, type TestSite } from './site';

export const HAPROXY_CONFIG = resolve(import.meta.dirname, '../../deploy/haproxy.cfg');

export interface BalancedSite {
  site: TestSite;
  nodes: Proc[];
  /** the balancer's address (http://127.0.0.1:port) */
  url: string;
  /** when the last node listened (performance.now()) */
  listeningAt: number;
  /** what HAProxy wrote (servers going down and up, refusals) */
  balancerLog(): string;
  /** every node's /healthz answer */
  health(): Promise<{ node: string; games: number; connections: number; ok: boolean }[]>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The secret every node of a test site shares (guest identities made on one hold on all). */
export const SITE_SECRET = 'a-test-site-secret-shared-by-every-node';

/** The environment of one node of `site`. */
export function nodeEnv(site: TestSite, dataDir: string): Record<string, string> {
  return {
    REDIS_URL: site.options.redisUrl,
    REDIS_PREFIX: site.options.prefix,
    DATABASE_URL: site.options.databaseUrl,
    DATABASE_SCHEMA: site.options.databaseSchema!,
    SERVER_SECRET: SITE_SECRET,
    DATA_DIR: dataDir,
    TRUST_PROXY: '127.0.0.1',
    // every node may hold many test sockets from the one loopback address
    MAX_SOCKETS_PER_ADDRESS: '0',
    CONNECTS_PER_ADDRESS_PER_SECOND: '0',
  };
}

async function waitForHealthy(url: string, timeoutMs = 10_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url + '/healthz')).ok) return;
    } catch {
      // not up yet
    }
    if (performance.now() > until) throw new Error(`${url} did not become healthy`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * HAProxy with `config` and the addresses of `env` (SITE_BIND, NODE1..NODE3); its messages
 * (stderr) and its log of requests and WebSocket sessions (stdout) go to `log`.
 */
export function spawnBalancer(config: string, env: Record<string, string>, log: { text: string }): ChildProcess {
  const balancer = spawn('haproxy', ['-db', '-f', config], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  balancer.stdout!.on('data', (d) => (log.text += d));
  balancer.stderr!.on('data', (d) => (log.text += d));
  return balancer;
}

/** HAProxy with deploy/haproxy.cfg in front of `nodes`; resolves with its address once it passes requests on. */
async function startBalancer(nodes: Proc[], started: (b: ChildProcess) => void, log: { text: string }): Promise<string> {
  const port = await freePort();
  const env: Record<string, string> = { SITE_BIND: `127.0.0.1:${port}` };
  nodes.forEach((n, i) => (env[`NODE${i + 1}`] = `127.0.0.1:${n.port}`));
  started(spawnBalancer(HAPROXY_CONFIG, env, log));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(url);
  } catch (err) {
    throw new Error(`${(err as Error).message}: ${log.text}`);
  }
  return url;
}

/** Three nodes and the balancer; resolves once the balancer passes requests to a healthy node. */
export async function startBalancedSite(count = 3): Promise<BalancedSite> {
  const site = testSite();
  const dataDir = mkdtempSync(join(tmpdir(), 'site-'));
  const nodes: Proc[] = [];
  let balancer: ChildProcess | null = null;
  const balancerLog = { text: '' };
  const stop = async () => {
    balancer?.kill('SIGKILL');
    await Promise.all(nodes.map(killProcess));
    rmSync(dataDir, { recursive: true, force: true });
    await site.destroy();
  };
  let url: string;
  let listeningAt: number;
  try {
    for (let i = 0; i < count; i++) nodes.push(await startProcess(nodeEnv(site, join(dataDir, `node${i + 1}`))));
    listeningAt = performance.now();
    url = await startBalancer(nodes, (b) => (balancer = b), balancerLog);
  } catch (err) {
    // nothing of a site that did not start is left running
    await stop();
    throw err;
  }
  return {
    site,
    nodes,
    url,
    listeningAt,
    balancerLog: () => balancerLog.text,
    async health() {
      return Promise.all(
        nodes.map(async (n) => {
          try {
            return (await (await fetch(n.url + '/healthz')).json()) as { node: string; games: number; connections: number; ok: boolean };
          } catch {
            return { node: '', games: 0, connections: 0, ok: false };
          }
        }),
      );
    },
    stop,
  };
}
