/**
 * Security of the real process (server/main.ts) as a newcomer starts it: no NODE_ENV, no SMTP,
 * accounts on the embedded database. Requests from another address are made by binding the
 * server to 0.0.0.0 and calling it on this machine's own non-loopback address.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSupabaseClient } from '../accounts/harness';
import { startProcess, type Proc } from './serverProcess';
import { startServer } from '../../server/app';
import { freshDataDir } from '../support/pgliteTemplate';

/** An IPv4 address of this machine that is not loopback, if it has one. */
function ownOutsideAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

const outside = ownOutsideAddress();

/** GET with exactly these headers (fetch would not send a Host of our choosing). */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('a default start (npm start without settings)', () => {
  let proc: Proc;
  beforeAll(async () => {
    // the embedded database made in advance (a copy of the tests' template): an initdb would
    // cost seconds of CPU and test nothing here
    proc = await startProcess({ NODE_ENV: undefined, HOST: '0.0.0.0', ACCOUNTS_ENABLED: undefined, DATA_DIR: await freshDataDir('sec-data-') });
  }, 120_000);
  afterAll(async () => {
    proc?.child.kill('SIGTERM');
    await proc?.exit;
  });

  it.skipIf(!outside)('keeps password-reset links from anyone but the server\'s own machine', async () => {
    const { supabaseUrl, supabaseAnonKey } = (await (await fetch(`${proc.url}/config.json`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
    const supabase = nodeSupabaseClient(supabaseUrl, supabaseAnonKey);
    const email = `victim-${Date.now()}@example.com`;
    expect((await supabase.auth.signUp({ email, password: 'victim-password-1' })).error).toBeNull();
    expect((await supabase.auth.resetPasswordForEmail(email)).error).toBeNull();

    // the newcomer on their own machine can read the mail: registration works without SMTP (the
    // reset mail goes out a moment after the answer, at a random point: the answer's time tells nothing)
    const subjects = async () => {
      const local = await fetch(`${proc.url}/dev/mail`);
      expect(local.status).toBe(200);
      const mails = (await local.json()) as { to: string; subject: string; links: string[] }[];
      return mails.filter((m) => m.to === email).map((m) => m.subject);
    };
    await expect.poll(subjects, { timeout: 5_000 }).toEqual(expect.arrayContaining(['Reset your password']));

    // anyone else is refused, and sees no link
    const remote = await fetch(`http://${outside}:${proc.port}/dev/mail`);
    expect(remote.status).toBe(403);
    expect(await remote.text()).not.toContain('token=');
    // a forged forwarding header or Host from this machine does not open it either
    const forgeries: Record<string, string>[] = [{ 'X-Forwarded-For': '127.0.0.1' }, { Host: `${outside}:${proc.port}` }];
    for (const headers of forgeries) {
      expect(await rawGet(`${proc.url}/dev/mail`, headers), JSON.stringify(headers)).toBe(403);
    }
    const warning = proc.lines.map((l) => JSON.parse(l)).find((j) => /development inbox/i.test(j.msg));
    expect(warning?.level).toBe(40);
  });
});

describe('/metrics in production', () => {
  it.skipIf(!outside)('is served to this machine only without METRICS_TOKEN, and to the token\'s bearer with it', async () => {
    const open = await startProcess({ HOST: '0.0.0.0', DATA_DIR: mkdtempSync(join(tmpdir(), 'sec-metrics-')) });
    const token = 'metrics-token-0123456789';
    const locked = await startProcess({ HOST: '0.0.0.0', METRICS_TOKEN: token, DATA_DIR: mkdtempSync(join(tmpdir(), 'sec-metrics-')) });
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
      expect((await fetch(`http://${outside}:${open.port}/metrics`)).status).toBe(403);
      expect(await rawGet(`${open.url}/metrics`, { 'X-Forwarded-For': '127.0.0.1', Host: `${outside}:${open.port}` })).toBe(403);
      expect((await fetch(`http://${outside}:${locked.port}/metrics`)).status).toBe(401);
      expect((await fetch(`${locked.url}/metrics`, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      const ok = await fetch(`http://${outside}:${locked.port}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/^# HELP chess_/m);
    } finally {
      for (const p of [open, locked]) p.child.kill('SIGTERM');
      await Promise.all([open.exit, locked.exit]);
    }
  }, 60_000);
});

describe('page headers', () => {
  it('every page and file carries the Content-Security-Policy and the other security headers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-static-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    const server = await startServer({ port: 0, host: '127.0.0.1', staticDir: dir, connectOrigins: ['https://chess.example.org', 'https://abc.supabase.co/'] });
    try {
      for (const path of ['/', '/chess/multiplayer', '/index.html']) {
        const res = await fetch(`${server.url}${path}`);
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp, path).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("connect-src 'self' https://chess.example.org wss://chess.example.org https://abc.supabase.co wss://abc.supabase.co");
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('referrer-policy')).toBe('same-origin');
      }
    } finally {
      await server.close();
    }
  });
});
