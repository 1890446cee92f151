/**
 * Test harness: the accounts module mounted on a real uWebSockets.js app on a free port,
 * plus real supabase-js clients. On PGlite in a temp data dir, or on PostgreSQL when
 * TEST_DATABASE_URL is set (a fresh schema per server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import pg from 'pg';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { loadUws } from '../../server/uws';
import { createAccounts, type AccountsModule, type CreateAccountsOptions } from '../../server/accounts';
import { freshDataDir } from '../support/pgliteTemplate';

export type Backend = 'pglite' | 'postgres';

export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestServer {
  url: string;
  port: number;
  accounts: AccountsModule;
  anonKey: string;
  dataDir: string;
  dbSchema?: string;
  client(extra?: { storage?: Storage; headers?: Record<string, string> }): SupabaseClient;
  /** Stops listening and closes the module (the data stays for a restart). */
  stop(): Promise<void>;
  /** stop() plus removing the data dir / schema (also when reused from a stopped server). */
  destroy(): Promise<void>;
}

type Storage = { getItem(k: string): string | null; setItem(k: string, v: string): void; removeItem(k: string): void };

export function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

const quietLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A real supabase-js client for Node (no session refresh or URL detection). */
export function nodeSupabaseClient(url: string, anonKey: string, extra: { storage?: Storage; headers?: Record<string, string> } = {}): SupabaseClient {
  return createClient(url, anonKey, {
    auth: {
      persistSession: Boolean(extra.storage),
      storage: extra.storage,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    },
    // Node 20 has no global WebSocket; realtime is not used here but the client builds it.
    realtime: { transport: WebSocket as never },
    global: { headers: extra.headers ?? {} },
  });
}

export interface StartOptions extends Partial<CreateAccountsOptions> {
  backend?: Backend;
  /** Reuse a data dir / schema (restart tests). */
  reuse?: { dataDir: string; dbSchema?: string };
}

export async function startAccountsServer(opts: StartOptions = {}): Promise<TestServer> {
  const { backend = 'pglite', reuse, ...rest } = opts;
  const uws = loadUws();
  const app = uws.App();
  const listenSocket = await new Promise<NonNullable<Parameters<Parameters<typeof app.listen>[2]>[0]>>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (ls) => (ls ? resolve(ls) : reject(new Error('listen failed')))),
  );
  const port = uws.us_socket_local_port(listenSocket as never);
  const url = `http://127.0.0.1:${port}`;
  const dataDir = reuse?.dataDir ?? (backend === 'pglite' ? await freshDataDir('accounts-test-') : mkdtempSync(join(tmpdir(), 'accounts-test-')));
  const dbSchema =
    backend === 'postgres' ? (reuse?.dbSchema ?? `acc_${randomBytes(6).toString('hex')}`) : undefined;
  let accounts: AccountsModule;
  try {
    accounts = await createAccounts({
      dataDir,
      siteUrl: 'http://localhost:5173',
      publicUrl: url,
      logger: quietLogger,
      nodeEnv: 'test',
      databaseUrl: backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      dbSchema,
      // generous limits so the suite itself is not throttled; the rate-limit test lowers them
      rateLimits: { token: 10_000, sensitive: 10_000, emailIntervalSeconds: 60 },
      argon2: { memoryCost: 8192, timeCost: 1, parallelism: 1 },
      ...rest,
    });
  } catch (err) {
    uws.us_listen_socket_close(listenSocket);
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  accounts.mount(app);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    uws.us_listen_socket_close(listenSocket);
    await accounts.close();
  };
  return {
    url,
    port,
    accounts,
    anonKey: accounts.info.anonKey,
    dataDir,
    dbSchema,
    client(extra = {}) {
      return nodeSupabaseClient(url, accounts.info.anonKey, extra);
    },
    stop,
    async destroy() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (dbSchema && process.env.TEST_DATABASE_URL) {
        const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${dbSchema}" CASCADE`);
        await c.end();
      }
    },
  };
}

export interface InboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  sentAt: string;
}

/** The development inbox of the accounts at `server.url` (this harness's server, or a server process). */
export async function inbox(server: Pick<TestServer, 'url'>): Promise<InboxEntry[]> {
  const r = await fetch(`${server.url}/dev/mail`);
  if (!r.ok) throw new Error(`/dev/mail answered ${r.status}`);
  return (await r.json()) as InboxEntry[];
}

/** The newest message to `to` (waits briefly: mail is sent before the answer, so it is there). */
export async function lastMailTo(server: TestServer, to: string): Promise<InboxEntry> {
  const m = (await inbox(server)).find((x) => x.to === to);
  if (!m) throw new Error(`no message to ${to}`);
  return m;
}

let counter = 0;
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}.${Date.now().toString(36)}${counter}${randomBytes(2).toString('hex')}@example.com`;
}

/** GET a verify link without following it; returns the parsed hash of the 303 Location. */
export async function followLink(link: string): Promise<{ status: number; location: string; hash: URLSearchParams }> {
  const r = await fetch(link, { redirect: 'manual' });
  const location = r.headers.get('location') ?? '';
  return { status: r.status, location, hash: new URLSearchParams(location.split('#')[1] ?? '') };
}
