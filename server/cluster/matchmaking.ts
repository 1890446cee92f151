/**
 * One matchmaking pool for the whole site. One node at a time runs it (the holder of the
 * matchmaker role, server/cluster/membership.ts); it runs the same pool as a single node, with
 * the players of other nodes seated there as remote sessions. The other nodes pass their
 * players' searches and cancellations to it, and hand their searching players to the next
 * holder when the role moves, so nobody waits in a pool that no longer runs.
 */
import type { Hub, PlayerSession } from '../realtime/hub';
import { CANCELED_TEXT, type Matchmaking } from '../game/matchmaking';
import type { BusMessage } from './messages';
import { socketOn } from '../round/seats';

/** What the socket layer asks of matchmaking, on one node or many. */
export interface MatchmakingPort {
  join(session: PlayerSession, name: string): void;
  leave(session: PlayerSession, cancel: boolean): void;
  readonly length: number;
}

export class SiteMatchmaking implements MatchmakingPort {
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

  join(session: PlayerSession, name: string): void {
    if (this.runsHere) return this.local.join(session, name);
    session.name = name;
    session.queued = true;
    this.publish(this.matchmaker(), { k: 'join', n: this.node, p: session.id, kind: session.kind, name });
  }

  leave(session: PlayerSession, cancel: boolean): void {
    if (this.runsHere) return this.local.leave(session, cancel);
    if (session.queued) {
      session.queued = false;
      this.publish(this.matchmaker(), { k: 'leave', n: this.node, p: session.id });
    }
    if (cancel) this.hub.sendTo(session, { type: 'matchmakingStatus', status: 'canceled', message: CANCELED_TEXT });
    this.hub.forgetIfIdle(session);
  }

  /** A search from a player on another node (this node runs the pool). */
  remoteJoin(from: string, playerId: string, kind: 'guest' | 'account', name: string): void {
    const session = this.hub.seat(playerId, kind);
    if (session.ws) return; // the player's socket is here now; its own search counts
    socketOn(session, from);
    this.local.join(session, name);
  }

  remoteLeave(from: string, playerId: string): void {
    const session = this.hub.session(playerId);
    if (!session || session.node !== from) return;
    this.local.leave(session, false);
  }

  /**
   * The role moved: searching players of this node go to the new holder (or into this node's
   * pool when it is the new holder); a former holder's pool is emptied of this node's players.
   */
  matchmakerChanged(previous: string): void {
    const wasHere = previous === this.node;
    for (const session of this.hub.players.values()) {
      if (!session.ws || !session.queued) continue;
      const name = session.name ?? '';
      if (wasHere) this.local.leave(session, false);
      session.queued = false;
      this.join(session, name);
    }
  }
}
