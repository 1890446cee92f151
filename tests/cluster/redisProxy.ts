/**
 * A TCP relay in front of the test Redis that a test can cut: `block()` drops every connection
 * and refuses new ones (as when Redis's port is firewalled or it restarts), `unblock()` lets
 * connections through again on the same port.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class RedisProxy {
  private server: Server | null = null;
  private readonly open = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.open.add(s);
        s.on('close', () => this.open.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async block(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.open) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  unblock(): Promise<void> {
    return this.start();
  }

  stop(): Promise<void> {
    return this.block();
  }
}

/** host and port of a redis:// URL */
export function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 6379) };
}
