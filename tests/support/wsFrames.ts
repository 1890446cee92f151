/**
 * WebSocket frames built by hand, to send several messages in ONE write on a client's socket: the
 * server then reads them in one receive and handles them in one turn of its event loop, which
 * separate `send`s (a write each) never reliably give. For a test of what the server does with the
 * news of one turn.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import WebSocket from 'ws';

/** A client's text frame (final, masked, as RFC 6455 has a client send it) carrying `text`. */
export function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const n = payload.length;
  const length = n < 126 ? Buffer.from([0x80 | n]) : n < 0x10000 ? Buffer.from([0x80 | 126, n >> 8, n & 0xff]) : lengthOf64Bits(n);
  const mask = randomBytes(4);
  const masked = Buffer.alloc(n);
  for (let i = 0; i < n; i++) masked[i] = payload[i] ^ mask[i % 4];
  return Buffer.concat([Buffer.from([0x80 | 0x1]), length, mask, masked]);
}

function lengthOf64Bits(n: number): Buffer {
  const b = Buffer.alloc(9);
  b[0] = 0x80 | 127;
  b.writeBigUInt64BE(BigInt(n), 1);
  return b;
}

/**
 * Writes `texts` as text frames in one write on the open socket under `ws` (a `ws` client). Call it
 * while the client sends nothing else, so its own frames do not interleave.
 */
export function writeFramesAtOnce(ws: WebSocket, texts: readonly string[]): void {
  if (ws.readyState !== WebSocket.OPEN) throw new Error('the socket is not open');
  // ws keeps the connection's socket as `_socket` (not in its types)
  const socket = (ws as unknown as { _socket: Socket | null })._socket;
  if (!socket) throw new Error('the client has no socket');
  socket.write(Buffer.concat(texts.map(maskedTextFrame)));
}
