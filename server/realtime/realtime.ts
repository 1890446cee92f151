/**
 * The WebSocket endpoint: the socket's way in (doorway.ts), its player (a newer socket takes the
 * seat), the limits on its messages, parsing, and the router (router.ts): round commands to the
 * rounds, every other message to its route. What the site of several nodes says of a socket comes
 * through `site` (site.ts).
 */
import { RATE_LIMIT_CLOSE_CODE, SHUTDOWN_CLOSE_CODE, TOO_LARGE_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import type { Logger } from 'pino';
import type { TemplatedApp } from 'uWebSockets.js';
import type { ParsedMessage, ServerMessage } from '../../machines/protocol/messages';
import type { ServerMetrics } from '../http/metrics';
import type { MatchmakingPort } from '../cluster/matchmaking';
import type { Heartbeat } from '../heartbeat';
import { LOBBY_TOPIC, type Hub, type PlayerSession, type SocketData, type WS } from './hub';
import type { GuestIdentity } from './identity';
import type { Doorway } from './doorway';
import { takeToken } from './rateLimit';
import { moveLag } from './lagPings';
import { readMoveFrame } from './moveFrame';
import type { RefusalLog } from './refusalLog';
import type { Replies } from './replies';
import { dispatch, refusalOf, type Routes } from './router';
import type { SocketAccount } from './socketAccount';
import type { SocketSite } from './site';
import type { Spectators } from './spectators';
import type { LiveGamesFeed } from './liveGames';
import { isGameCommand, parseClientMessage, type ParseResult } from '../../machines/protocol/parse';
import type { Rounds } from '../round/round';

export interface RealtimeOptions {
  maxPayloadBytes: number;
  idleTimeoutSeconds: number;
  rateLimit: { messages: number; windowMs: number };
}

/** The parts the endpoint hands its sockets and messages to. */
export interface RealtimeParts {
  doorway: Doorway;
  site: SocketSite;
  rounds: Rounds;
  matchmaking: MatchmakingPort;
  account: SocketAccount;
  spectators: Spectators;
  /** the site's live games and their spectator counts */
  liveGames: LiveGamesFeed;
  routes: Routes;
  replies: Replies;
  refusals: RefusalLog;
  identity: GuestIdentity;
}

/**
 * How far past maxPayloadBytes uWS still reads a message, so that it can be refused with 1009
 * and counted. A frame larger still is cut by uWS as its header arrives (1006, counted at close).
 */
export const OVERSIZE_READ_MARGIN_BYTES = 64 * 1024;
/** uWS's close message when it cuts a frame over its maxPayloadLength */
const UWS_TOO_BIG = 'Received too big message';

/** how often expired identification answers and refilled address buckets are forgotten */
export const SWEEP_EVERY_MS = 10_000;

const TEXTS = {
  identityRejected: 'The saved player identity could not be verified; you are playing under a new player id.',
  binary: 'Binary messages are not accepted; send JSON text.',
  tooBig: 'message too big',
};

export class Realtime {
  /**
   * When the admission, identification and refusal tallies were last swept (performance.now()):
   * the first sweep comes a sweep period after the server starts.
   */
  private lastSweep = performance.now();

  constructor(
    readonly hub: Hub,
    private readonly parts: RealtimeParts,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
    private readonly opts: RealtimeOptions,
    private readonly heartbeat: Heartbeat,
  ) {}

  mount(app: TemplatedApp, path: string): void {
    app.ws<SocketData>(path, {
      maxPayloadLength: this.opts.maxPayloadBytes + OVERSIZE_READ_MARGIN_BYTES,
      idleTimeout: this.opts.idleTimeoutSeconds,
      sendPingsAutomatically: true,
      maxBackpressure: 256 * 1024,
      upgrade: (res, req, ctx) => this.parts.doorway.upgrade(res, req, ctx),
      open: (ws) => this.guard('open', ws, () => this.open(ws)),
      message: (ws, message, isBinary) => this.corkedMessage(ws, message, isBinary),
      close: (ws, code, message) => this.guard('close', ws, () => this.close(ws, code, message)),
      pong: (ws, message) => this.guard('pong', ws, () => this.hub.pings.pong(ws.getUserData(), message)),
    });
    this.heartbeat.onBeat((now) => {
      this.hub.pings.sweep(this.hub.sockets, this.heartbeat.periodMs, now);
      if (now - this.lastSweep >= SWEEP_EVERY_MS) {
        this.lastSweep = now;
        this.parts.doorway.sweep(now);
        this.parts.account.sweep();
        this.parts.refusals.sweep();
      }
    });
  }

  /**
   * The message handler, during which uWS has corked `ws`: frames to it go out in one write at
   * the end, so a lag ping due to it can go in the same write. (No closure per message: this is
   * the path every move takes.)
   */
  private corkedMessage(ws: WS, message: ArrayBuffer, isBinary: boolean): void {
    const pings = this.hub.pings;
    pings.corked = ws;
    try {
      this.message(ws, message, isBinary);
    } finally {
      pings.corked = null;
    }
  }

  /** Runs a socket callback; an exception is logged, never thrown into uWS. */
  private guard(what: string, ws: WS, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log.error({ err, playerId: ws.getUserData().playerId, what }, 'socket handler failed');
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Socket life cycle

  private open(ws: WS): void {
    const data = ws.getUserData();
    this.hub.sockets.add(ws);
    this.metrics.connectionsOpened.inc();
    ws.subscribe(LOBBY_TOPIC);
    if (data.identityRejected) {
      this.metrics.messagesRejected.inc({ reason: 'identity_rejected' });
      this.log.warn({ connId: data.connId }, 'guest identity rejected on connect: bad secret');
    }
    const session = this.bind(ws, data.playerId, 'guest');
    this.parts.site.opened(ws, data, (held) => this.handleHeld(ws, data, held));
    ws.cork(() => {
      this.parts.replies.send(ws, {
        type: 'connectionAck',
        playerId: session.id,
        count: this.hub.sitePlayersOnline,
        secret: this.parts.identity.secretFor(session.id),
      });
      if (data.identityRejected) this.parts.replies.send(ws, { type: 'error', code: 'identity_rejected', message: TEXTS.identityRejected });
    });
  }

  /** Binds a socket to a player: a newer socket takes the seat; the older one is told and closed. */
  bind(ws: WS, playerId: string, kind: 'guest' | 'account'): PlayerSession {
    const { session, replaced } = this.hub.attach(ws, playerId, kind);
    session.kind = kind;
    if (replaced) {
      this.log.info({ playerId, oldConn: replaced.getUserData().connId, newConn: ws.getUserData().connId }, 'newer socket took the seat');
      this.parts.replies.closeReplaced(replaced);
    }
    this.parts.rounds.presence.here(session, replaced !== null);
    return session;
  }

  private close(ws: WS, code: number, message: ArrayBuffer): void {
    const data = ws.getUserData();
    this.parts.doorway.release(data.address);
    if (code === 1006 && !data.closing && Buffer.from(message).toString() === UWS_TOO_BIG) {
      this.metrics.messagesRejected.inc({ reason: 'oversize' });
      this.log.info({ playerId: data.playerId, reason: 'oversize' }, 'message rejected');
    }
    data.closing = true;
    this.hub.sockets.delete(ws);
    this.parts.spectators.socketClosed(ws);
    if (data.replaced) return;
    const session = this.hub.detach(ws);
    if (!session) return;
    this.log.debug({ playerId: session.id, code }, 'socket closed');
    this.playerGone(session);
    this.parts.site.closed(session);
  }

  /** The player has no socket any more: leave the queue, start the grace period of a game. */
  private playerGone(session: PlayerSession): void {
    if (session.queued) this.parts.matchmaking.leave(session, false);
    this.parts.rounds.presence.gone(session);
    this.hub.forgetIfIdle(session);
  }

  /** The messages that came while the site was learning of the socket, handled in the order they came. */
  private handleHeld(ws: WS, data: SocketData, held: SocketData['held'] & object): void {
    ws.cork(() => {
      const pings = this.hub.pings;
      pings.corked = ws;
      try {
        for (const h of held) if (!data.closing) this.handle(ws, data, h.message, h.isBinary, h.arrivedAt);
      } finally {
        pings.corked = null;
      }
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Messages

  private message(ws: WS, message: ArrayBuffer, isBinary: boolean): void {
    const data = ws.getUserData();
    if (data.closing) return;
    const arrivedAt = performance.now();
    this.metrics.messagesReceived.inc();
    if (message.byteLength > this.opts.maxPayloadBytes) {
      this.parts.replies.reject(ws, 'oversize', `${TEXTS.tooBig} (${message.byteLength} bytes, at most ${this.opts.maxPayloadBytes})`, false);
      data.closing = true;
      ws.end(TOO_LARGE_CLOSE_CODE, TEXTS.tooBig);
      return;
    }
    if (!takeToken(data.rate, arrivedAt, this.opts.rateLimit.messages, this.opts.rateLimit.windowMs)) {
      this.parts.replies.reject(ws, 'rate_limit', 'too many messages', false);
      data.closing = true;
      ws.end(RATE_LIMIT_CLOSE_CODE, 'rate limit exceeded');
      return;
    }
    if (data.held) {
      data.held.push({ message: message.slice(0), isBinary, arrivedAt });
      return;
    }
    this.handle(ws, data, message, isBinary, arrivedAt);
  }

  /** A message within the limits: parsed, checked and routed. */
  private handle(ws: WS, data: SocketData, message: ArrayBuffer, isBinary: boolean, arrivedAt: number): void {
    if (isBinary) {
      this.parts.replies.reject(ws, 'binary', TEXTS.binary);
      return;
    }
    // A move as clients write it is read from the bytes; anything else is parsed and checked in full.
    const move = readMoveFrame(message);
    const parsed: ParseResult = move ? { ok: true, msg: move } : parseClientMessage(Buffer.from(message).toString('utf8'));
    if (!parsed.ok) {
      const refusal = refusalOf(parsed);
      this.parts.replies.refuse(ws, refusal.reason, refusal.detail, refusal.answer);
      return;
    }
    try {
      this.route(ws, data, parsed.msg, arrivedAt);
    } catch (err) {
      this.metrics.messagesRejected.inc({ reason: 'handler_error' });
      this.log.error({ err, playerId: data.playerId, type: parsed.msg.type }, 'message handler failed');
      this.parts.replies.send(ws, { type: 'error', code: 'server_error', message: 'The server could not handle that message.' });
    }
  }

  private route(ws: WS, data: SocketData, msg: ParsedMessage, arrivedAt: number): void {
    const session = data.session;
    if (!session || session.ws !== ws) return; // a socket without a seat (should not happen)
    if (isGameCommand(msg)) {
      this.parts.rounds.command(session, msg, arrivedAt, moveLag(data, arrivedAt));
      // a player back in their game is told its spectators, which only a change would tell
      if (msg.type === 'rejoinGame') this.parts.liveGames.tellSpectators(ws, msg.payload.gameId);
      return;
    }
    dispatch(this.parts.routes, ws, session, msg);
  }

  // ---------------------------------------------------------------------------------------------
  // Shutdown

  /** Tells every socket the server is going away and closes it. */
  closeAll(message: string): void {
    const text = JSON.stringify({ type: 'serverShutdown', message } satisfies ServerMessage);
    for (const ws of [...this.hub.sockets]) {
      const data = ws.getUserData();
      if (data.closing) continue;
      data.replaced = true; // do not start grace periods or leave-queue work while shutting down
      ws.cork(() => {
        ws.send(text, false);
        data.closing = true;
        ws.end(SHUTDOWN_CLOSE_CODE, 'server shutting down');
      });
    }
    this.hub.sockets.clear();
  }
}
