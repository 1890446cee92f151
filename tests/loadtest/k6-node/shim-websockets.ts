/**
 * Stand-in for `k6/experimental/websockets` (and `k6/websockets`, the same API) on the `ws`
 * package: the same constructor (with its `params.headers`), send, close, readyState and addEventListener('open' |
 * 'message' | 'error' | 'close') as k6's WebSocket.
 */
import WsSocket from 'ws';
import { asThisVu, maybeIdle, runtime } from './runtime';

type Listener = (event: { type: string; data?: unknown; error?: string; timestamp: number }) => void;

export class WebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  private readonly ws: WsSocket;
  private readonly listeners = new Map<string, Listener[]>();
  private counted = true;

  constructor(readonly url: string, _protocols?: null, params?: { headers?: Record<string, string> } | null) {
    runtime().liveSockets++;
    this.ws = new WsSocket(url, { headers: params?.headers });
    this.ws.on('open', () => this.emit('open', {}));
    // Like k6: no message is delivered once close() was called.
    this.ws.on('message', (data: WsSocket.RawData, isBinary: boolean) => {
      if (this.ws.readyState === WsSocket.OPEN) this.emit('message', { data: isBinary ? data : data.toString() });
    });
    this.ws.on('error', (err: Error) => this.emit('error', { error: err.message }));
    this.ws.on('close', (code: number) => {
      // Like k6 (gorilla's IsUnexpectedCloseError with 1000 and 1001): a close frame with any
      // other code is also reported as an error; a dropped connection (1006) is not.
      if (code !== 1000 && code !== 1001 && code !== 1006) this.emit('error', { error: `websocket: close ${code}` });
      this.emit('close', {});
      if (this.counted) {
        this.counted = false;
        runtime().liveSockets--;
        maybeIdle();
      }
    });
  }

  get readyState(): number {
    const state = this.ws.readyState;
    // Object(1) == 1 but Object(1) !== 1, like the wrapped Go value of older k6 versions.
    return runtime().quirks.wrappedReadyState ? (Object(state) as number) : state;
  }

  addEventListener(event: string, listener: Listener): void {
    const list = this.listeners.get(event) ?? [];
    list.push(asThisVu(listener));
    this.listeners.set(event, list);
  }

  send(data: string): void {
    if (runtime().quirks.sendThrows) throw new Error('InvalidStateError');
    this.ws.send(data);
  }

  close(): void {
    this.ws.close();
  }

  private emit(type: string, extra: { data?: unknown; error?: string }): void {
    for (const l of this.listeners.get(type) ?? []) l({ type, timestamp: Date.now(), ...extra });
  }
}
