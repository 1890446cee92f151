/**
 * Signing up twice for an unconfirmed address sends one confirmation, even while the first one is
 * still on its way: the mail goes to a real SMTP peer on a port (below) that holds its answer to
 * the first message until the test lets it go, so the second sign-up is decided while the first
 * mail is in flight.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { startAccountsServer, uniqueEmail, type TestServer } from './harness';

/** A minimal SMTP server that counts the messages it accepts and can hold its answer to them. */
class HeldSmtp {
  private server: Server | null = null;
  private held: (() => void)[] = [];
  private holding = true;
  /** messages whose DATA has arrived (answered or held) */
  received = 0;
  private waiters: (() => void)[] = [];
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Resolves once `n` messages have arrived. */
  async arrived(n: number): Promise<void> {
    while (this.received < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Answers the held messages, and every later one at once. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private serve(socket: Socket): void {
    socket.on('error', () => {});
    let inData = false;
    let buffered = '';
    socket.write('220 held.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffered.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buffered = buffered.slice(end + 5);
          inData = false;
          this.received++;
          for (const wake of this.waiters.splice(0)) wake();
          const answer = () => socket.write('250 queued\r\n');
          if (this.holding) this.held.push(answer);
          else answer();
          continue;
        }
        const eol = buffered.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffered.slice(0, eol).toUpperCase();
        buffered = buffered.slice(eol + 2);
        if (line.startsWith('EHLO') || line.startsWith('HELO')) socket.write('250 held.test\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  }
}

describe('confirmation mail of a repeated sign-up', () => {
  let smtp: HeldSmtp | undefined;
  let s: TestServer | undefined;
  afterEach(async () => {
    smtp?.release();
    await s?.destroy();
    await smtp?.stop();
  });

  test('a second sign-up while the first confirmation is still being sent sends no second one', async () => {
    smtp = new HeldSmtp();
    await smtp.start();
    s = await startAccountsServer({ smtp: { host: '127.0.0.1', port: smtp.port, from: 'chess@held.test' } });
    const email = uniqueEmail();
    expect((await s.client().auth.signUp({ email, password: 'secret123' })).error).toBeNull();
    await smtp.arrived(1); // the first confirmation is at the SMTP server, unanswered
    expect((await s.client().auth.signUp({ email, password: 'secret123' })).error).toBeNull();
    smtp.release();
    await s.stop(); // the accounts module finishes the mail of every answered request first
    expect(smtp.received).toBe(1);
  });
});
