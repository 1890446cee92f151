/**
 * /auth/v1 driven by the real @supabase/supabase-js client: every row of the contract's endpoint
 * table (docs/accounts.md), success and error rows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { AuthApiError, AuthWeakPasswordError, isAuthSessionMissingError } from '@supabase/supabase-js';
import { BACKENDS, followLink, inbox, lastMailTo, startAccountsServer, uniqueEmail, type TestServer } from './harness';

const SITE = 'http://localhost:5173';
const CALLBACK = `${SITE}/auth/callback`;

describe.each(BACKENDS)('auth on %s', (backend) => {
  /** how far the accounts' clock of `s` is ahead of the real one (ms) */
  let clockAhead = 0;
  let s: TestServer;
  let auto: TestServer;
  beforeAll(async () => {
    [s, auto] = await Promise.all([
      // a 2 s per-address email interval (default 60 s); the resend test moves the clock past it
      startAccountsServer({
        backend,
        additionalRedirectUrls: ['https://app.example.org/**'],
        rateLimits: { token: 10_000, sensitive: 10_000, emailIntervalSeconds: 2 },
        now: () => Date.now() + clockAhead,
      }),
      startAccountsServer({ backend, autoconfirm: true }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([s?.destroy(), auto?.destroy()]);
  });

  /** Signs up with confirmations on, clicks the link, returns email/password/user id. */
  async function confirmedUser(password = 'secret123') {
    const email = uniqueEmail();
    const c = s.client();
    const { data, error } = await c.auth.signUp({ email, password, options: { emailRedirectTo: CALLBACK } });
    expect(error).toBeNull();
    const mail = await lastMailTo(s, email);
    const link = await followLink(mail.links[0]);
    expect(link.status).toBe(303);
    return { email, password, id: data.user!.id };
  }

  describe('signUp with email', () => {
    test('confirmations on: 200 with a bare user and no session, a link in the inbox', async () => {
      const email = uniqueEmail('Mixed').replace('mixed', 'MiXed');
      const c = s.client();
      const { data, error } = await c.auth.signUp({
        email,
        password: 'secret123',
        options: { emailRedirectTo: CALLBACK, data: { email_verified: false } },
      });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user?.email).toBe(email.toLowerCase());
      expect(data.user?.aud).toBe('authenticated');
      // the same answer as for an address that is taken (no identities), so it cannot be probed
      expect(data.user?.identities).toEqual([]);
      expect(data.user?.user_metadata).toEqual({ email_verified: false });
      expect(data.user?.email_confirmed_at).toBeUndefined();
      const mail = await lastMailTo(s, email.toLowerCase());
      expect(mail.subject).toMatch(/confirm/i);
      const link = new URL(mail.links[0]);
      expect(link.origin + link.pathname).toBe(`${s.url}/auth/v1/verify`);
      expect(link.searchParams.get('type')).toBe('signup');
      expect(link.searchParams.get('redirect_to')).toBe(CALLBACK);
      expect(mail.text).toContain(mail.links[0]);
    });

    test('the link signs in: 303 to redirect_to with the session in the hash, email confirmed', async () => {
      const email = uniqueEmail();
      const c = s.client();
      await c.auth.signUp({ email, password: 'secret123', options: { emailRedirectTo: CALLBACK } });
      const mail = await lastMailTo(s, email);
      const { status, location, hash } = await followLink(mail.links[0]);
      expect(status).toBe(303);
      expect(location.startsWith(`${CALLBACK}#`)).toBe(true);
      expect(hash.get('token_type')).toBe('bearer');
      expect(hash.get('type')).toBe('signup');
      expect(hash.get('expires_in')).toBe('3600');
      expect(Number(hash.get('expires_at'))).toBeGreaterThan(Date.now() / 1000 + 3500);
      const { data, error } = await c.auth.setSession({
        access_token: hash.get('access_token')!,
        refresh_token: hash.get('refresh_token')!,
      });
      expect(error).toBeNull();
      expect(data.user?.email).toBe(email);
      expect(data.user?.email_confirmed_at).toBeTruthy();
      expect(data.user?.user_metadata.email_verified).toBe(true);
      // used once: the second click gets the error in the hash
      const again = await followLink(mail.links[0]);
      expect(again.status).toBe(303);
      expect(again.location).toBe(
        `${CALLBACK}#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired`,
      );
      // and the password works now
      const signIn = await s.client().auth.signInWithPassword({ email, password: 'secret123' });
      expect(signIn.error).toBeNull();
    });

    test('weak password: 422 weak_password with reasons', async () => {
      const { data, error } = await s.client().auth.signUp({ email: uniqueEmail(), password: '12345' });
      expect(error).toBeInstanceOf(AuthWeakPasswordError);
      expect(error?.status).toBe(422);
      expect(error?.code).toBe('weak_password');
      expect((error as AuthWeakPasswordError).reasons).toEqual(['length']);
      expect(data.user).toBeNull();
    });

    test('invalid email: 400 validation_failed', async () => {
      const { error } = await s.client().auth.signUp({ email: 'not-an-email', password: 'secret123' });
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('validation_failed');
    });

    test('already confirmed email with confirmations on: 200 decoy (new id, no identities), no mail', async () => {
      const u = await confirmedUser();
      const before = (await inbox(s)).length;
      const { data, error } = await s.client().auth.signUp({ email: u.email, password: 'other-pass' });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user?.id).not.toBe(u.id);
      expect(data.user?.identities).toEqual([]);
      expect((await inbox(s)).length).toBe(before);
      // the decoy changed nothing: the old password still works, the new one does not
      expect((await s.client().auth.signInWithPassword({ email: u.email, password: u.password })).error).toBeNull();
      expect((await s.client().auth.signInWithPassword({ email: u.email, password: 'other-pass' })).error?.code).toBe(
        'invalid_credentials',
      );
    });

    test('signing up again for an unconfirmed email within 60 s: the answer of a first sign-up, and no second mail', async () => {
      const email = uniqueEmail();
      expect((await s.client().auth.signUp({ email, password: 'secret123' })).error).toBeNull();
      const { data, error } = await s.client().auth.signUp({ email, password: 'secret123' });
      expect(error).toBeNull();
      expect(data.user?.email).toBe(email);
      expect(data.session).toBeNull();
      const mails = (await (await fetch(`${s.url}/dev/mail`)).json()) as { to: string }[];
      expect(mails.filter((m) => m.to === email)).toHaveLength(1);
    });

    test('autoconfirm: 200 with a session; the same email again: 422 user_already_exists', async () => {
      const email = uniqueEmail();
      const c = auto.client();
      const { data, error } = await c.auth.signUp({ email, password: 'secret123' });
      expect(error).toBeNull();
      expect(data.session?.access_token).toBeTruthy();
      expect(data.session?.refresh_token).toBeTruthy();
      expect(data.session?.expires_in).toBe(3600);
      expect(data.user?.email_confirmed_at).toBeTruthy();
      const again = await auto.client().auth.signUp({ email, password: 'secret123' });
      expect(again.error?.status).toBe(422);
      expect(again.error?.code).toBe('user_already_exists');
    });

    test('redirect_to to a foreign host falls back to the site URL; the allow list is honoured', async () => {
      const evil = uniqueEmail();
      await s.client().auth.signUp({ email: evil, password: 'secret123', options: { emailRedirectTo: 'https://evil.example.com/x' } });
      const link = new URL((await lastMailTo(s, evil)).links[0]);
      expect(link.searchParams.get('redirect_to')).toBe(SITE);
      const res = await followLink(link.href);
      expect(res.location).toMatch(/^http:\/\/localhost:5173\/?#access_token=/);

      const allowed = uniqueEmail();
      await s.client().auth.signUp({
        email: allowed,
        password: 'secret123',
        options: { emailRedirectTo: 'https://app.example.org/deep/path' },
      });
      const link2 = new URL((await lastMailTo(s, allowed)).links[0]);
      expect(link2.searchParams.get('redirect_to')).toBe('https://app.example.org/deep/path');

      // a forged link with a foreign redirect_to is answered with the site URL too
      const forged = new URL(link2.href);
      forged.searchParams.set('redirect_to', 'https://evil.example.com/steal');
      const res2 = await followLink(forged.href);
      expect(res2.location).toMatch(/^http:\/\/localhost:5173\/?#access_token=/);
    });

    test('resend signup: {} and a new link (the old one stops working); again at once: 429', async () => {
      const email = uniqueEmail();
      await s.client().auth.signUp({ email, password: 'secret123', options: { emailRedirectTo: CALLBACK } });
      const first = await lastMailTo(s, email);
      const { error } = await s.client().auth.resend({ type: 'signup', email, options: { emailRedirectTo: CALLBACK } });
      expect(error?.status).toBe(429);
      expect(error?.code).toBe('over_email_send_rate_limit');
      expect((await lastMailTo(s, email)).id).toBe(first.id);
      clockAhead += 2100;
      const ok = await s.client().auth.resend({ type: 'signup', email, options: { emailRedirectTo: CALLBACK } });
      expect(ok).toEqual({ data: { user: null, session: null }, error: null });
      const second = await lastMailTo(s, email);
      expect(second.id).not.toBe(first.id);
      expect((await followLink(first.links[0])).hash.get('error_code')).toBe('otp_expired');
      expect((await followLink(second.links[0])).hash.get('access_token')).toBeTruthy();
    });
  });

  describe('signUp with phone and verifyOtp sms', () => {
    test('6-digit code in the inbox; verifyOtp gives a session; a wrong or used code: 403 otp_expired', async () => {
      const phone = `+4915${String(Date.now()).slice(-8)}${Math.floor(Math.random() * 10)}`;
      const c = s.client();
      const { data, error } = await c.auth.signUp({ phone, password: 'secret123', options: { channel: 'sms' } });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user?.phone).toBe(phone.slice(1));
      const sms = await lastMailTo(s, phone);
      const code = /\b(\d{6})\b/.exec(sms.text)![1];
      const wrong = code === '000000' ? '111111' : '000000';
      const bad = await c.auth.verifyOtp({ phone, token: wrong, type: 'sms' });
      expect(bad.error?.status).toBe(403);
      expect(bad.error?.code).toBe('otp_expired');
      const ok = await c.auth.verifyOtp({ phone, token: code, type: 'sms' });
      expect(ok.error).toBeNull();
      expect(ok.data.session?.access_token).toBeTruthy();
      expect(ok.data.user?.phone_confirmed_at).toBeTruthy();
      const reused = await s.client().auth.verifyOtp({ phone, token: code, type: 'sms' });
      expect(reused.error?.code).toBe('otp_expired');
      // and the phone + password sign-in works
      const signIn = await s.client().auth.signInWithPassword({ phone, password: 'secret123' });
      expect(signIn.error).toBeNull();
      expect(signIn.data.user?.id).toBe(data.user?.id);
    });

    test('five wrong codes kill the live code (no brute force of 6 digits)', async () => {
      const phone = `+4917${String(Date.now()).slice(-8)}${Math.floor(Math.random() * 10)}`;
      await s.client().auth.signUp({ phone, password: 'secret123' });
      const code = /\b(\d{6})\b/.exec((await lastMailTo(s, phone)).text)![1];
      const wrong = (k: number) => String((Number(code) + k) % 1_000_000).padStart(6, '0');
      for (let k = 1; k <= 5; k++) {
        expect((await s.client().auth.verifyOtp({ phone, token: wrong(k), type: 'sms' })).error?.code).toBe('otp_expired');
      }
      expect((await s.client().auth.verifyOtp({ phone, token: code, type: 'sms' })).error?.code).toBe('otp_expired');
    });

    test('a number that is not E.164: 400', async () => {
      const { error } = await s.client().auth.signUp({ phone: '+0123', password: 'secret123' });
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('validation_failed');
    });
  });

  describe('signInWithPassword', () => {
    test('session shape; the access token is ES256 with a kid published in the JWKS', async () => {
      const u = await confirmedUser();
      const { data, error } = await s.client().auth.signInWithPassword({ email: u.email, password: u.password });
      expect(error).toBeNull();
      const session = data.session!;
      expect(session.token_type).toBe('bearer');
      expect(session.expires_in).toBe(3600);
      expect(session.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
      expect(session.user.id).toBe(u.id);
      expect(session.user.last_sign_in_at).toBeTruthy();
      const header = decodeProtectedHeader(session.access_token);
      expect(header.alg).toBe('ES256');
      const jwksRes = await fetch(`${s.url}/auth/v1/.well-known/jwks.json`);
      expect(jwksRes.headers.get('cache-control')).toBe('public, max-age=600');
      const jwks = (await jwksRes.json()) as { keys: { kid: string; d?: string }[] };
      expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
      expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
      const { payload } = await jwtVerify(session.access_token, createLocalJWKSet(jwks as never));
      expect(payload).toMatchObject({ sub: u.id, aud: 'authenticated', role: 'authenticated', email: u.email, aal: 'aal1', is_anonymous: false });
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(typeof payload.session_id).toBe('string');
    });

    test('unknown user and wrong password alike: 400 invalid_credentials "Invalid login credentials"', async () => {
      const u = await confirmedUser();
      const wrong = await s.client().auth.signInWithPassword({ email: u.email, password: 'wrong-pass' });
      const unknown = await s.client().auth.signInWithPassword({ email: uniqueEmail('nobody'), password: 'wrong-pass' });
      for (const r of [wrong, unknown]) {
        expect(r.error).toBeInstanceOf(AuthApiError);
        expect(r.error?.status).toBe(400);
        expect(r.error?.code).toBe('invalid_credentials');
        expect(r.error?.message).toBe('Invalid login credentials');
        expect(r.data.session).toBeNull();
      }
    });

    test('unconfirmed email with the right password: 400 email_not_confirmed', async () => {
      const email = uniqueEmail();
      await s.client().auth.signUp({ email, password: 'secret123' });
      const { error } = await s.client().auth.signInWithPassword({ email, password: 'secret123' });
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('email_not_confirmed');
    });
  });

  describe('refresh tokens', () => {
    test('rotation; the previous token returns the active one; an older one revokes the family', async () => {
      const u = await confirmedUser();
      const c = s.client();
      const first = (await c.auth.signInWithPassword({ email: u.email, password: u.password })).data.session!;
      const r1 = await c.auth.refreshSession({ refresh_token: first.refresh_token });
      expect(r1.error).toBeNull();
      const second = r1.data.session!;
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      // the token just before the active one: 200 with the active one
      const again = await s.client().auth.refreshSession({ refresh_token: first.refresh_token });
      expect(again.error).toBeNull();
      expect(again.data.session?.refresh_token).toBe(second.refresh_token);
      const r2 = await s.client().auth.refreshSession({ refresh_token: second.refresh_token });
      expect(r2.error).toBeNull();
      const third = r2.data.session!;
      // `first` is now two generations old: reuse, the whole family is revoked
      const reuse = await s.client().auth.refreshSession({ refresh_token: first.refresh_token });
      expect(reuse.error?.status).toBe(400);
      expect(reuse.error?.code).toBe('refresh_token_already_used');
      const afterTheft = await s.client().auth.refreshSession({ refresh_token: third.refresh_token });
      expect(afterTheft.error?.status).toBe(400);
      // the session is gone: the access token no longer identifies anybody
      const who = await s.client().auth.getUser(third.access_token);
      expect(who.error).toBeTruthy();
      expect(await s.accounts.verifyAccessToken(third.access_token)).toBeNull();
    });

    test('an unknown refresh token: 400 refresh_token_not_found', async () => {
      const { error } = await s.client().auth.refreshSession({ refresh_token: 'not-a-token' });
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('refresh_token_not_found');
    });
  });

  describe('getUser / updateUser', () => {
    test('GET /user without a token: 401 no_authorization; a bad token: 403 bad_jwt', async () => {
      const none = await fetch(`${s.url}/auth/v1/user`);
      expect(none.status).toBe(401);
      expect(none.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(((await none.json()) as { code: string }).code).toBe('no_authorization');
      const { error } = await s.client().auth.getUser('eyJhbGciOiJFUzI1NiJ9.e30.AAAA');
      expect(error?.status).toBe(403);
      expect(error?.code).toBe('bad_jwt');
    });

    test('getUser returns the bare user', async () => {
      const u = await confirmedUser();
      const c = s.client();
      const { data: si } = await c.auth.signInWithPassword({ email: u.email, password: u.password });
      const { data, error } = await c.auth.getUser(si.session!.access_token);
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ id: u.id, email: u.email, role: 'authenticated', phone: '' });
      expect(data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    });

    test('updateUser data merges key by key, null deletes', async () => {
      const u = await confirmedUser();
      const c = s.client();
      await c.auth.signInWithPassword({ email: u.email, password: u.password });
      await c.auth.updateUser({ data: { username: 'alice', first_name: 'Alice' } });
      const { data, error } = await c.auth.updateUser({ data: { first_name: null, last_name: 'Liddell' } });
      expect(error).toBeNull();
      expect(data.user?.user_metadata).toEqual({ email_verified: true, username: 'alice', last_name: 'Liddell' });
    });

    test('updateUser password: 422 same_password, 422 weak_password; a change ends the other sessions', async () => {
      const u = await confirmedUser();
      const a = s.client();
      const b = s.client();
      await a.auth.signInWithPassword({ email: u.email, password: u.password });
      const other = (await b.auth.signInWithPassword({ email: u.email, password: u.password })).data.session!;
      const same = await a.auth.updateUser({ password: u.password });
      expect(same.error?.status).toBe(422);
      expect(same.error?.code).toBe('same_password');
      const weak = await a.auth.updateUser({ password: 'abc' });
      expect(weak.error?.status).toBe(422);
      expect(weak.error?.code).toBe('weak_password');
      const ok = await a.auth.updateUser({ password: 'brand-new-pass' });
      expect(ok.error).toBeNull();
      // b's session ended: its refresh token and access token are dead
      expect((await s.client().auth.refreshSession({ refresh_token: other.refresh_token })).error?.status).toBe(400);
      const bUser = await s.client().auth.getUser(other.access_token);
      expect(isAuthSessionMissingError(bUser.error)).toBe(true);
      // a's session still works
      expect((await a.auth.getUser()).error).toBeNull();
      expect((await s.client().auth.signInWithPassword({ email: u.email, password: u.password })).error?.code).toBe(
        'invalid_credentials',
      );
      expect((await s.client().auth.signInWithPassword({ email: u.email, password: 'brand-new-pass' })).error).toBeNull();
    });
  });

  describe('signOut', () => {
    test('local: 204, the refresh token is invalid afterwards, other sessions live on', async () => {
      const u = await confirmedUser();
      const a = s.client();
      const b = s.client();
      const sa = (await a.auth.signInWithPassword({ email: u.email, password: u.password })).data.session!;
      const sb = (await b.auth.signInWithPassword({ email: u.email, password: u.password })).data.session!;
      const raw = await fetch(`${s.url}/auth/v1/logout?scope=local`, {
        method: 'POST',
        headers: { apikey: s.anonKey, Authorization: `Bearer ${sa.access_token}` },
      });
      expect(raw.status).toBe(204);
      expect((await s.client().auth.refreshSession({ refresh_token: sa.refresh_token })).error?.code).toBe(
        'refresh_token_not_found',
      );
      expect(await s.accounts.verifyAccessToken(sa.access_token)).toBeNull();
      expect((await s.client().auth.refreshSession({ refresh_token: sb.refresh_token })).error).toBeNull();
    });

    test('global (the default) ends every session; others keeps only the current one', async () => {
      const u = await confirmedUser();
      const a = s.client();
      const b = s.client();
      const c = s.client();
      await a.auth.signInWithPassword({ email: u.email, password: u.password });
      const sb = (await b.auth.signInWithPassword({ email: u.email, password: u.password })).data.session!;
      const sc = (await c.auth.signInWithPassword({ email: u.email, password: u.password })).data.session!;
      expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
      expect((await a.auth.getUser()).error).toBeNull();
      expect(await s.accounts.verifyAccessToken(sb.access_token)).toBeNull();
      expect((await s.client().auth.refreshSession({ refresh_token: sc.refresh_token })).error).toBeTruthy();

      const d = s.client();
      const sd = (await d.auth.signInWithPassword({ email: u.email, password: u.password })).data.session!;
      const { data: cur } = await a.auth.getSession();
      expect((await a.auth.signOut()).error).toBeNull();
      expect(await s.accounts.verifyAccessToken(sd.access_token)).toBeNull();
      expect(await s.accounts.verifyAccessToken(cur.session!.access_token)).toBeNull();
      expect((await a.auth.getSession()).data.session).toBeNull();
    });
  });

  describe('password recovery', () => {
    test('{} for known and unknown emails alike; asking again at once: 429', async () => {
      const u = await confirmedUser();
      const c = s.client();
      const known = await c.auth.resetPasswordForEmail(u.email, { redirectTo: `${SITE}/reset-password` });
      const unknown = await c.auth.resetPasswordForEmail(uniqueEmail('ghost'), { redirectTo: `${SITE}/reset-password` });
      expect(known).toEqual({ data: {}, error: null });
      expect(unknown).toEqual({ data: {}, error: null });
      const again = await c.auth.resetPasswordForEmail(u.email);
      expect(again.error?.status).toBe(429);
      expect(again.error?.code).toBe('over_email_send_rate_limit');
    });

    test('recovery link: session of type recovery, new password works, old fails, link single-use', async () => {
      const u = await confirmedUser('old-password');
      await s.client().auth.resetPasswordForEmail(u.email, { redirectTo: `${SITE}/reset-password` });
      const mail = await lastMailTo(s, u.email);
      expect(mail.subject).toMatch(/reset/i);
      const { status, location, hash } = await followLink(mail.links[0]);
      expect(status).toBe(303);
      expect(location.startsWith(`${SITE}/reset-password#`)).toBe(true);
      expect(hash.get('type')).toBe('recovery');
      const c = s.client();
      await c.auth.setSession({ access_token: hash.get('access_token')!, refresh_token: hash.get('refresh_token')! });
      expect((await c.auth.updateUser({ password: 'new-password' })).error).toBeNull();
      expect((await s.client().auth.signInWithPassword({ email: u.email, password: 'old-password' })).error?.code).toBe(
        'invalid_credentials',
      );
      expect((await s.client().auth.signInWithPassword({ email: u.email, password: 'new-password' })).error).toBeNull();
      const again = await followLink(mail.links[0]);
      expect(again.hash.get('error_code')).toBe('otp_expired');
    });
  });

  describe('signInWithOtp and verifyOtp with token_hash', () => {
    test('a magic link for an existing user signs in; an unknown user gets the same answer and no mail', async () => {
      const u = await confirmedUser();
      const { error } = await s.client().auth.signInWithOtp({ email: u.email, options: { emailRedirectTo: CALLBACK } });
      expect(error).toBeNull();
      const mail = await lastMailTo(s, u.email);
      const link = new URL(mail.links[0]);
      expect(link.searchParams.get('type')).toBe('magiclink');
      const { hash } = await followLink(link.href);
      expect(hash.get('type')).toBe('magiclink');
      expect((await s.client().auth.getUser(hash.get('access_token')!)).data.user?.id).toBe(u.id);
      const ghost = uniqueEmail('ghost');
      const unknown = await s.client().auth.signInWithOtp({ email: ghost });
      expect(unknown.error).toBeNull();
      const mails = (await (await fetch(`${s.url}/dev/mail`)).json()) as { to: string }[];
      expect(mails.filter((m) => m.to === ghost)).toEqual([]);
    });

    test('verifyOtp({token_hash, type: recovery}) gives a session once', async () => {
      const u = await confirmedUser();
      await s.client().auth.resetPasswordForEmail(u.email);
      const token = new URL((await lastMailTo(s, u.email)).links[0]).searchParams.get('token')!;
      const c = s.client();
      const events: string[] = [];
      c.auth.onAuthStateChange((e) => void events.push(e));
      const ok = await c.auth.verifyOtp({ token_hash: token, type: 'recovery' });
      expect(ok.error).toBeNull();
      expect(ok.data.user?.id).toBe(u.id);
      expect(events).toContain('PASSWORD_RECOVERY');
      const again = await s.client().auth.verifyOtp({ token_hash: token, type: 'recovery' });
      expect(again.error?.status).toBe(403);
      expect(again.error?.code).toBe('otp_expired');
    });
  });

  describe('protocol details', () => {
    test('every error carries X-Supabase-Api-Version and {code, message}', async () => {
      const r = await fetch(`${s.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', apikey: s.anonKey },
        body: JSON.stringify({ email: uniqueEmail(), password: 'whatever1' }),
      });
      expect(r.status).toBe(400);
      expect(r.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(await r.json()).toMatchObject({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    });

    test('extra body fields (gotrue_meta_security, code_challenge) are ignored; bad JSON is a 400', async () => {
      const r = await fetch(`${s.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: uniqueEmail(),
          password: 'secret123',
          gotrue_meta_security: { captcha_token: null },
          code_challenge: 'x',
          code_challenge_method: 's256',
        }),
      });
      expect(r.status).toBe(200);
      const bad = await fetch(`${s.url}/auth/v1/signup`, { method: 'POST', body: '{nope' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { code: string }).code).toBe('bad_json');
    });

    test('a body over the limit: 413 and nothing created', async () => {
      const email = uniqueEmail('big');
      const r = await fetch(`${s.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: 'secret123', data: { blob: 'x'.repeat(200_000) } }),
      });
      expect(r.status).toBe(413);
      expect((await inbox(s)).some((m) => m.to === email)).toBe(false);
    });

    test('CORS: the site origin gets the headers and exposes X-Supabase-Api-Version; a foreign origin does not', async () => {
      const pre = await fetch(`${s.url}/auth/v1/token?grant_type=password`, {
        method: 'OPTIONS',
        headers: {
          Origin: SITE,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'apikey, authorization, content-type, x-client-info, x-supabase-api-version',
        },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(SITE);
      expect(pre.headers.get('access-control-allow-headers')).toContain('x-supabase-api-version');
      const r = await fetch(`${s.url}/auth/v1/settings`, { headers: { Origin: SITE } });
      expect(r.headers.get('access-control-allow-origin')).toBe(SITE);
      expect(r.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
      const foreign = await fetch(`${s.url}/auth/v1/settings`, { headers: { Origin: 'https://evil.example.com' } });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    });

    test('settings and health', async () => {
      const settings = (await (await fetch(`${s.url}/auth/v1/settings`)).json()) as Record<string, unknown>;
      expect(settings).toMatchObject({ mailer_autoconfirm: false, disable_signup: false });
      const autoSettings = (await (await fetch(`${auto.url}/auth/v1/settings`)).json()) as Record<string, unknown>;
      expect(autoSettings.mailer_autoconfirm).toBe(true);
      expect((await fetch(`${s.url}/auth/v1/health`)).status).toBe(200);
      expect((await fetch(`${s.url}/auth/v1/nope`)).status).toBe(404);
    });

    test('GET /config.json gives the server origin and its anon key', async () => {
      const cfg = await (await fetch(`${s.url}/config.json`)).json();
      expect(cfg).toEqual({ supabaseUrl: s.url, supabaseAnonKey: s.anonKey });
    });

    test('GET /dev/mail: JSON newest first, an HTML page for browsers', async () => {
      const list = await inbox(s);
      expect(list.length).toBeGreaterThan(1);
      const times = list.map((m) => Date.parse(m.sentAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(Object.keys(list[0]).sort()).toEqual(['id', 'kind', 'links', 'sentAt', 'subject', 'text', 'to']);
      const html = await fetch(`${s.url}/dev/mail`, { headers: { Accept: 'text/html,application/xhtml+xml' } });
      expect(html.headers.get('content-type')).toContain('text/html');
      expect(await html.text()).toContain('Development inbox');
    });
  });

  describe('verifyAccessToken (for the realtime server)', () => {
    test('valid token → {sub, email, username}; garbage → null', async () => {
      const { data } = await auto.client().auth.signUp({ email: uniqueEmail(), password: 'secret123' });
      const session = data.session!;
      const c = auto.client();
      await c.auth.setSession(session);
      const username = `u_${Date.now().toString(36)}`.slice(0, 20);
      expect((await c.from('profiles').upsert({ id: session.user.id, username, first_name: 'A', last_name: 'B' })).error).toBeNull();
      expect(await auto.accounts.verifyAccessToken(session.access_token)).toEqual({
        sub: session.user.id,
        email: session.user.email,
        username,
      });
      expect(await auto.accounts.verifyAccessToken('garbage')).toBeNull();
      expect(await auto.accounts.verifyAccessToken(auto.anonKey)).toBeNull();
      // a token of another server (another key) is refused
      expect(await s.accounts.verifyAccessToken(session.access_token)).toBeNull();
    });
  });
});
