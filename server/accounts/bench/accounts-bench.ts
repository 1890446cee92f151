/**
 * npm run bench:accounts — sign-ins per second and their latency, and profile reads per second,
 * against the accounts module on a real uWebSockets.js app (PGlite in a temp dir, or PostgreSQL
 * with BENCH_DATABASE_URL), each next to a peer measured in the same run:
 *  - sign-in vs argon2id verify alone (same parameters, same concurrency): the hash is the floor;
 *  - profile read vs GET /auth/v1/settings (same HTTP stack, no database).
 * Several runs; medians are printed. Options: --runs 3 --seconds 5 --concurrency 4
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import argon2 from 'argon2';
import pino from 'pino';
import pg from 'pg';
import { loadUws } from '../../uws';
import { createAccounts } from '../index';
import { ACCOUNTS_DEFAULTS } from '../../config/accounts';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const RUNS = opt('runs', 3);
const SECONDS = opt('seconds', 5);
const CONCURRENCY = opt('concurrency', 4);
const READ_CONCURRENCY = opt('read-concurrency', 16);
const USERS = 20;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** Runs `op` from `concurrency` loops for `seconds`; returns ops/s and latencies (ms). */
async function load(op: (i: number) => Promise<void>, concurrency: number, seconds: number) {
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await op(i++);
        lat.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: lat.length / elapsed, p50: pct(lat, 50), p99: pct(lat, 99), n: lat.length };
}

async function main() {
  const loadStart = loadavg()[0].toFixed(1);
  const params = ACCOUNTS_DEFAULTS.argon2;
  const dataDir = mkdtempSync(join(tmpdir(), 'accounts-bench-'));
  const schema = process.env.BENCH_DATABASE_URL ? `bench_${Date.now()}` : undefined;
  const uws = loadUws();
  const app = uws.App();
  const port = await new Promise<number>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (ls) => (ls ? resolve(uws.us_socket_local_port(ls)) : reject(new Error('listen')))),
  );
  const url = `http://127.0.0.1:${port}`;
  const accounts = await createAccounts({
    dataDir,
    siteUrl: url,
    publicUrl: url,
    logger: pino({ level: 'warn' }),
    databaseUrl: process.env.BENCH_DATABASE_URL,
    dbSchema: schema,
    autoconfirm: true,
    rateLimits: { token: 1e9, sensitive: 1e9 },
  });
  accounts.mount(app);
  const headers = { 'Content-Type': 'application/json', apikey: accounts.info.anonKey };
  const post = async (path: string, body: unknown) => {
    const r = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const users: { email: string; username: string }[] = [];
  for (let i = 0; i < USERS; i++) {
    const email = `bench${i}@example.com`;
    const s = await post('/auth/v1/signup', { email, password: 'bench-password' });
    const username = `bench_user_${i}`;
    const r = await fetch(`${url}/rest/v1/profiles?on_conflict=id`, {
      method: 'POST',
      headers: { ...headers, Authorization: `Bearer ${s.access_token as string}`, Prefer: 'resolution=merge-duplicates' },
      body: JSON.stringify({ id: (s.user as { id: string }).id, username, first_name: 'B', last_name: 'U' }),
    });
    if (r.status !== 201) throw new Error(`profile insert answered ${r.status}`);
    users.push({ email, username });
  }
  const hash = await argon2.hash('bench-password', { type: argon2.argon2id, ...params });

  const rows: Record<string, number[]> = {};
  const add = (k: string, v: number) => (rows[k] ??= []).push(v);
  // sequential sign-in latency (what one user waits for)
  for (let run = 0; run < RUNS; run++) {
    const seq: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await post('/auth/v1/token?grant_type=password', { email: users[i % USERS].email, password: 'bench-password' });
      seq.push(performance.now() - t);
    }
    add('sign-in alone p50 ms', median(seq));
    const seqPeer: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await argon2.verify(hash, 'bench-password');
      seqPeer.push(performance.now() - t);
    }
    add('argon2 verify alone p50 ms (peer)', median(seqPeer));
    add('sign-in alone / argon2 alone ratio', median(seq) / median(seqPeer));
    const signIn = await load(
      (i) => post('/auth/v1/token?grant_type=password', { email: users[i % USERS].email, password: 'bench-password' }).then(() => undefined),
      CONCURRENCY,
      SECONDS,
    );
    const peer = await load(
      () => argon2.verify(hash, 'bench-password').then(() => undefined),
      CONCURRENCY,
      SECONDS,
    );
    add('sign-ins/s', signIn.perSecond);
    add('sign-in p50 ms', signIn.p50);
    add('sign-in p99 ms', signIn.p99);
    add('argon2 verifies/s (peer)', peer.perSecond);
    add('sign-in / argon2 ratio', signIn.perSecond / peer.perSecond);

    const reads = await load(
      async (i) => {
        const r = await fetch(`${url}/rest/v1/profiles?select=username&username=eq.${users[i % USERS].username}`, { headers });
        if (r.status !== 200) throw new Error(`read answered ${r.status}`);
        await r.arrayBuffer();
      },
      READ_CONCURRENCY,
      SECONDS,
    );
    const http = await load(
      async () => {
        const r = await fetch(`${url}/auth/v1/settings`, { headers });
        await r.arrayBuffer();
      },
      READ_CONCURRENCY,
      SECONDS,
    );
    add('profile reads/s', reads.perSecond);
    add('profile read p99 ms', reads.p99);
    add('GET /settings/s (peer, no DB)', http.perSecond);
    add('profile read / settings ratio', reads.perSecond / http.perSecond);
  }
  await accounts.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (process.env.BENCH_DATABASE_URL && schema) {
    const c = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  }

  const db = process.env.BENCH_DATABASE_URL ? 'PostgreSQL (pg)' : 'PGlite';
  process.stdout.write(
    `accounts bench: ${db}, argon2id m=${params.memoryCost} KiB t=${params.timeCost} p=${params.parallelism}, ` +
      `${RUNS} runs x ${SECONDS} s, sign-in concurrency ${CONCURRENCY}, read concurrency ${READ_CONCURRENCY}, ` +
      `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? 4}, 1-min load average ${loadStart} (2 cores)\n`,
  );
  process.stdout.write('| metric | median | runs |\n|---|---|---|\n');
  for (const [k, v] of Object.entries(rows)) {
    const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));
    process.stdout.write(`| ${k} | ${fmt(median(v))} | ${v.map(fmt).join(', ')} |\n`);
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
