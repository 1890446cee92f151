/**
 * The connection registry: which sockets are open, which player each belongs to, and the
 * player sessions (kept while a disconnected player still has a seat in a game).
 */
import type { TemplatedApp } from '../uws';
import type { ServerMessage } from '../../machines/protocol/messages';
import type { LagPings } from './lagPings';
import type { HeldMessage, PlayerSession, RemoteGame, SocketData, WS } from '../round/types';

export type { HeldMessage, PlayerSession, RemoteGame, SocketData, WS };

/** Delivery of frames to players whose socket is on another node (server/cluster). */
export interface RemoteDelivery {
  sendText(node: string, playerId: string, text: string): void;
  /** players online on the other nodes, as last counted */
  elsewhereOnline: number;
}

export const LOBBY_TOPIC = 'lobby';

/** How many players' messages sendOrKeep keeps at most while they are offline. */
export const KEPT_MAX = 10_000;

/**
 * How a kept message reaches its player who came back, when its producer wants more than the
 * message alone (a rated game's ratingChange brings the game's end with it); false: not sent.
 */
export type LateDelivery = (session: PlayerSession) => boolean;

/** A message kept for an offline player, and how to deliver it then. */
interface Kept {
  msg: ServerMessage;
  late?: LateDelivery;
}

export class Hub {
  readonly sockets = new Set<WS>();
  readonly players = new Map<string, PlayerSession>();
  private online = 0;
  private countTimer: NodeJS.Timeout | null = null;
  private lastCountSent = -1;
  private lastCountAt = -Infinity;
  /** set when the site has several nodes */
  remote: RemoteDelivery | null = null;
  /** messages for players offline when they were sent (sendOrKeep), oldest player first */
  private readonly kept = new Map<string, Kept[]>();

  constructor(
    private readonly app: TemplatedApp,
    private readonly countIntervalMs: number,
    /** lag pings, which ride along with the frames sent through sendBytesTo when they can */
    readonly pings: LagPings,
  ) {}

  /** players with an open socket on this node */
  get playersOnline(): number {
    return this.online;
  }

  /** players with an open socket on the whole site (what playerCount tells the players) */
  get sitePlayersOnline(): number {
    return this.online + (this.remote?.elsewhereOnline ?? 0);
  }

  /** The player has an open socket, here or on another node. */
  connected(session: PlayerSession): boolean {
    return session.ws !== null || Boolean(session.node);
  }

  session(playerId: string): PlayerSession | undefined {
    return this.players.get(playerId);
  }

  /** Attach a socket to a player, creating the session. Returns the socket it replaced, if any. */
  attach(ws: WS, playerId: string, kind: 'guest' | 'account'): { session: PlayerSession; replaced: WS | null } {
    const session = this.seat(playerId, kind);
    let replaced: WS | null = null;
    if (session.ws && session.ws !== ws) replaced = session.ws;
    if (!session.ws) this.online++;
    session.ws = ws;
    const data = ws.getUserData();
    data.playerId = playerId;
    data.session = session;
    this.countChanged();
    this.sendKept(session);
    return { session, replaced };
  }

  /** The player's session, created without a socket if there is none (a resumed game seats its players). */
  seat(playerId: string, kind: 'guest' | 'account'): PlayerSession {
    let session = this.players.get(playerId);
    if (!session) {
      session = { id: playerId, kind, ws: null, game: null, queued: false, node: null, remoteGame: null, lastRemoteGame: null };
      this.players.set(playerId, session);
    }
    return session;
  }

  /** The socket no longer speaks for its player (closed or rebound). */
  detach(ws: WS): PlayerSession | undefined {
    const session = ws.getUserData().session;
    if (!session || session.ws !== ws) return undefined;
    session.ws = null;
    this.online--;
    this.countChanged();
    return session;
  }

  /** Forget a player that has no socket and no seat. */
  forgetIfIdle(session: PlayerSession): void {
    if (!session.ws && !session.node && !session.game && !session.queued) this.players.delete(session.id);
  }

  send(playerId: string, msg: ServerMessage): boolean {
    const session = this.players.get(playerId);
    return session ? this.sendTo(session, msg) : false;
  }

  /**
   * A message a player must get even if offline now (a rated game's ratingChange, scored after
   * the database came back): sent now, or kept and delivered when the player's next socket
   * attaches on this node (by `late` when given). At most KEPT_MAX players' messages are kept,
   * the oldest dropped first.
   */
  sendOrKeep(playerId: string, msg: ServerMessage, late?: LateDelivery): void {
    const session = this.players.get(playerId);
    if (session && this.connected(session) && this.sendTo(session, msg)) return;
    const kept = this.kept.get(playerId) ?? [];
    this.kept.delete(playerId);
    this.kept.set(playerId, [...kept, late ? { msg, late } : { msg }]);
    for (const id of this.kept.keys()) {
      if (this.kept.size <= KEPT_MAX) break;
      this.kept.delete(id);
    }
  }

  /** What was kept for the player (sendOrKeep), after the handler that attached its socket; kept again if it cannot go. */
  private sendKept(session: PlayerSession): void {
    const kept = this.kept.get(session.id);
    if (!kept) return;
    this.kept.delete(session.id);
    setImmediate(() => {
      for (const { msg, late } of kept) {
        const sent = session.ws !== null && (late ? late(session) : this.sendTo(session, msg));
        if (!sent) this.sendOrKeep(session.id, msg, late);
      }
    });
  }

  sendTo(session: PlayerSession, msg: ServerMessage): boolean {
    if (session.ws) return this.sendWs(session.ws, JSON.stringify(msg));
    return this.sendRemote(session, JSON.stringify(msg));
  }

  /** A frame to a player whose socket is on another node; false when there is none. */
  private sendRemote(session: PlayerSession, text: string): boolean {
    if (!session.node || !this.remote) return false;
    this.remote.sendText(session.node, session.id, text);
    return true;
  }

  /** A frame (the games' gameMove, timerUpdate and gameEnd) to a player, with a lag ping when one is due. */
  sendBytesTo(session: PlayerSession, bytes: Uint8Array): boolean {
    const ws = session.ws;
    if (!ws) return this.sendRemote(session, Buffer.from(bytes).toString());
    const data = ws.getUserData();
    if (data.closing) return false;
    return this.pings.send(ws, data, bytes) !== 2;
  }

  sendWs(ws: WS, text: string): boolean {
    if (ws.getUserData().closing) return false;
    return ws.send(text, false) !== 2;
  }

  /**
   * playerCount broadcasts, coalesced: at most one per countIntervalMs. The spacing is kept on
   * the monotonic clock: with the wall clock, a step back (NTP, a resumed VM) would hold every
   * later broadcast back by the size of the step.
   */
  countChanged(): void {
    if (this.countTimer) return;
    const wait = Math.max(0, this.lastCountAt + this.countIntervalMs - performance.now());
    this.countTimer = setTimeout(() => {
      this.countTimer = null;
      this.lastCountAt = performance.now();
      const count = this.sitePlayersOnline;
      if (count === this.lastCountSent) return;
      this.lastCountSent = count;
      this.app.publish(LOBBY_TOPIC, JSON.stringify({ type: 'playerCount', count }), false);
    }, wait);
    this.countTimer.unref?.();
  }

  stop(): void {
    if (this.countTimer) clearTimeout(this.countTimer);
    this.countTimer = null;
  }
}
