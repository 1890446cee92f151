/** A real SMTP server in the test process, collecting what it receives (optionally slow to accept). */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  port: number;
  messages: { to: string[]; raw: string }[];
  close(): Promise<void>;
}

export async function startTestSmtp(opts: { delayMs?: number } = {}): Promise<TestSmtp> {
  const messages: TestSmtp['messages'] = [];
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
          cb();
        }, opts.delayMs ?? 0),
      );
    },
  });
  const port = await new Promise<number>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)));
  return { port, messages, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
