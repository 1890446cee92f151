/**
 * Module lifecycle: restart on the same data, rate limits, hosted mode, production defaults,
 * configuration validation, and mounting next to a catch-all route.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateKeyPair, exportPKCS8, SignJWT } from 'jose';
import pino from 'pino';
import { loadUws } from '../../server/uws';
import { createAccounts, ConfigError } from '../../server/accounts';
import { loadConfig } from '../../server/config';

/** The accounts' settings a server started with this environment would hand them. */
const accountsFrom = (env: NodeJS.ProcessEnv) => loadConfig(env).accounts;
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestSmtp, type TestSmtp } from './smtp';
import { BACKENDS, followLink, startAccountsServer, uniqueEmail, type TestServer } from './harness';

const cleanup: TestServer[] = [];
afterAll(async () => {
  await Promise.all(cleanup.map((s) => s.destroy()));
});

describe.each(BACKENDS)('restart on %s', (backend) => {
  test('accounts, sessions, profiles, the anon key and the signing key survive a restart', async () => {
    const first = await startAccountsServer({ backend, autoconfirm: true });
    const email = uniqueEmail();
    const c = first.client();
    const { data } = await c.auth.signUp({ email, password: 'secret123' });
    const session = data.session!;
    await c.auth.setSession(session);
    const username = `r_${Date.now().toString(36)}`;
    expect((await c.from('profiles').upsert({ id: session.user.id, username, first_name: 'R', last_name: 'S' })).error).toBeNull();
    const jwksBefore = await (await fetch(`${first.url}/auth/v1/.well-known/jwks.json`)).json();
    if (backend === 'pglite') {
      // a second server on the same data dir while the first runs is refused (PGlite has no locking)
      await expect(startAccountsServer({ reuse: { dataDir: first.dataDir } })).rejects.toThrow(/already open|in use/);
    }
    await first.stop();
    // a stale lock left by a crash, whose pid now belongs to another process, does not block
    writeFileSync(join(first.dataDir, 'accounts.lock'), '1 1');

    const second = await startAccountsServer({
      backend,
      autoconfirm: true,
      reuse: { dataDir: first.dataDir, dbSchema: first.dbSchema },
    });
    cleanup.push(second);
    expect(second.anonKey).toBe(first.anonKey);
    expect(await (await fetch(`${second.url}/auth/v1/.well-known/jwks.json`)).json()).toEqual(jwksBefore);
    // the access token issued before the restart still identifies the user
    expect(await second.accounts.verifyAccessToken(session.access_token)).toMatchObject({ sub: session.user.id, username });
    // the refresh token still works
    const refreshed = await second.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toBeNull();
    // the password and the profile are there
    const c2 = second.client();
    expect((await c2.auth.signInWithPassword({ email, password: 'secret123' })).error).toBeNull();
    const { data: profile } = await c2.from('profiles').select('*').eq('id', session.user.id).single();
    expect(profile).toMatchObject({ username, first_name: 'R', last_name: 'S' });
  }, 180_000);
});

/**
 * One production-like server for several checks (PGlite start-up is the slow part of these tests):
 * NODE_ENV=production, a PEM JWT_PRIVATE_KEY, small rate limits, TRUST_PROXY so each test can
 * pose as its own client IP through X-Forwarded-For.
 */
describe('production-like server', () => {
  let p: TestServer;
  let pem: string;
  let smtp: TestSmtp | undefined;
  afterAll(async () => {
    await smtp?.close();
  });
  beforeAll(async () => {
    // a real SMTP server in-process: the mail must arrive over SMTP, not in the dev inbox
    smtp = await startTestSmtp();
    const smtpPort = smtp.port;
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    pem = await exportPKCS8(privateKey);
    p = await startAccountsServer({
      nodeEnv: 'production',
      devInbox: undefined,
      jwtPrivateKey: pem,
      autoconfirm: true,
      trustProxy: ['127.0.0.1'],
      rateLimits: { token: 5, sensitive: 3, emailIntervalSeconds: 60 },
      publicUrl: undefined, // PUBLIC_URL unset: /config.json answers the origin the browser used
      smtp: { host: '127.0.0.1', port: smtpPort, from: 'Chess <no-reply@chess.test>' },
    });
    cleanup.push(p);
  }, 180_000);
  const as = (ip: string) => p.client({ headers: { 'X-Forwarded-For': ip } });

  test('a burst over the /token limit answers 429 over_request_rate_limit; each endpoint and IP has its own bucket', async () => {
    const c = as('10.0.0.1');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => c.auth.signInWithPassword({ email: 'nobody@example.com', password: 'whatever1' })),
    );
    const codes = results.map((r) => r.error?.code);
    expect(codes.filter((x) => x === 'invalid_credentials')).toHaveLength(5);
    expect(codes.filter((x) => x === 'over_request_rate_limit')).toHaveLength(3);
    expect(results.find((r) => r.error?.code === 'over_request_rate_limit')?.error?.status).toBe(429);

    const signups = [];
    for (let i = 0; i < 4; i++) signups.push(await c.auth.signUp({ email: uniqueEmail(), password: 'secret123' }));
    expect(signups.slice(0, 3).every((r) => r.error === null)).toBe(true);
    expect(signups[3].error?.status).toBe(429);
    expect(signups[3].error?.code).toBe('over_request_rate_limit');

    // another client address is not affected (another account: this one is now locked for a while)
    const other = await as('10.0.0.2').auth.signInWithPassword({ email: 'somebody@example.com', password: 'whatever1' });
    expect(other.error?.code).toBe('invalid_credentials');
  });

  test('JWT_PRIVATE_KEY as PKCS#8 PEM signs the tokens; a wrong ANON_KEY is refused at start', async () => {
    const { data } = await as('10.0.0.3').auth.signUp({ email: uniqueEmail(), password: 'secret123' });
    expect(await p.accounts.verifyAccessToken(data.session!.access_token)).not.toBeNull();
    const { privateKey: otherKey } = await generateKeyPair('ES256');
    const foreignAnonKey = await new SignJWT({ role: 'anon', iss: 'supabase' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuedAt()
      .setExpirationTime('1y')
      .sign(otherKey);
    await expect(startAccountsServer({ jwtPrivateKey: pem, anonKey: foreignAnonKey })).rejects.toThrow(/ANON_KEY/);
  });

  test('without PUBLIC_URL, /config.json answers the origin the request came to', async () => {
    expect(await (await fetch(`${p.url}/config.json`)).json()).toEqual({ supabaseUrl: p.url, supabaseAnonKey: p.anonKey });
    const behindTls = await fetch(`${p.url}/config.json`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(((await behindTls.json()) as { supabaseUrl: string }).supabaseUrl).toBe(p.url.replace('http:', 'https:'));
  });

  test('with SMTP settings the recovery email goes out over SMTP and its link works', async () => {
    const email = uniqueEmail('smtp');
    await as('10.0.0.8').auth.signUp({ email, password: 'secret123' });
    const { error } = await as('10.0.0.8').auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:5173/reset-password' });
    expect(error).toBeNull();
    const [msg] = await smtp!.received(email);
    expect(msg.raw).toMatch(/^From: Chess <no-reply@chess\.test>/m);
    // undo quoted-printable soft breaks and escapes, then find the link
    const text = msg.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?[^\s"<]+/.exec(text)![0];
    // PUBLIC_URL is unset here, so links use SITE_URL (never the request's Host header)
    expect(link.startsWith('http://localhost:5173/auth/v1/verify?')).toBe(true);
    const res = await followLink(link.replace('http://localhost:5173', p.url));
    expect(res.hash.get('type')).toBe('recovery');
    expect(res.hash.get('access_token')).toBeTruthy();
  });

  test('no dev inbox without DEV_INBOX=true: /dev/mail is 404 and SMS codes are refused', async () => {
    const r = await fetch(`${p.url}/dev/mail`);
    expect(r.status).toBe(404);
    const { error } = await as('10.0.0.4').auth.resend({ type: 'sms', phone: '+491511234567' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('phone_provider_disabled');
  });

  test('hosted mode: only /config.json is mounted; tokens of the hosted project are verified against its JWKS', async () => {
    const uws = loadUws();
    const app = uws.App();
    const hosted = await createAccounts({
      dataDir: '/nonexistent-hosted-mode-needs-no-data',
      siteUrl: 'http://localhost:5173',
      logger: pino({ level: 'silent' }),
      config: loadConfig({ SUPABASE_URL: p.url, SUPABASE_ANON_KEY: p.anonKey }).accounts,
    });
    hosted.mount(app);
    app.any('/*', (res) => {
      res.writeStatus('404 Not Found').end('static');
    });
    const port = await new Promise<number>((resolve) =>
      app.listen('127.0.0.1', 0, (ls) => resolve(uws.us_socket_local_port(ls as never))),
    );
    const url = `http://127.0.0.1:${port}`;
    expect(await (await fetch(`${url}/config.json`)).json()).toEqual({ supabaseUrl: p.url, supabaseAnonKey: p.anonKey });
    expect(await (await fetch(`${url}/auth/v1/settings`)).text()).toBe('static');

    const { data } = await as('10.0.0.5').auth.signUp({ email: uniqueEmail(), password: 'secret123' });
    expect(await hosted.verifyAccessToken(data.session!.access_token)).toEqual({ sub: data.user!.id, email: data.user!.email });
    expect(await hosted.verifyAccessToken(p.anonKey)).toBeNull();
    expect(await hosted.verifyAccessToken('x.y.z')).toBeNull();
    await hosted.close();
  });

  test('mounted before a catch-all route, the accounts routes still win', async () => {
    const uws = loadUws();
    const app = uws.App();
    p.accounts.mount(app);
    app.get('/*', (res) => {
      res.end('index.html');
    });
    app.any('/*', (res) => {
      res.writeStatus('404 Not Found').end('none');
    });
    const port = await new Promise<number>((resolve) =>
      app.listen('127.0.0.1', 0, (ls) => resolve(uws.us_socket_local_port(ls as never))),
    );
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/auth/v1/settings`)).headers.get('content-type')).toContain('application/json');
    expect((await fetch(`${url}/rest/v1/profiles?select=username`)).status).toBe(200);
    expect((await fetch(`${url}/config.json`)).headers.get('content-type')).toContain('application/json');
    expect(await (await fetch(`${url}/login`)).text()).toBe('index.html');
    const post = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      body: '{}',
      headers: { 'X-Forwarded-For': '10.0.0.6' },
    });
    expect(post.status).toBe(400);
  });
});

describe('configuration', () => {
  test('defaults are safe', () => {
    const cfg = accountsFrom({});
    expect(cfg).toMatchObject({
      mode: 'embedded',
      dataDir: 'data',
      autoconfirm: false,
      // NODE_ENV unset is production: the inbox only for this machine, and only without SMTP
      devInbox: 'loopback',
      siteUrl: 'http://localhost:3000',
      publicUrl: 'http://localhost:3000',
      rateLimits: { token: 150, sensitive: 30, windowMs: 300_000, emailIntervalSeconds: 60 },
    });
    expect(accountsFrom({ NODE_ENV: 'production', SMTP_HOST: 'mail.example.org' }).devInbox).toBe('off');
    expect(accountsFrom({ NODE_ENV: 'production', PUBLIC_URL: 'https://chess.example.org' }).devInbox).toBe('off');
    expect(accountsFrom({ NODE_ENV: 'development' }).devInbox).toBe('on');
    expect(accountsFrom({ NODE_ENV: 'production', DEV_INBOX: 'true' }).devInbox).toBe('on');
    expect(accountsFrom({ AUTH_AUTOCONFIRM: 'true' }).autoconfirm).toBe(true);
  });

  test('bad values are refused with the variable named', () => {
    expect(() => accountsFrom({ SITE_URL: 'javascript:alert(1)', SMTP_PORT: 'abc' })).toThrow(ConfigError);
    try {
      accountsFrom({ SITE_URL: 'ftp://x', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toContain('SITE_URL');
      expect((err as Error).message).toContain('DATABASE_URL');
    }
    expect(() => accountsFrom({ SUPABASE_URL: 'https://x.supabase.co' })).toThrow(/SUPABASE_ANON_KEY/);
    expect(() => accountsFrom({ ADDITIONAL_REDIRECT_URLS: 'not a url' })).toThrow(/ADDITIONAL_REDIRECT_URLS/);
    expect(() => accountsFrom({ AUTH_AUTOCONFIRM: 'maybe' })).toThrow(/AUTH_AUTOCONFIRM/);
  });
});
