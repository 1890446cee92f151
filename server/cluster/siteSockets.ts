/**
 * The site's side of this node's sockets (several nodes): a socket is admitted by the connect
 * rate of its address over every node, the site learns the player's socket is here (an older one
 * elsewhere is closed, their game elsewhere found) before its messages are handled, and a newer
 * socket of the player on another node closes this one without a disconnection.
 */
import type { Logger } from 'pino';
import { TRY_AGAIN_LATER_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import type { RequestLimiter } from '../accounts/rate-limit';
import { connectRateRefusal, type AdmissionRefusal } from '../realtime/admission';
import type { AdmissionLimits } from '../config/server';
import type { HeldMessage, Hub, PlayerSession, SocketData, WS } from '../realtime/hub';
import type { Replies } from '../realtime/replies';
import type { SocketSite } from '../realtime/site';
import type { Presence } from '../round/presence';
import type { MatchmakingPort } from './matchmaking';
import { NEW_GAMES_REFUSED, type ClusterNode, type RemoteSockets } from './node';

export class SiteSockets implements SocketSite, RemoteSockets {
  /** new sockets per address over the whole site */
  private readonly siteConnects: RequestLimiter | null;
  private readonly siteConnectWindowSeconds: number;

  constructor(
    private readonly cluster: ClusterNode,
    private readonly hub: Hub,
    private readonly replies: Replies,
    private readonly presence: Presence,
    private readonly matchmaking: MatchmakingPort,
    connectRate: AdmissionLimits['connectRate'],
    private readonly countRefused: (address: string, refusal: AdmissionRefusal) => void,
    private readonly log: Logger,
  ) {
    this.siteConnects = connectRate ? cluster.limits.limiter('connect', connectRate.burst, (connectRate.burst / connectRate.perSecond) * 1000) : null;
    this.siteConnectWindowSeconds = connectRate ? Math.ceil(1 / connectRate.perSecond) : 1;
  }

  newGamesRefused(): string | null {
    return this.cluster.healthy ? null : NEW_GAMES_REFUSED;
  }

  /**
   * Once the socket is open: the address's connect rate is checked for the whole site (a socket
   * past it is closed at once, TRY_AGAIN_LATER_CLOSE_CODE); then the site learns the player's
   * socket is here (an older one on another node is closed) and whether their live game is played
   * elsewhere. The socket's messages wait until then.
   */
  opened(ws: WS, data: SocketData, release: (held: HeldMessage[]) => void): void {
    void this.locate(ws, data, release);
  }

  private async locate(ws: WS, data: SocketData, release: (held: HeldMessage[]) => void): Promise<void> {
    try {
      if (!(await this.admits(data.address))) return this.refuse(ws, data);
      if (data.closing) return;
      const { elsewhere, order } = await this.cluster.socketOpened(data.playerId);
      data.siteOrder = order;
      const session = data.session;
      if (elsewhere && session && session.ws === ws && !session.game) this.cluster.playingElsewhere(session, elsewhere);
    } catch (err) {
      this.log.warn({ err: (err as Error).message, playerId: data.playerId }, 'could not look the player up on the site');
    }
    const held = data.held;
    data.held = null;
    const replaced = data.replacedWhileLocating;
    data.replacedWhileLocating = null;
    if (replaced) this.replaced(data.playerId, replaced.by, replaced.order);
    if (held && held.length > 0 && !data.closing) release(held);
  }

  /** Whether the site lets one more socket in from `address` (its connect rate over every node). */
  private async admits(address: string): Promise<boolean> {
    return this.siteConnects ? this.siteConnects.take(address) : true;
  }

  /** A socket past the site's connect rate for its address: counted, logged, closed with the reason. */
  private refuse(ws: WS, data: SocketData): void {
    const refusal = connectRateRefusal(this.siteConnectWindowSeconds);
    this.countRefused(data.address, refusal);
    data.held = null;
    if (data.closing) return;
    data.closing = true;
    ws.end(TRY_AGAIN_LATER_CLOSE_CODE, refusal.message);
  }

  /**
   * The account's socket is here now, and its live game may be played on another node; the
   * answer to identifyUser waits for that, so a checkActiveGame right after it finds the game.
   */
  accountBound(ws: WS, data: SocketData, account: PlayerSession): Promise<void> {
    data.siteOrder = undefined; // the guest's place; the account's comes with the answer
    return this.cluster.socketOpened(account.id).then(
      ({ elsewhere: game, order }) => {
        if (account.ws === ws) data.siteOrder = order;
        if (game && !account.game && account.ws === ws) this.cluster.playingElsewhere(account, game);
      },
      (err: Error) => this.log.warn({ err: err.message, playerId: account.id }, 'could not look the account up on the site'),
    );
  }

  closed(session: PlayerSession): void {
    this.cluster.socketClosed(session);
  }

  /**
   * The player connected on node `by` (socket `order` of the site's order); their socket here
   * closes without a disconnection, unless it is the newer one (the message was late: the player
   * connected here again after connecting there).
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
    this.hub.detach(ws);
    this.presence.movedTo(session, by);
    if (session.queued) this.matchmaking.leave(session, false);
    this.log.info({ playerId, node: by }, 'newer socket on another node took the seat');
    this.replies.closeReplaced(ws);
    this.hub.forgetIfIdle(session);
  }
}
