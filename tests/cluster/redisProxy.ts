/**
 * A TCP relay in front of the test Redis (or the test PostgreSQL: it reads nothing of what it
 * carries but a Redis SUBSCRIBE) that a test can cut or slow down:
 * - `block()` drops every connection and refuses new ones (as when Redis's port is firewalled or
 *   it restarts), `unblock()` lets connections through again on the same port;
 * - `holdReplies(kind)` keeps Redis's answers to one kind of connection from reaching the node
 *   (its requests still reach Redis, in order) until `releaseReplies(kind)`: a node's commands
 *   can be kept waiting while its subscription still delivers messages, or the other way round.
 *   A connection is a subscription once it has sent SUBSCRIBE; every other one carries commands;
 * - `silence(kind)` makes the connections of one kind open now a black hole until they close:
 *   what the node writes on them is dropped (kept in `dropped` for the test to read), as on a
 *   connection whose other end vanished without a word; the node still sees it up.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type ConnectionKind = 'commands' | 'subscription';

/**
 * A SUBSCRIBE (or PSUBSCRIBE, SSUBSCRIBE) command as a client writes it (RESP: an array whose
 * first bulk string is the command's name), at the start of a command: not the word anywhere
 * in a published message.
 */
const SUBSCRIBE_COMMAND = /(?:^|\r\n)\*\d+\r\n\$\d+\r\n[ps]?subscribe\r\n/i;

interface Relayed {
  client: Socket;
  kind: ConnectionKind;
  /** Redis's answers kept back while this kind's replies are held */
  held: Buffer[];
  /** what the node writes goes nowhere */
  silenced: boolean;
}

export class RedisProxy {
  private server: Server | null = null;
  private readonly open = new Set<Socket>();
  private readonly relayed = new Set<Relayed>();
  private readonly holding = new Set<ConnectionKind>();
  /** what the node wrote on silenced connections (latin1), in order */
  dropped = '';
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      const relay: Relayed = { client, kind: 'commands', held: [], silenced: false };
      this.relayed.add(relay);
      for (const s of [client, upstream]) {
        this.open.add(s);
        s.on('close', () => this.open.delete(s));
        s.on('error', () => {});
      }
      client.on('data', (chunk: Buffer) => {
        if (relay.silenced) return void (this.dropped += chunk.toString('latin1'));
        if (relay.kind === 'commands' && SUBSCRIBE_COMMAND.test(chunk.toString('latin1'))) relay.kind = 'subscription';
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (this.holding.has(relay.kind)) relay.held.push(chunk);
        else client.write(chunk);
      });
      client.on('close', () => {
        this.relayed.delete(relay);
        upstream.destroy();
      });
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Redis's answers to connections of `kind` wait here from now on. */
  holdReplies(kind: ConnectionKind): void {
    this.holding.add(kind);
  }

  /** The answers kept back for connections of `kind` go on, in the order Redis gave them. */
  releaseReplies(kind: ConnectionKind): void {
    this.holding.delete(kind);
    for (const relay of this.relayed) {
      if (relay.kind !== kind) continue;
      for (const chunk of relay.held.splice(0)) relay.client.write(chunk);
    }
  }

  /** The connections of `kind` open now drop whatever the node writes on them, until they close. */
  silence(kind: ConnectionKind): void {
    for (const relay of this.relayed) if (relay.kind === kind) relay.silenced = true;
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
