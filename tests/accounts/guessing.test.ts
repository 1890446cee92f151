/**
 * Password guessing: a per-account lock with exponential back-off, whatever the number of
 * addresses the guesses come from; forwarded addresses believed only from configured proxies;
 * user metadata (carried in every access token) capped.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LoginBackoff } from '../../server/accounts/rate-limit';
import { startAccountsServer, uniqueEmail, type TestServer } from './harness';

describe('per-account back-off (LoginBackoff, injected clock)', () => {
  test('free failures, then a lock that doubles per failure up to the cap; a success clears it', () => {
    let now = 0;
    const b = new LoginBackoff({ freeFailures: 3, baseLockMs: 1_000, maxLockMs: 5_000 }, () => now);
    for (let i = 0; i < 2; i++) b.failed('a');
    expect(b.waitSeconds('a')).toBe(0);
    b.failed('a');
    expect(b.waitSeconds('a')).toBe(1);
    now += 1_000;
    b.failed('a');
    expect(b.waitSeconds('a')).toBe(2);
    now += 2_000;
    b.failed('a');
    b.failed('a');
    expect(b.waitSeconds('a')).toBe(5); // 8 s capped at 5
    expect(b.waitSeconds('b')).toBe(0);
    now += 5_000;
    b.succeeded('a');
    b.failed('a');
    expect(b.waitSeconds('a')).toBe(0);
  });
});

describe('sign-in guessing on a real server', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startAccountsServer({
      autoconfirm: true,
      trustProxy: ['127.0.0.1'],
      loginBackoff: { freeFailures: 5, baseLockMs: 60_000 },
    });
  }, 180_000);
  afterAll(async () => {
    await s?.destroy();
  });

  test('guesses from many addresses lock the account, even against the right password; other accounts are free', async () => {
    const email = uniqueEmail('target');
    expect((await s.client().auth.signUp({ email, password: 'right-password' })).error).toBeNull();
    for (let i = 0; i < 5; i++) {
      const r = await s.client({ headers: { 'X-Forwarded-For': `203.0.113.${i + 1}` } }).auth.signInWithPassword({ email, password: `guess-${i}` });
      expect(r.error?.code).toBe('invalid_credentials');
    }
    const locked = await s.client({ headers: { 'X-Forwarded-For': '198.51.100.7' } }).auth.signInWithPassword({ email, password: 'right-password' });
    expect(locked.error?.status).toBe(429);
    expect(locked.error?.message).toMatch(/Too many failed sign-ins for this account\. Try again in 60 seconds/);
    // an unknown address is locked the same way (the lock says nothing about existence)
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 5; i++) await s.client().auth.signInWithPassword({ email: ghost, password: `guess-${i}` });
    expect((await s.client().auth.signInWithPassword({ email: ghost, password: 'x-guess' })).error?.status).toBe(429);
    // someone else signs in as usual
    const other = uniqueEmail('other');
    await s.client().auth.signUp({ email: other, password: 'other-password' });
    expect((await s.client().auth.signInWithPassword({ email: other, password: 'other-password' })).error).toBeNull();
  });

  test('user metadata is capped: an update that would grow it past the limit is refused and changes nothing', async () => {
    const c = s.client();
    const { data } = await c.auth.signUp({ email: uniqueEmail('meta'), password: 'secret123' });
    await c.auth.setSession(data.session!);
    expect((await c.auth.updateUser({ data: { a: 'x'.repeat(5_000) } })).error).toBeNull();
    const grown = await c.auth.updateUser({ data: { b: 'y'.repeat(5_000) } });
    expect(grown.error?.status).toBe(400);
    expect(grown.error?.message).toMatch(/User metadata is limited to 8192 bytes/);
    const { data: user } = await c.auth.getUser();
    expect(Object.keys(user.user!.user_metadata).sort()).toEqual(['a']);
  });
});

describe('forwarded addresses', () => {
  let s: TestServer;
  beforeAll(async () => {
    // the proxy is somewhere in 10.0.0.0/8; the test connects directly from 127.0.0.1
    s = await startAccountsServer({ trustProxy: ['10.0.0.0/8'], rateLimits: { token: 3 } });
  }, 180_000);
  afterAll(async () => {
    await s?.destroy();
  });

  test('a forged X-Forwarded-For from a direct client does not escape the per-address limit', async () => {
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await s.client({ headers: { 'X-Forwarded-For': `192.0.2.${i + 10}` } }).auth.signInWithPassword({ email: uniqueEmail(), password: 'whatever1' });
      codes.push(r.error?.code);
    }
    expect(codes).toEqual(['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'over_request_rate_limit', 'over_request_rate_limit']);
  });
});
