/**
 * The WebSocket endpoint: identity on upgrade, limits, parsing, routing of every client message
 * to matchmaking, the game actors, the AI service or the accounts module.
 */
import { REPLACED_CLOSE_CODE, RATE_LIMIT_CLOSE_CODE, SHUTDOWN_CLOSE_CODE, TOO_LARGE_CLOSE_CODE, TRY_AGAIN_LATER_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import type { Logger } from 'pino';
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t } from 'uWebSockets.js';
import { TEXT, type ErrorCode, type ParsedMessage, type ParsedPayloads, type ServerMessage } from '../../machines/protocol/messages';
import type { ServerMetrics } from '../http/metrics';
import type { MatchmakingPort } from '../cluster/matchmaking';
import { NEW_GAMES_REFUSED, type ClusterNode, type RemoteSockets } from '../cluster/node';
import type { AccessClaims, AccountsModule, AiService } from '../wiring';
import type { Heartbeat } from '../heartbeat';
import { Hub, LOBBY_TOPIC, type HeldMessage, type PlayerSession, type SocketData, type WS } from './hub';
import { guestClaim, type GuestIdentity } from './identity';
import { Admission, addressKey, connectRateRefusal, type AdmissionRefusal } from './admission';
import type { AdmissionLimits, IdentificationLimits } from '../config/server';
import type { RequestLimiter } from '../accounts/rate-limit';
import { TrustedProxies, clientAddress } from '../http/clientAddress';
import { Identification, tokenKey, type IdentifyOutcome } from './identification';
import { LagPings } from './lagPings';
import { newRateState, takeToken } from './rateLimit';
import { readMoveFrame } from './moveFrame';
import { RefusalLog } from './refusalLog';
import type { Spectators, WatchRefusal } from './spectators';
import { parseClientMessage, type ParseResult } from '../../machines/protocol/parse';
import { isRoundCommand } from '../round/commands';
import type { Rounds } from '../round/round';

export interface RealtimeOptions {
  maxPayloadBytes: number;
  idleTimeoutSeconds: number;
  rateLimit: { messages: number; windowMs: number };
  admission: AdmissionLimits;
  identification: IdentificationLimits;
  /** reverse proxies whose X-Forwarded-For names the client (TRUST_PROXY) */
  trustProxy: readonly string[];
  /** the spectators of live games (watchGame, unwatchGame) */
  spectators: Spectators;
}

/**
 * How far past maxPayloadBytes uWS still reads a message, so that it can be refused with 1009
 * and counted. A frame larger still is cut by uWS as its header arrives (1006, counted at close).
 */
export const OVERSIZE_READ_MARGIN_BYTES = 64 * 1024;
/** uWS's close message when it cuts a frame over its maxPayloadLength */
const UWS_TOO_BIG = 'Received too big message';
/** refusals answered by closing the socket (1008, 1009), not with an error message */
type ClosingRefusal = 'rate_limit' | 'oversize';
const isClosingRefusal = (reason: string): reason is ClosingRefusal => reason === 'rate_limit' || reason === 'oversize';

/** how often expired identification answers and refilled address buckets are forgotten */
const SWEEP_EVERY_MS = 10_000;

const TEXTS = {
  archiveUnavailable: 'The game archive is not available right now.',
  notSignedIn: 'Sign in to keep the games you played as a guest.',
  guestNotProved: 'That guest identity could not be verified, so its games stay where they are.',
  replaced: 'This player connected from another tab or device; this connection is closed.',
  identityRejected: 'The saved player identity could not be verified; you are playing under a new player id.',
  binary: 'Binary messages are not accepted; send JSON text.',
  aiUnavailable: 'AI is not available',
  accountsUnavailable: 'Accounts are not available',
  identifyFailed: 'Could not verify the access token; you stay a guest.',
  identifyBusy: 'Cannot change identity during a game or a search.',
  identifyPending: 'An identification of this connection is already being checked.',
  identifyRateLimited: 'Too many identifications right now; you stay as you are. Try again in a few seconds.',
  tooBig: 'message too big',
  aiWhileInGame: 'Cannot start an AI game while in an active game',
  invalidAiOptions: (issue: string) => `Invalid AI game options: ${issue}`,
};

export class Realtime implements RemoteSockets {
  private nextConnId = 1;
  private readonly admission: Admission;
  private readonly proxies: TrustedProxies;
  private readonly refusals: RefusalLog;
  private readonly identification: Identification | null;
  /**
   * When the admission, identification and refusal tallies were last swept (performance.now()):
   * the first sweep comes a sweep period after the server starts.
   */
  private lastSweep = performance.now();
  /** several nodes: new sockets per address over the whole site */
  private readonly siteConnects: RequestLimiter | null;
  private readonly siteConnectWindowSeconds: number;

  constructor(
    readonly hub: Hub,
    private readonly rounds: Rounds,
    private readonly matchmaking: MatchmakingPort,
    private readonly identity: GuestIdentity,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
    private readonly opts: RealtimeOptions,
    private readonly getAi: () => AiService | undefined,
    private readonly accounts: AccountsModule | undefined,
    private readonly heartbeat: Heartbeat,
    /** this node's part in a site of several nodes, or null for a single node */
    private readonly cluster: ClusterNode | null = null,
  ) {
    this.admission = new Admission(opts.admission);
    this.proxies = new TrustedProxies(opts.trustProxy);
    this.refusals = new RefusalLog(log, SWEEP_EVERY_MS);
    const rate = opts.admission.connectRate;
    this.siteConnects = cluster && rate ? cluster.limits.limiter('connect', rate.burst, (rate.burst / rate.perSecond) * 1000) : null;
    this.siteConnectWindowSeconds = rate ? Math.ceil(1 / rate.perSecond) : 1;
    this.identification = accounts
      ? new Identification((token) => accounts.verifyAccessToken(token), opts.identification, metrics.identifications)
      : null;
  }

  mount(app: TemplatedApp, path: string): void {
    app.ws<SocketData>(path, {
      maxPayloadLength: this.opts.maxPayloadBytes + OVERSIZE_READ_MARGIN_BYTES,
      idleTimeout: this.opts.idleTimeoutSeconds,
      sendPingsAutomatically: true,
      maxBackpressure: 256 * 1024,
      upgrade: (res, req, ctx) => this.upgrade(res, req, ctx),
      open: (ws) => this.guard('open', ws, () => this.open(ws)),
      message: (ws, message, isBinary) => this.corkedMessage(ws, message, isBinary),
      close: (ws, code, message) => this.guard('close', ws, () => this.close(ws, code, message)),
      pong: (ws, message) => this.guard('pong', ws, () => this.hub.pings.pong(ws.getUserData(), message)),
    });
    this.heartbeat.onBeat((now) => {
      this.hub.pings.sweep(this.hub.sockets, this.heartbeat.periodMs, now);
      if (now - this.lastSweep >= SWEEP_EVERY_MS) {
        this.lastSweep = now;
        this.admission.sweep(now);
        this.identification?.sweep();
        this.refusals.sweep();
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

  private upgrade(res: HttpResponse, req: HttpRequest, ctx: us_socket_context_t): void {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    const address = addressKey(clientAddress(peer, req.getHeader('x-forwarded-for') || undefined, this.proxies));
    const refusal = this.admission.admit(address, performance.now());
    if (refusal) {
      // answered at once with a status (429, or 503 when the server is full), before any other
      // work (the guest secret's HMAC included)
      this.refuse(res, address, refusal);
      return;
    }
    const claim = guestClaim(req);
    if (claim) this.metrics.guestClaims.inc({ form: claim.form });
    let playerId: string;
    let resumed = false;
    let identityRejected = false;
    if (claim && this.identity.verify(claim.playerId, claim.secret)) {
      playerId = claim.playerId;
      resumed = true;
    } else {
      if (claim) identityRejected = true;
      playerId = this.identity.newGuestId();
    }
    const data: SocketData = {
      connId: this.nextConnId++,
      playerId,
      address,
      resumed,
      identityRejected,
      rate: newRateState(performance.now()),
      closing: false,
      replaced: false,
      // present from the start, so every socket's data object keeps one shape (hot paths stay monomorphic)
      lagMs: undefined,
      lastPingAt: LagPings.NEVER,
      pingsInFlight: [],
      identifiedWith: null,
      identifying: false,
      session: null,
      held: this.cluster ? [] : null,
      siteOrder: undefined,
      replacedWhileLocating: null,
    };
    // Always within this handler: uWS (v20.30) can close a socket upgraded later, from a cork
    // of its own (the upgraded socket kept the address of the HTTP one, and cork() read HTTP
    // state there). Several nodes: what the site says of the socket comes after it opened.
    res.upgrade(data, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), ctx);
  }

  /** A connection refused (at the upgrade, or by the site once open): counted and logged. */
  private countRefused(address: string, refusal: AdmissionRefusal): void {
    this.metrics.connectionsRefused.inc({ reason: refusal.reason });
    this.refusals.note('connection', address, refusal.reason);
  }

  private refuse(res: HttpResponse, address: string, refusal: AdmissionRefusal): void {
    this.countRefused(address, refusal);
    res.cork(() => {
      res
        .writeStatus(refusal.status)
        .writeHeader('Retry-After', String(refusal.retryAfterSeconds))
        .writeHeader('Content-Type', 'text/plain; charset=utf-8')
        .writeHeader('Connection', 'close')
        .end(refusal.message, true);
    });
  }

  /** Whether the site lets one more socket in from `address` (its connect rate over every node). */
  private async siteAdmits(address: string): Promise<boolean> {
    return this.siteConnects ? this.siteConnects.take(address) : true;
  }

  /**
   * Several nodes, once the socket is open: the address's connect rate is checked for the whole
   * site (a socket past it is closed at once, TRY_AGAIN_LATER_CLOSE_CODE); then the site learns
   * the player's socket is here (an older one on another node is closed) and whether their live
   * game is played elsewhere. The socket's messages wait until then.
   */
  private async locateOnSite(cluster: ClusterNode, ws: WS, data: SocketData): Promise<void> {
    try {
      if (!(await this.siteAdmits(data.address))) return this.refuseOnSite(ws, data);
      if (data.closing) return;
      const { elsewhere, order } = await cluster.socketOpened(data.playerId);
      data.siteOrder = order;
      const session = data.session;
      if (elsewhere && session && session.ws === ws && !session.game) cluster.playingElsewhere(session, elsewhere);
    } catch (err) {
      this.log.warn({ err: (err as Error).message, playerId: data.playerId }, 'could not look the player up on the site');
    }
    const held = data.held;
    data.held = null;
    const replaced = data.replacedWhileLocating;
    data.replacedWhileLocating = null;
    if (replaced) this.replaced(data.playerId, replaced.by, replaced.order);
    if (held) this.handleHeld(ws, data, held);
  }

  /** A socket past the site's connect rate for its address: counted, logged, closed with the reason. */
  private refuseOnSite(ws: WS, data: SocketData): void {
    const refusal = connectRateRefusal(this.siteConnectWindowSeconds);
    this.countRefused(data.address, refusal);
    data.held = null;
    if (data.closing) return;
    data.closing = true;
    ws.end(TRY_AGAIN_LATER_CLOSE_CODE, refusal.message);
  }

  /** The messages that came while the socket was being located, handled in the order they came. */
  private handleHeld(ws: WS, data: SocketData, held: HeldMessage[]): void {
    if (held.length === 0 || data.closing) return;
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
    if (this.cluster) void this.locateOnSite(this.cluster, ws, data);
    ws.cork(() => {
      this.sendWs(ws, {
        type: 'connectionAck',
        playerId: session.id,
        count: this.hub.sitePlayersOnline,
        secret: this.identity.secretFor(session.id),
      });
      if (data.identityRejected) this.sendWs(ws, { type: 'error', code: 'identity_rejected', message: TEXTS.identityRejected });
    });
  }

  /** Binds a socket to a player: a newer socket takes the seat; the older one is told and closed. */
  private bind(ws: WS, playerId: string, kind: 'guest' | 'account'): PlayerSession {
    const { session, replaced } = this.hub.attach(ws, playerId, kind);
    session.kind = kind;
    if (replaced) {
      const old = replaced.getUserData();
      old.replaced = true;
      this.sendWs(replaced, { type: 'error', code: 'replaced', message: TEXTS.replaced });
      old.closing = true;
      this.log.info({ playerId, oldConn: old.connId, newConn: ws.getUserData().connId }, 'newer socket took the seat');
      replaced.end(REPLACED_CLOSE_CODE, 'replaced by a newer connection');
    }
    this.rounds.presence.here(session, replaced !== null);
    return session;
  }

  private close(ws: WS, code: number, message: ArrayBuffer): void {
    const data = ws.getUserData();
    this.admission.release(data.address);
    if (code === 1006 && !data.closing && Buffer.from(message).toString() === UWS_TOO_BIG) {
      this.metrics.messagesRejected.inc({ reason: 'oversize' });
      this.log.info({ playerId: data.playerId, reason: 'oversize' }, 'message rejected');
    }
    data.closing = true;
    this.hub.sockets.delete(ws);
    this.opts.spectators.socketClosed(ws);
    if (data.replaced) return;
    const session = this.hub.detach(ws);
    if (!session) return;
    this.log.debug({ playerId: session.id, code }, 'socket closed');
    this.playerGone(session);
    this.cluster?.socketClosed(session);
  }

  /**
   * Several nodes: the player connected on node `by` (socket `order` of the site's order); their
   * socket here closes without a disconnection, unless it is the newer one (the message was late:
   * the player connected here again after connecting there).
   */
  replaced(playerId: string, by: string, order: number): void {
    const session = this.hub.session(playerId);
    const ws = session?.ws;
    if (!session || !ws) return;
    const data = ws.getUserData();
    if (data.held) {
      // still being located: decided once its own place is known
      data.replacedWhileLocating = { by, order };
      return;
    }
    if (data.siteOrder !== undefined && data.siteOrder > order) {
      this.log.info({ playerId, node: by }, 'a late request to close an older socket left the newer one here open');
      return;
    }
    data.replaced = true;
    this.sendWs(ws, { type: 'error', code: 'replaced', message: TEXTS.replaced });
    data.closing = true;
    this.hub.detach(ws);
    this.rounds.presence.movedTo(session, by);
    if (session.queued) this.matchmaking.leave(session, false);
    this.log.info({ playerId, node: by }, 'newer socket on another node took the seat');
    ws.end(REPLACED_CLOSE_CODE, 'replaced by a newer connection');
    this.hub.forgetIfIdle(session);
  }

  /** The player has no socket any more: leave the queue, start the grace period of a game. */
  private playerGone(session: PlayerSession): void {
    if (session.queued) this.matchmaking.leave(session, false);
    this.rounds.presence.gone(session);
    this.hub.forgetIfIdle(session);
  }

  // ---------------------------------------------------------------------------------------------
  // Messages

  private message(ws: WS, message: ArrayBuffer, isBinary: boolean): void {
    const data = ws.getUserData();
    if (data.closing) return;
    const arrivedAt = performance.now();
    this.metrics.messagesReceived.inc();
    if (message.byteLength > this.opts.maxPayloadBytes) {
      this.reject(ws, 'oversize', `${TEXTS.tooBig} (${message.byteLength} bytes, at most ${this.opts.maxPayloadBytes})`, false);
      data.closing = true;
      ws.end(TOO_LARGE_CLOSE_CODE, TEXTS.tooBig);
      return;
    }
    if (!takeToken(data.rate, arrivedAt, this.opts.rateLimit.messages, this.opts.rateLimit.windowMs)) {
      this.reject(ws, 'rate_limit', 'too many messages', false);
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
      this.reject(ws, 'binary', TEXTS.binary);
      return;
    }
    // A move as clients write it is read from the bytes; anything else is parsed and checked in full.
    const move = readMoveFrame(message);
    const parsed: ParseResult = move ? { ok: true, msg: move } : parseClientMessage(Buffer.from(message).toString('utf8'));
    if (!parsed.ok) {
      if (parsed.reason === 'invalid_payload' && (parsed.type === 'gameMove' || parsed.type === 'playerMoveAI')) {
        this.metrics.messagesRejected.inc({ reason: parsed.reason });
        this.log.info({ playerId: data.playerId, reason: parsed.reason, detail: parsed.detail }, 'message rejected');
        this.sendWs(ws, { type: 'moveRejected', message: parsed.detail });
        return;
      }
      if (parsed.reason === 'invalid_payload' && parsed.type === 'startAIGame') {
        this.reject(ws, 'invalid_options', TEXTS.invalidAiOptions(parsed.issue ?? parsed.detail));
        return;
      }
      this.reject(ws, parsed.reason, parsed.detail);
      return;
    }
    try {
      this.route(ws, data, parsed.msg, arrivedAt);
    } catch (err) {
      this.metrics.messagesRejected.inc({ reason: 'handler_error' });
      this.log.error({ err, playerId: data.playerId, type: parsed.msg.type }, 'message handler failed');
      this.sendWs(ws, { type: 'error', code: 'server_error', message: 'The server could not handle that message.' });
    }
  }

  /** Counts and logs a refused message; answers it with an error unless the socket is being closed for it. */
  private reject(ws: WS, reason: ErrorCode | ClosingRefusal, message: string, reply = true, gameId?: string): void {
    this.metrics.messagesRejected.inc({ reason });
    this.log.info({ playerId: ws.getUserData().playerId, reason, detail: message }, 'message rejected');
    if (reply && !isClosingRefusal(reason)) this.sendWs(ws, { type: 'error', code: reason, message, ...(gameId ? { gameId } : {}) });
  }

  private sendWs(ws: WS, msg: ServerMessage): void {
    this.hub.sendWs(ws, JSON.stringify(msg));
  }

  private route(ws: WS, data: SocketData, msg: ParsedMessage, arrivedAt: number): void {
    const session = data.session;
    if (!session || session.ws !== ws) return; // a socket without a seat (should not happen)
    if (isRoundCommand(msg)) return this.rounds.command(session, msg, arrivedAt, data.lagMs);
    switch (msg.type) {
      case 'findGame':
        return this.findGame(ws, session, msg.payload);
      case 'cancelMatchmaking':
        return this.matchmaking.leave(session, true);
      case 'identifyUser':
        return void this.identifyUser(ws, session, msg.payload);
      case 'startAIGame':
        return this.startAi(ws, session, msg.payload);
      case 'claimGuestGames':
        return void this.claimGuestGames(ws, session, msg.payload);
      case 'watchGame': {
        const { gameId } = msg.payload;
        const answer = this.opts.spectators.watch(ws, gameId);
        // a game played on another node is answered once its owner is known
        if (answer instanceof Promise) return void answer.then((refused) => this.refuseWatch(ws, gameId, refused));
        return this.refuseWatch(ws, gameId, answer);
      }
      case 'unwatchGame':
        return this.refuseWatch(ws, msg.payload.gameId, this.opts.spectators.unwatch(ws, msg.payload.gameId));
    }
  }

  private refuseWatch(ws: WS, gameId: string, refused: WatchRefusal | null): void {
    if (refused) this.reject(ws, refused.code, refused.message, true, gameId);
  }

  /** claimGuestGames: a signed-in player takes the archived games of a guest identity it proves. */
  private async claimGuestGames(ws: WS, session: PlayerSession, payload: ParsedPayloads['claimGuestGames']): Promise<void> {
    const archive = this.accounts?.archive;
    if (!archive) return this.reject(ws, 'archive_unavailable', TEXTS.archiveUnavailable);
    if (session.kind !== 'account') return this.reject(ws, 'not_signed_in', TEXTS.notSignedIn);
    if (!this.identity.verify(payload.guestId, payload.secret)) return this.reject(ws, 'identity_rejected', TEXTS.guestNotProved);
    try {
      const count = await archive.claimGuestGames(payload.guestId, session.id);
      this.sendWs(ws, { type: 'guestGamesClaimed', guestId: payload.guestId, count });
    } catch (err) {
      this.log.error({ err, playerId: session.id }, 'claiming guest games failed');
      this.reject(ws, 'archive_unavailable', TEXTS.archiveUnavailable);
    }
  }

  /**
   * Several nodes: true (counted and logged) while no new game may start here, because the
   * site's store (Redis) is unreachable or this node's lease is uncertain: a game started now
   * could not be found, nor taken over, by the other nodes.
   */
  private newGamesRefused(session: PlayerSession, what: 'search' | 'AI game'): boolean {
    if (!this.cluster || this.cluster.healthy) return false;
    this.metrics.messagesRejected.inc({ reason: 'unavailable' });
    this.log.warn({ playerId: session.id, reason: 'unavailable' }, `${what} refused: the site store is unreachable`);
    return true;
  }

  private findGame(ws: WS, session: PlayerSession, payload: ParsedPayloads['findGame']): void {
    if (this.newGamesRefused(session, 'search')) {
      this.sendWs(ws, { type: 'matchmakingStatus', status: 'idle', message: NEW_GAMES_REFUSED });
      return;
    }
    if (this.rounds.heldBy(session)) {
      this.metrics.messagesRejected.inc({ reason: 'active_game' });
      this.log.info({ playerId: session.id, reason: 'active_game' }, 'search refused');
      this.sendWs(ws, { type: 'matchmakingStatus', status: 'idle', message: TEXT.activeGameRefusal });
      return;
    }
    const name = payload?.username || TEXT.anonymousName;
    this.matchmaking.join(session, name, payload?.timeControl);
  }

  /**
   * identifyUser: binds the socket to the account of a valid access token. A token is checked
   * once per socket (the same token again gets the same answer unchecked) and within the
   * identification budget (realtime/identification.ts); one check per socket at a time.
   */
  private async identifyUser(ws: WS, session: PlayerSession, payload: ParsedPayloads['identifyUser']): Promise<void> {
    const identification = this.identification;
    if (!identification) {
      this.reject(ws, 'accounts_unavailable', TEXTS.accountsUnavailable);
      return;
    }
    const data = ws.getUserData();
    if (data.identifying) {
      this.reject(ws, 'identify_pending', TEXTS.identifyPending);
      return;
    }
    const key = tokenKey(payload.accessToken);
    let outcome: IdentifyOutcome;
    if (data.identifiedWith?.key === key) {
      this.metrics.identifications.inc({ outcome: 'repeated' });
      const claims = data.identifiedWith.claims;
      outcome = claims ? { kind: 'ok', claims } : { kind: 'failed' };
    } else {
      data.identifying = true;
      try {
        outcome = await identification.check(payload.accessToken, key, data.address);
      } finally {
        data.identifying = false;
      }
      if (outcome.kind !== 'rate_limited') data.identifiedWith = { key, claims: outcome.kind === 'ok' ? outcome.claims : null };
    }
    if (data.closing) return;
    if (outcome.kind === 'rate_limited') {
      this.metrics.messagesRejected.inc({ reason: 'identify_rate_limited' });
      this.refusals.note('identify', data.address, 'identify_rate_limited');
      this.sendWs(ws, { type: 'error', code: 'identify_rate_limited', message: TEXTS.identifyRateLimited });
      return;
    }
    if (outcome.kind === 'failed' || outcome.claims.sub !== payload.userId) {
      this.reject(ws, 'identify_failed', TEXTS.identifyFailed);
      return;
    }
    this.bindAccount(ws, data, outcome.claims);
  }

  /** Moves a socket whose token checked out from its guest seat to the account's. */
  private bindAccount(ws: WS, data: SocketData, claims: AccessClaims): void {
    const current = this.hub.session(data.playerId);
    if (!current || current.ws !== ws) return;
    const identified = { type: 'identified', playerId: claims.sub, ...(claims.username ? { username: claims.username } : {}) } as const;
    if (current.id === claims.sub) {
      this.sendWs(ws, identified);
      return;
    }
    if (current.queued || this.rounds.heldBy(current)) {
      this.reject(ws, 'identify_busy', TEXTS.identifyBusy);
      return;
    }
    // Leave the guest seat and take the account's (a newer socket takes over an older one).
    this.hub.detach(ws);
    this.hub.forgetIfIdle(current);
    const account = this.bind(ws, claims.sub, 'account');
    if (claims.username && !account.name) account.name = claims.username;
    this.log.info({ guestId: current.id, playerId: account.id }, 'socket identified as an account');
    if (!this.cluster) {
      this.sendWs(ws, identified);
      return;
    }
    // several nodes: the account's socket is here now, and its live game may be played on
    // another node; the answer waits for that, so a checkActiveGame right after it finds the game
    const cluster = this.cluster;
    data.siteOrder = undefined; // the guest's place; the account's comes with the answer
    cluster.socketOpened(account.id).then(
      ({ elsewhere: game, order }) => {
        if (account.ws === ws) data.siteOrder = order;
        if (game && !account.game && account.ws === ws) cluster.playingElsewhere(account, game);
      },
      (err: Error) => this.log.warn({ err: err.message, playerId: account.id }, 'could not look the account up on the site'),
    ).finally(() => this.sendWs(ws, identified));
  }

  private startAi(ws: WS, session: PlayerSession, payload: ParsedPayloads['startAIGame']): void {
    const ai = this.getAi();
    if (!ai) {
      this.reject(ws, 'ai_unavailable', TEXTS.aiUnavailable);
      return;
    }
    if (this.newGamesRefused(session, 'AI game')) {
      this.sendWs(ws, { type: 'error', code: 'unavailable', message: NEW_GAMES_REFUSED });
      return;
    }
    if (session.game || session.remoteGame) {
      this.reject(ws, 'active_game', TEXTS.aiWhileInGame);
      return;
    }
    if (session.queued) this.matchmaking.leave(session, false);
    ai.start(session.id, payload.options, ws.getUserData().address);
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
