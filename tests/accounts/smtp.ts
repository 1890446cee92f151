/**
 * A real SMTP server in the test process, collecting what it receives (optionally slow to accept,
 * or holding its answer to every message until `release()`).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpMessage {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  messages: SmtpMessage[];
  /** Resolves once `count` messages (default 1) to `address` have been received. */
  received(address: string, count?: number): Promise<SmtpMessage[]>;
  /** With `hold`: answers the messages received so far, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/**
 * `delayMs`: each message is received (and answered) that long after its data ends. `hold`: each
 * message is received but not answered until `release()`, so its sender is still waiting.
 */
export async function startTestSmtp(opts: { delayMs?: number; hold?: boolean } = {}): Promise<TestSmtp> {
  const messages: SmtpMessage[] = [];
  let holding = opts.hold ?? false;
  const held: (() => void)[] = [];
  const waiters: (() => void)[] = [];
  const to = (address: string) => messages.filter((m) => m.to.includes(address));
  const received = (address: string, count = 1) =>
    new Promise<SmtpMessage[]>((resolve) => {
      const check = () => {
        if (to(address).length < count) return false;
        resolve(to(address));
        return true;
      };
      if (!check()) waiters.push(() => void check());
    });
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        setTimeout(() => {
          messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          for (const wake of waiters) wake();
          if (holding) held.push(() => cb());
          else cb();
        }, opts.delayMs ?? 0),
      );
    },
  });
  const port = await new Promise<number>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)));
  const release = () => {
    holding = false;
    for (const answer of held.splice(0)) answer();
  };
  return { port, messages, received, release, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
