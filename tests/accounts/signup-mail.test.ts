/**
 * Signing up twice for an unconfirmed address sends one confirmation, even while the first one is
 * still on its way: the mail goes to a real SMTP server on a port that holds its answer to the
 * first message until the test lets it go, so the second sign-up is decided while the first mail
 * is in flight.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startAccountsServer, uniqueEmail, type TestServer } from './harness';
import { startTestSmtp, type TestSmtp } from './smtp';

describe('confirmation mail of a repeated sign-up', () => {
  let smtp: TestSmtp | undefined;
  let s: TestServer | undefined;
  afterEach(async () => {
    smtp?.release();
    await s?.destroy();
    await smtp?.close();
  });

  test('a second sign-up while the first confirmation is still being sent sends no second one', async () => {
    smtp = await startTestSmtp({ hold: true });
    s = await startAccountsServer({ smtp: { host: '127.0.0.1', port: smtp.port, from: 'chess@held.test' } });
    const email = uniqueEmail();
    expect((await s.client().auth.signUp({ email, password: 'secret123' })).error).toBeNull();
    await smtp.received(email); // the first confirmation is at the SMTP server, unanswered
    expect((await s.client().auth.signUp({ email, password: 'secret123' })).error).toBeNull();
    smtp.release();
    await s.stop(); // the accounts module finishes the mail of every answered request first
    expect(smtp.messages).toHaveLength(1);
  });
});
