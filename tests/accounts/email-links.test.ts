/**
 * The email links as the browser app consumes them: supabase-js with detectSessionInUrl reads the
 * hash of the page it lands on (implicit flow), calls GET /user, stores the session and fires
 * SIGNED_IN or PASSWORD_RECOVERY. The page is emulated with a minimal window/document (this file
 * runs in its own worker, so the globals do not leak into other tests).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createClient, type AuthChangeEvent } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { capturedLog, type LogLine } from '../support/capturedLog';
import { followLink, lastMailTo, memoryStorage, startAccountsServer, uniqueEmail, type TestServer } from './harness';

const SITE = 'http://localhost:5173';
const g = globalThis as Record<string, unknown>;

/** Pretends to be a browser tab that has just been redirected to `href`. */
function openPage(href: string) {
  const url = new URL(href);
  g.window = {
    location: {
      get href() {
        return url.href;
      },
      get hash() {
        return url.hash;
      },
      set hash(v: string) {
        url.hash = v;
      },
    },
    history: { state: null, replaceState: () => undefined },
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
  g.document = { visibilityState: 'visible', addEventListener: () => undefined, removeEventListener: () => undefined };
  return url;
}

function browserClient(s: TestServer) {
  const events: AuthChangeEvent[] = [];
  const client = createClient(s.url, s.anonKey, {
    auth: { storage: memoryStorage(), persistSession: true, autoRefreshToken: false, detectSessionInUrl: true, flowType: 'implicit' },
    realtime: { transport: WebSocket as never },
  });
  client.auth.onAuthStateChange((event) => {
    events.push(event);
  });
  return { client, events };
}

const until = async (pred: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Every log line of the server, at debug level, to check that no secret is ever logged. */
const logLines: LogLine[] = [];
const secrets: string[] = [];

describe('email links in the browser client', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startAccountsServer({ logger: capturedLog({ level: 'debug' }, logLines).logger });
  }, 180_000);
  afterAll(async () => {
    await s?.destroy();
  });
  afterEach(() => {
    delete g.window;
    delete g.document;
  });

  test('sign-up link → /auth/callback#… → SIGNED_IN with a verified user', async () => {
    const email = uniqueEmail();
    await s.client().auth.signUp({ email, password: 'secret123', options: { emailRedirectTo: `${SITE}/auth/callback?type=signup` } });
    const link = (await lastMailTo(s, email)).links[0];
    const { location, hash } = await followLink(link);
    secrets.push('secret123', new URL(link).searchParams.get('token')!, hash.get('access_token')!, hash.get('refresh_token')!);
    const page = openPage(location);
    expect(page.pathname).toBe('/auth/callback');
    const { client, events } = browserClient(s);
    const { data } = await client.auth.getSession();
    expect(data.session?.user.email).toBe(email);
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
    await until(() => events.includes('SIGNED_IN'));
    expect(page.hash).toBe('');
  });

  test('recovery link → PASSWORD_RECOVERY; the new password works and the old one fails', async () => {
    const email = uniqueEmail();
    const a = s.client();
    await a.auth.signUp({ email, password: 'old-secret' });
    await followLink((await lastMailTo(s, email)).links[0]);
    await s.client().auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/reset-password` });
    const mail = await lastMailTo(s, email);
    const { location } = await followLink(mail.links[0]);
    openPage(location);
    const { client, events } = browserClient(s);
    await client.auth.getSession();
    await until(() => events.includes('PASSWORD_RECOVERY'));
    expect(events).not.toContain('SIGNED_IN');
    secrets.push('old-secret', 'new-secret', new URL(mail.links[0]).searchParams.get('token')!);
    const upd = await client.auth.updateUser({ password: 'new-secret' });
    expect(upd.error).toBeNull();
    expect((await s.client().auth.signInWithPassword({ email, password: 'old-secret' })).error?.code).toBe('invalid_credentials');
    expect((await s.client().auth.signInWithPassword({ email, password: 'new-secret' })).error).toBeNull();
  });

  test('a used link lands with error=access_denied&error_code=otp_expired and no session', async () => {
    const email = uniqueEmail();
    await s.client().auth.signUp({ email, password: 'secret123', options: { emailRedirectTo: `${SITE}/auth/callback` } });
    const link = (await lastMailTo(s, email)).links[0];
    await followLink(link);
    const { location } = await followLink(link);
    const page = openPage(location);
    expect(new URLSearchParams(page.hash.slice(1)).get('error_description')).toBe('Email link is invalid or has expired');
    const { client, events } = browserClient(s);
    const init = await client.auth.initialize();
    expect(init.error?.message).toBe('Email link is invalid or has expired');
    expect((await client.auth.getSession()).data.session).toBeNull();
    expect(events).not.toContain('SIGNED_IN');
  });

  test('the server logs requests but never passwords, link tokens or session tokens', () => {
    expect(logLines.some((l) => JSON.stringify(l).includes('/auth/v1/verify'))).toBe(true);
    expect(secrets.length).toBeGreaterThanOrEqual(7);
    for (const secret of secrets) {
      expect(logLines.filter((l) => JSON.stringify(l).includes(secret))).toEqual([]);
    }
  });
});
