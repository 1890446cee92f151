/**
 * The accounts database failing under a real server process: a PostgreSQL server that stops
 * answering (a TCP proxy in front of it that holds every byte while frozen), and an embedded
 * database that cannot be opened. Accounts answer 503 quickly with a clear message, /healthz says
 * "degraded", and guests go on playing.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairPlayers, playMoves } from './helpers';
import { startProcess, type Proc } from './serverProcess';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** A TCP proxy to PostgreSQL that, while frozen, accepts and holds every byte both ways. */
class FreezableProxy {
  private frozen = false;
  private held: (() => void)[] = [];
  private sockets = new Set<Socket>();
  private readonly server: Server;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
        this.sockets.add(from);
        from.on('data', (d) => (this.frozen ? this.held.push(() => to.write(d)) : to.write(d)));
        from.on('close', () => to.destroy());
        from.on('error', () => to.destroy());
      }
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const write of this.held.splice(0)) write();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function signIn(url: string, anonKey: string, email: string, password: string): Promise<{ status: number; body: { message?: string }; ms: number }> {
  const t = performance.now();
  const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, body: (await res.json()) as { message?: string }, ms: performance.now() - t };
}

async function health(url: string): Promise<{ status: string; accounts: string }> {
  return (await (await fetch(`${url}/healthz`)).json()) as { status: string; accounts: string };
}

const withPostgres = await postgresReachable();

describe.skipIf(!withPostgres)('a PostgreSQL accounts database that stops answering', () => {
  const schema = `faults_${randomBytes(5).toString('hex')}`;
  const target = new URL(PG_URL);
  const proxy = new FreezableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  let proc: Proc;
  let anonKey: string;
  beforeAll(async () => {
    await proxy.listen();
    const viaProxy = new URL(PG_URL);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    proc = await startProcess({
      ACCOUNTS_ENABLED: '1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'faults-pg-')),
      DATABASE_URL: viaProxy.href,
      DATABASE_SCHEMA: schema,
      DB_QUERY_TIMEOUT_MS: '1000',
      DB_CONNECT_TIMEOUT_MS: '1000',
      AUTH_AUTOCONFIRM: 'true',
    });
    anonKey = ((await (await fetch(`${proc.url}/config.json`)).json()) as { supabaseAnonKey: string }).supabaseAnonKey;
  }, 120_000);
  afterAll(async () => {
    proxy.thaw();
    proc?.child.kill('SIGTERM');
    await proc?.exit;
    await proxy.close();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });

  it('answers sign-ins with 503 within the time limit, reports "degraded", lets guests play, and recovers', async () => {
    const email = `fault-${Date.now()}@example.com`;
    const signUp = await fetch(`${proc.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret123' }),
    });
    expect(signUp.status).toBe(200);
    expect((await signIn(proc.url, anonKey, email, 'secret123')).status).toBe(200);
    expect(await health(proc.url)).toMatchObject({ status: 'ok', accounts: 'ok' });

    proxy.freeze();
    const frozen = await signIn(proc.url, anonKey, email, 'secret123');
    expect(frozen.status).toBe(503);
    expect(frozen.body.message).toMatch(/Accounts are unavailable.*Guest play/);
    expect(frozen.ms).toBeLessThan(4_000);
    await expect.poll(() => health(proc.url), { timeout: 6_000 }).toMatchObject({ status: 'degraded', accounts: 'unavailable' });
    const pair = await pairPlayers(proc.url);
    await playMoves(pair, ['e2e4', 'e7e5', 'g1f3']);

    proxy.thaw();
    await expect.poll(async () => (await signIn(proc.url, anonKey, email, 'secret123')).status).toBe(200);
    await expect.poll(() => health(proc.url), { timeout: 6_000 }).toMatchObject({ status: 'ok', accounts: 'ok' });
  }, 60_000);
});

describe('an embedded accounts database that cannot be opened', () => {
  let proc: Proc;
  beforeAll(async () => {
    // where the embedded database's directory should be, there is a file
    const dataDir = mkdtempSync(join(tmpdir(), 'faults-pglite-'));
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'pg'), 'not a database');
    proc = await startProcess({ ACCOUNTS_ENABLED: '1', DATA_DIR: dataDir });
  }, 120_000);
  afterAll(async () => {
    proc?.child.kill('SIGTERM');
    await proc?.exit;
  });

  it('starts the site anyway: accounts answer 503 saying so, /healthz says degraded, guests play', async () => {
    const res = await fetch(`${proc.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'secret123' }),
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toMatch(/Accounts are unavailable.*Guest play/);
    expect(await health(proc.url)).toMatchObject({ status: 'degraded', accounts: 'unavailable' });
    const logged = proc.lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((j) => /accounts unavailable/.test(j.msg));
    expect(logged?.level).toBe(50);
    expect(logged?.msg).toMatch(/embedded database/);
    const pair = await pairPlayers(proc.url);
    await playMoves(pair, ['d2d4', 'd7d5']);
  });
});
