/**
 * The account a socket speaks for: identifyUser binds it to the account of a valid access token
 * (within the identification budget), claimGuestGames moves a proved guest's archived games to it.
 */
import type { Logger } from 'pino';
import type { ParsedPayloads } from '../../machines/protocol/messages';
import type { ServerMetrics } from '../http/metrics';
import type { AccessClaims, AccountsModule } from '../wiring';
import type { Rounds } from '../round/round';
import type { Hub, PlayerSession, SocketData, WS } from './hub';
import type { GuestIdentity } from './identity';
import { Identification, tokenKey, type IdentifyOutcome } from './identification';
import type { IdentificationLimits } from '../config/server';
import type { RefusalLog } from './refusalLog';
import type { Replies } from './replies';
import type { SocketSite } from './site';

const TEXTS = {
  archiveUnavailable: 'The game archive is not available right now.',
  notSignedIn: 'Sign in to keep the games you played as a guest.',
  guestNotProved: 'That guest identity could not be verified, so its games stay where they are.',
  accountsUnavailable: 'Accounts are not available',
  identifyFailed: 'Could not verify the access token; you stay a guest.',
  identifyBusy: 'Cannot change identity during a game or a search.',
  identifyPending: 'An identification of this connection is already being checked.',
  identifyRateLimited: 'Too many identifications right now; you stay as you are. Try again in a few seconds.',
};

export class SocketAccount {
  private readonly identification: Identification | null;

  constructor(
    private readonly hub: Hub,
    private readonly replies: Replies,
    private readonly rounds: Rounds,
    private readonly site: SocketSite,
    private readonly identity: GuestIdentity,
    private readonly accounts: AccountsModule | undefined,
    limits: IdentificationLimits,
    private readonly refusals: RefusalLog,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
    /** seats the socket as a player (a newer socket takes over an older one) */
    private readonly bind: (ws: WS, playerId: string, kind: 'guest' | 'account') => PlayerSession,
  ) {
    this.identification = accounts ? new Identification((token) => accounts.verifyAccessToken(token), limits, metrics.identifications) : null;
  }

  sweep(): void {
    this.identification?.sweep();
  }

  /**
   * identifyUser: binds the socket to the account of a valid access token. A token is checked
   * once per socket (the same token again gets the same answer unchecked) and within the
   * identification budget (realtime/identification.ts); one check per socket at a time.
   */
  async identify(ws: WS, payload: ParsedPayloads['identifyUser']): Promise<void> {
    const identification = this.identification;
    if (!identification) return this.replies.reject(ws, 'accounts_unavailable', TEXTS.accountsUnavailable);
    const data = ws.getUserData();
    if (data.identifying) return this.replies.reject(ws, 'identify_pending', TEXTS.identifyPending);
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
      this.replies.send(ws, { type: 'error', code: 'identify_rate_limited', message: TEXTS.identifyRateLimited });
      return;
    }
    if (outcome.kind === 'failed' || outcome.claims.sub !== payload.userId) return this.replies.reject(ws, 'identify_failed', TEXTS.identifyFailed);
    this.bindAccount(ws, data, outcome.claims);
  }

  /** Moves a socket whose token checked out from its guest seat to the account's. */
  private bindAccount(ws: WS, data: SocketData, claims: AccessClaims): void {
    const current = this.hub.session(data.playerId);
    if (!current || current.ws !== ws) return;
    const identified = { type: 'identified', playerId: claims.sub, ...(claims.username ? { username: claims.username } : {}) } as const;
    if (current.id === claims.sub) {
      if (claims.username) current.username = claims.username;
      return this.replies.send(ws, identified);
    }
    if (current.queued || this.rounds.heldBy(current)) return this.replies.reject(ws, 'identify_busy', TEXTS.identifyBusy);
    // Leave the guest seat and take the account's (a newer socket takes over an older one).
    this.hub.detach(ws);
    this.hub.forgetIfIdle(current);
    const account = this.bind(ws, claims.sub, 'account');
    if (claims.username) account.username = claims.username;
    if (claims.username && !account.name) account.name = claims.username;
    this.log.info({ guestId: current.id, playerId: account.id }, 'socket identified as an account');
    const known = this.site.accountBound(ws, data, account);
    if (!known) return this.replies.send(ws, identified);
    void known.finally(() => this.replies.send(ws, identified));
  }

  /** claimGuestGames: a signed-in player takes the archived games of a guest identity it proves. */
  async claimGuestGames(ws: WS, session: PlayerSession, payload: ParsedPayloads['claimGuestGames']): Promise<void> {
    const archive = this.accounts?.archive;
    if (!archive) return this.replies.reject(ws, 'archive_unavailable', TEXTS.archiveUnavailable);
    if (session.kind !== 'account') return this.replies.reject(ws, 'not_signed_in', TEXTS.notSignedIn);
    if (!this.identity.verify(payload.guestId, payload.secret)) return this.replies.reject(ws, 'identity_rejected', TEXTS.guestNotProved);
    try {
      const count = await archive.claimGuestGames(payload.guestId, session.id);
      this.replies.send(ws, { type: 'guestGamesClaimed', guestId: payload.guestId, count });
    } catch (err) {
      this.log.error({ err, playerId: session.id }, 'claiming guest games failed');
      this.replies.reject(ws, 'archive_unavailable', TEXTS.archiveUnavailable);
    }
  }
}
