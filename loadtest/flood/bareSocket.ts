/**
 * A WebSocket client on a bare TCP socket, as light as an attacker's flooding tool: the upgrade
 * request is a fixed string, a text frame is masked with a fixed key, and only what the flood
 * needs is read back (the upgrade's status, then whole text frames). The server cannot tell it
 * from a browser: it gets the same bytes. A flood from another machine costs the server's
 * machine nothing on the client side; on the bench's one machine the flooding process shares
 * the cores, so the lighter it is, the closer the figure comes to the server's own share.
 * (Measured: the 1,000-socket flood cost its process about 200 ms of CPU this way, against
 * 380-490 ms with the `ws` client, which checks the accept hash and draws a random mask per frame.)
 */
import { connect, type Socket } from 'node:net';

/** RFC 6455's sample key: the flood does not check the server's accept hash, so any key will do. */
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const MASK = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
const OPCODE_TEXT = 0x1;
const OPCODE_CLOSE = 0x8;

export interface BareSocketEvents {
  /** the upgrade was answered with another status than 101 */
  refused(status: number): void;
  /** a whole text frame from the server */
  text(text: string, socket: BareSocket): void;
  /** the connection failed, or ended (a close frame, or the TCP connection) */
  ended(how: 'error' | 'closed'): void;
}

export class BareSocket {
  private readonly tcp: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private upgraded = false;
  private done = false;

  constructor(url: URL, localAddress: string, private readonly on: BareSocketEvents) {
    this.tcp = connect({ host: url.hostname, port: Number(url.port), localAddress, noDelay: true });
    this.tcp.on('connect', () => {
      this.tcp.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    this.tcp.on('data', (chunk) => this.read(chunk));
    this.tcp.on('error', () => this.end('error'));
    this.tcp.on('close', () => this.end('closed'));
  }

  /** Sends one masked text frame. */
  send(text: string): void {
    const payload = Buffer.from(text);
    const n = payload.length;
    if (n > 0xffff) throw new Error('a flood frame is under 64 KB');
    const head = n < 126 ? Buffer.from([0x80 | OPCODE_TEXT, 0x80 | n]) : Buffer.from([0x80 | OPCODE_TEXT, 0x80 | 126, n >> 8, n & 0xff]);
    for (let i = 0; i < n; i++) payload[i] ^= MASK[i & 3];
    this.tcp.write(Buffer.concat([head, MASK, payload]));
  }

  destroy(): void {
    this.done = true;
    this.tcp.destroy();
  }

  private end(how: 'error' | 'closed'): void {
    if (this.done) return;
    this.done = true;
    this.on.ended(how);
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (!this.upgraded) {
      const headEnd = this.buffered.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const status = Number(this.buffered.toString('latin1', 9, 12)); // "HTTP/1.1 101 ..."
      if (status !== 101) {
        this.done = true;
        this.on.refused(status);
        this.tcp.destroy();
        return;
      }
      this.upgraded = true;
      this.buffered = this.buffered.subarray(headEnd + 4);
    }
    this.readFrames();
  }

  /** Whole frames from the server (unmasked, as RFC 6455 has them); a partial one waits for more bytes. */
  private readFrames(): void {
    for (;;) {
      const b = this.buffered;
      if (b.length < 2) return;
      const opcode = b[0] & 0x0f;
      let length = b[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (b.length < 4) return;
        length = b.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (b.length < 10) return;
        length = Number(b.readBigUInt64BE(2));
        offset = 10;
      }
      if (b.length < offset + length) return;
      const payload = b.subarray(offset, offset + length);
      this.buffered = b.subarray(offset + length);
      if (opcode === OPCODE_CLOSE) return this.end('closed');
      if (opcode === OPCODE_TEXT) this.on.text(payload.toString(), this);
      if (this.done) return;
    }
  }
}
