/**
 * Nobody can tell from /signup, /recover, /resend or /otp whether an address has an account:
 * the same status and body, and the same speed. The mail goes out over a real SMTP server that
 * takes 600 ms per message, so an answer that waited for the mail (only sent to an existing
 * account) would be 600 ms slower than one for an unknown address.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAccountsServer, uniqueEmail, type TestServer } from './harness';
import { startTestSmtp, type TestSmtp } from './smtp';

const SMTP_DELAY_MS = 600;

describe('answers that do not tell whether an address has an account', () => {
  let s: TestServer;
  let smtp: TestSmtp | undefined;
  beforeAll(async () => {
    smtp = await startTestSmtp({ delayMs: SMTP_DELAY_MS });
    const smtpPort = smtp.port;
    s = await startAccountsServer({
      nodeEnv: 'production',
      devInbox: 'off',
      smtp: { host: '127.0.0.1', port: smtpPort, from: 'Chess <no-reply@chess.test>' },
      rateLimits: { emailIntervalSeconds: 0 },
    });
  }, 180_000);
  afterAll(async () => {
    await s?.destroy();
    await smtp?.close();
  });

  async function timed(path: string, body: unknown): Promise<{ status: number; body: string; ms: number }> {
    const t = performance.now();
    const res = await fetch(`${s.url}/auth/v1${path}`, {
      method: 'POST',
      headers: { apikey: s.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text, ms: performance.now() - t };
  }

  test('/recover, /resend and /otp: the same answer, without waiting for the mail, for a known and an unknown address', async () => {
    const known = uniqueEmail('known');
    expect((await s.client().auth.signUp({ email: known, password: 'secret123' })).error).toBeNull();
    for (const [path, body] of [
      ['/recover', (email: string) => ({ email })],
      ['/otp', (email: string) => ({ email })],
      ['/resend', (email: string) => ({ type: 'signup', email })],
    ] as const) {
      const a = await timed(path, body(known));
      const b = await timed(path, body(uniqueEmail('ghost')));
      expect({ path, status: a.status, body: a.body }).toEqual({ path, status: b.status, body: b.body });
      expect(a.status).toBe(200);
      for (const r of [a, b]) expect(r.ms, path).toBeLessThan(SMTP_DELAY_MS / 2);
    }
    // the mail did go out, after the answers
    expect((await smtp!.received(known, 4)).length).toBeGreaterThanOrEqual(4);
  });

  test('/signup: a new address and one waiting for confirmation get answers of the same shape, equally fast', async () => {
    const waiting = uniqueEmail('waiting');
    await timed('/signup', { email: waiting, password: 'secret123' });
    const again = await timed('/signup', { email: waiting, password: 'secret123' });
    const fresh = await timed('/signup', { email: uniqueEmail('fresh'), password: 'secret123' });
    const shape = (r: { body: string }) => {
      const u = JSON.parse(r.body) as Record<string, unknown>;
      return { keys: Object.keys(u).sort(), identities: u.identities, meta: u.user_metadata };
    };
    expect(again.status).toBe(200);
    expect(fresh.status).toBe(200);
    expect(shape(again)).toEqual(shape(fresh));
    expect(JSON.parse(again.body).id).not.toBe(JSON.parse(fresh.body).id);
    for (const r of [again, fresh]) expect(r.ms).toBeLessThan(SMTP_DELAY_MS / 2);
  });
});
