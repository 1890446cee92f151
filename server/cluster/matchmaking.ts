/**
 * One matchmaking pool for the whole site. One node at a time runs it (the holder of the
 * matchmaker role, server/cluster/membership.ts); it runs the same pool as a single node, with
 * the players of other nodes seated there as remote sessions. The other nodes pass their
 * players' searches and cancellations to it, and hand their searching players to the next
 * holder when the role moves, so nobody waits in a pool that no longer runs. Its pairings start a
 * game only once committed in Redis (server/cluster/pairingCommit.ts): a pool that lost the role
 * before it heard so pairs nobody.
 */
import type { Hub, PlayerSession } from '../realtime/hub';
import { CANCELED_TEXT, type Matchmaking } from '../game/matchmaking';
import type { BusMessage } from './messages';
import type { TimeControl } from '../../machines/protocol/messages';
import { socketOn } from '../round/seats';

/** What the socket layer asks of matchmaking, on one node or many. */
export interface MatchmakingPort {
  /** `timeControl`: the pool; none is the server's default pool */
  join(session: PlayerSession, name: string, timeControl?: TimeControl): void;
  leave(session: PlayerSession, cancel: boolean): void;
  readonly length: number;
}

export class SiteMatchmaking implements MatchmakingPort {
  /** the pool each searching player of this node asked for (kept when the search moves to another holder) */
  private readonly pools = new Map<string, TimeControl>();

  constructor(
    private readonly node: string,
    private readonly local: Matchmaking,
    private readonly hub: Hub,
    private readonly matchmaker: () => string,
    private readonly publish: (node: string, msg: BusMessage) => void,
  ) {}

  /** Players waiting in this node's pool (only the matchmaker's has any). */
  get length(): number {
    return this.local.length;
  }

  private get runsHere(): boolean {
    const holder = this.matchmaker();
    return holder === '' || holder === this.node;
  }

  join(session: PlayerSession, name: string, timeControl?: TimeControl): void {
    if (timeControl) this.pools.set(session.id, timeControl);
    else this.pools.delete(session.id);
    if (this.runsHere) return this.local.join(session, name, timeControl);
    session.name = name;
    session.queued = true;
    this.publish(this.matchmaker(), { k: 'join', n: this.node, p: session.id, kind: session.kind, name, ...(timeControl ? { tc: timeControl } : {}) });
  }

  leave(session: PlayerSession, cancel: boolean): void {
    this.pools.delete(session.id);
    if (this.runsHere) return this.local.leave(session, cancel);
    if (session.queued) {
      session.queued = false;
      this.publish(this.matchmaker(), { k: 'leave', n: this.node, p: session.id });
    }
    if (cancel) this.hub.sendTo(session, { type: 'matchmakingStatus', status: 'canceled', message: CANCELED_TEXT });
    this.hub.forgetIfIdle(session);
  }

  /**
   * A search from a player on another node. When the role has moved on from this node, it goes
   * to the holder: a pool that no longer runs here must not keep players the next one pairs too.
   */
  remoteJoin(from: string, playerId: string, kind: 'guest' | 'account', name: string, timeControl?: TimeControl): void {
    if (!this.runsHere) return this.publish(this.matchmaker(), { k: 'join', n: from, p: playerId, kind, name, ...(timeControl ? { tc: timeControl } : {}) });
    const session = this.hub.seat(playerId, kind);
    if (session.ws) return; // the player's socket is here now; its own search counts
    socketOn(session, from);
    this.local.join(session, name, timeControl);
  }

  remoteLeave(from: string, playerId: string): void {
    const session = this.hub.session(playerId);
    if (!session || session.node !== from) return;
    this.local.leave(session, false);
  }

  /**
   * The role moved: searching players of this node go to the new holder (or into this node's
   * pool when it is the new holder); a former holder's pool is emptied of every player, so that
   * it pairs nobody the new holder may pair too (other nodes' players are sent there by their
   * own nodes, which see the role move as well).
   */
  matchmakerChanged(previous: string): void {
    if (previous === this.node) {
      for (const session of [...this.hub.players.values()]) if (!session.ws && session.node) this.local.leave(session, false);
    }
    this.searchAgain(previous === this.node);
  }

  /**
   * This node's searching players search again with the holder: after the role moved, or after
   * this node's lease lapsed (the holder may have counted its players gone and dropped them).
   */
  searchAgain(leavingLocalPool = false): void {
    for (const session of this.hub.players.values()) {
      if (!session.ws || !session.queued) continue;
      const name = session.name ?? '';
      if (leavingLocalPool) this.local.leave(session, false);
      session.queued = false;
      this.join(session, name, this.pools.get(session.id));
    }
  }

  /** A player whose pairing fell through searches on: from here, or from the node of their socket. */
  searchOn(session: PlayerSession, timeControl?: TimeControl): void {
    const name = session.name ?? '';
    if (session.ws) return this.join(session, name, timeControl);
    if (session.node) this.remoteJoin(session.node, session.id, session.kind, name, timeControl);
  }

  /**
   * Another node started a game for the player (socket here): their search is over, and they
   * leave this node's pool too if it holds them (the role moved while the pairing was on its way).
   */
  foundElsewhere(session: PlayerSession): void {
    if (session.queued && this.runsHere) this.local.leave(session, false);
    session.queued = false;
    this.pools.delete(session.id);
  }
}
