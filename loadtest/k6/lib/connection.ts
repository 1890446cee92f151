/**
 * One player's socket to the game server: opens `/socket` (optionally proving a previous guest
 * identity with the guest cookie), parses server messages, sends typed client messages, and counts socket errors.
 */
// k6/experimental/websockets: the one name for this API from k6 v0.40.0 to v2.2.0 at least
// (k6/websockets, the same API, exists only from v1.6.0; docs/operations.md, "k6 versions").
import { WebSocket } from 'k6/experimental/websockets';
import type { MessageEvent } from 'k6/experimental/websockets';
import type { ClientMessage, ServerMessage } from '../../../machines/protocol/messages.ts';
import { guestCookieHeader, type GuestCredentials } from '../../../machines/protocol/guestClaim.ts';
import { WS_URL } from './config.ts';
import { connectTime, protocolViolations, wsErrors, wsSendRefused } from './metrics.ts';

export type Identity = GuestCredentials;

export interface ConnectionHandlers {
  /** Every parsed server message, connectionAck included. */
  onMessage(msg: ServerMessage): void;
  /** The socket closed, whoever closed it. `expected` is true after close() was called. */
  onClose(expected: boolean): void;
}

/** The upgrade request's headers: with an identity, the guest cookie that proves it (never the URL). */
export function socketParams(identity?: Identity): { headers: Record<string, string> } | null {
  return identity ? { headers: { Cookie: guestCookieHeader(identity) } } : null;
}

/**
 * The OPEN readyState. readyState is compared after Number(): before v0.54 k6 hands it to the
 * script as a wrapped Go value, which equals 1 but is never === 1.
 */
const OPEN = 1;

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
    this.ws = new WebSocket(WS_URL, null, socketParams(identity));
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
    return !this.closed && !this.closing && Number(this.ws.readyState) === OPEN;
  }

  /**
   * Sends a message; false if it was not sent. After our own close() that is silent; any other
   * refusal (the socket not open, or k6's send() throwing) counts in ws_send_refused.
   */
  send(msg: ClientMessage): boolean {
    if (this.closing) return false;
    if (!this.isOpen) return this.refused(msg, `the socket is not open (readyState ${String(this.ws.readyState)})`);
    try {
      this.ws.send(JSON.stringify(msg));
      return true;
    } catch (err) {
      return this.refused(msg, String(err));
    }
  }

  private refused(msg: ClientMessage, why: string): false {
    wsSendRefused.add(1, { type: msg.type });
    logProblem(`could not send ${msg.type}: ${why}`);
    return false;
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
