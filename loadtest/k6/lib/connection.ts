/**
 * One player's socket to the game server: opens `/socket` (optionally proving a previous guest
 * identity), parses server messages, sends typed client messages, and counts socket errors.
 */
import { WebSocket } from 'k6/websockets';
import type { MessageEvent } from 'k6/websockets';
import type { ClientMessage, ServerMessage } from '../../../machines/protocol/messages.ts';
import { WS_URL } from './config.ts';
import { connectTime, protocolViolations, wsErrors } from './metrics.ts';

export interface Identity {
  playerId: string;
  secret: string;
}

export interface ConnectionHandlers {
  /** Every parsed server message, connectionAck included. */
  onMessage(msg: ServerMessage): void;
  /** The socket closed, whoever closed it. `expected` is true after close() was called. */
  onClose(expected: boolean): void;
}

/** The socket URL; with an identity, the reconnect form `/socket?playerId=…&secret=…`. */
export function socketUrl(identity?: Identity): string {
  if (!identity) return WS_URL;
  const sep = WS_URL.includes('?') ? '&' : '?';
  return `${WS_URL}${sep}playerId=${encodeURIComponent(identity.playerId)}&secret=${encodeURIComponent(identity.secret)}`;
}

let loggedErrors = 0;
/** Logs the first few problems of a VU in full; counting continues in the metrics. */
export function logProblem(text: string): void {
  if (loggedErrors < 5) console.warn(`VU ${__VU}: ${text}`);
  loggedErrors++;
}

export class Connection {
  private readonly ws: WebSocket;
  private readonly openedAt = Date.now();
  private closing = false;
  private closed = false;
  identity?: Identity;

  constructor(
    private readonly handlers: ConnectionHandlers,
    identity?: Identity,
  ) {
    this.ws = new WebSocket(socketUrl(identity));
    this.ws.addEventListener('message', (e) => this.receive(e as MessageEvent));
    this.ws.addEventListener('error', (e) => {
      // An error during our own close is not a server problem.
      if (this.closing) return;
      wsErrors.add(1);
      logProblem(`socket error: ${'error' in e ? e.error : 'unknown'}`);
    });
    this.ws.addEventListener('close', () => {
      this.closed = true;
      this.handlers.onClose(this.closing);
    });
  }

  get isOpen(): boolean {
    // 1 = OPEN (the literal, not WebSocket.OPEN: not every k6 version defines the constants).
    return !this.closed && !this.closing && this.ws.readyState === 1;
  }

  send(msg: ClientMessage): boolean {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close(): void {
    if (this.closing || this.closed) return;
    this.closing = true;
    this.ws.close();
  }

  private receive(e: MessageEvent): void {
    if (typeof e.data !== 'string') {
      protocolViolations.add(1, { what: 'binary frame' });
      logProblem('server sent a binary frame');
      return;
    }
    let msg: ServerMessage;
    try {
      msg = JSON.parse(e.data) as ServerMessage;
    } catch {
      protocolViolations.add(1, { what: 'bad json' });
      logProblem(`server sent invalid JSON: ${e.data.slice(0, 120)}`);
      return;
    }
    if (!msg || typeof msg !== 'object' || typeof msg.type !== 'string') {
      protocolViolations.add(1, { what: 'no type' });
      logProblem(`server message without a type: ${e.data.slice(0, 120)}`);
      return;
    }
    if (msg.type === 'connectionAck') {
      connectTime.add(Date.now() - this.openedAt);
      if (msg.secret) this.identity = { playerId: msg.playerId, secret: msg.secret };
    }
    try {
      this.handlers.onMessage(msg);
    } catch (err) {
      // k6 closes the socket when a listener throws; count it and keep playing instead.
      protocolViolations.add(1, { what: 'handler threw' });
      logProblem(`handling ${msg.type} threw: ${String(err)}`);
    }
  }
}
