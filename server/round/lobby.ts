/**
 * How a player starts a new round: a search in the matchmaking pool, or a game against the AI.
 * Refused while another round holds them (as the site records it), or while this node may start
 * no game.
 */
import type { Logger } from 'pino';
import { TEXT, type ParsedPayloads } from '../../machines/protocol/messages';
import type { ServerMetrics } from '../http/metrics';
import type { MatchmakingPort } from '../cluster/matchmaking';
import type { Hub, PlayerSession } from '../realtime/hub';
import type { AiService } from '../wiring';
import type { HeldBy, Rounds } from './round';
import { AI_ERRORS } from '../ai/service';
import { playingName } from './playingName';

const AI_IN_PROGRESS = AI_ERRORS.alreadyPlaying;

const TEXTS = {
  aiUnavailable: 'AI is not available',
  aiWhileInGame: 'Cannot start an AI game while in an active game',
};

/** The requests a game elsewhere may hold up: a search, a game against the AI. */
type HeldRequest = 'search' | 'ai';
const holdCheck = (request: HeldRequest, s: PlayerSession) => `${request}:${s.id}`;

export class Lobby {
  /** the requests (by holdCheck) waiting for the site's record of the game that holds their player */
  private readonly checkingHold = new Set<string>();

  constructor(
    private readonly sink: Hub,
    private readonly rounds: Rounds,
    private readonly matchmaking: MatchmakingPort,
    private readonly ai: () => AiService | undefined,
    /** why no new game may start on this node now (several nodes: the site's store is unreachable), or null */
    private readonly newGamesRefused: () => string | null,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
  ) {}

  findGame(s: PlayerSession, payload: ParsedPayloads['findGame']): void {
    const unavailable = this.unavailable(s, 'search');
    if (unavailable) {
      this.sink.sendTo(s, { type: 'matchmakingStatus', status: 'idle', message: unavailable });
      return;
    }
    if (!this.rounds.heldBy(s)) return this.join(s, payload);
    this.afterHoldChecked(s, 'search', (activeGame) => {
      if (!activeGame) return this.join(s, payload);
      this.metrics.messagesRejected.inc({ reason: 'active_game' });
      this.log.info({ playerId: s.id, reason: 'active_game', gameId: activeGame.gameId }, 'search refused');
      this.sink.sendTo(s, { type: 'matchmakingStatus', status: 'idle', message: TEXT.activeGameRefusal, activeGame });
    });
  }

  cancel(s: PlayerSession): void {
    this.checkingHold.delete(holdCheck('search', s));
    this.matchmaking.leave(s, true);
  }

  /**
   * A request of a player held by a game, decided once the site's record of that game was read:
   * refused only if the record says it is still on (several nodes: its end may be recorded while
   * its owner's word is still on its way). One decision for the same request meanwhile; none if
   * the request was cancelled or the player left.
   */
  private afterHoldChecked(s: PlayerSession, request: HeldRequest, decide: (held: HeldBy | null) => void): void {
    const key = holdCheck(request, s);
    if (this.checkingHold.has(key)) return;
    this.checkingHold.add(key);
    const checked = (held: HeldBy | null) => {
      if (this.checkingHold.delete(key) && this.sink.connected(s)) decide(held);
    };
    void this.rounds.heldOnSite(s).then(checked);
  }

  private join(s: PlayerSession, payload: ParsedPayloads['findGame']): void {
    this.matchmaking.join(s, playingName(s, payload?.username), payload?.timeControl);
  }

  /** `address`: the client address the game counts against (AI_GAMES_PER_ADDRESS) */
  startAi(s: PlayerSession, payload: ParsedPayloads['startAIGame'], address: string): void {
    const ai = this.ai();
    if (!ai) return this.rounds.refuse(s, 'ai_unavailable', TEXTS.aiUnavailable);
    const unavailable = this.unavailable(s, 'AI game');
    if (unavailable) {
      this.sink.sendTo(s, { type: 'error', code: 'unavailable', message: unavailable });
      return;
    }
    const start = (held: HeldBy | null) => {
      if (held?.vsAi) return this.rounds.refuse(s, AI_IN_PROGRESS.code, AI_IN_PROGRESS.message);
      if (held) return this.rounds.refuse(s, 'active_game', TEXTS.aiWhileInGame);
      if (s.queued) this.matchmaking.leave(s, false);
      ai.start(s, payload.options, address);
    };
    if (!this.rounds.heldBy(s)) return start(null);
    this.afterHoldChecked(s, 'ai', start);
  }

  /**
   * Why no new game may start here now (counted and logged), or null: several nodes, the site's
   * store (Redis) is unreachable or this node's lease is uncertain, so a game started now could
   * not be found, nor taken over, by the other nodes.
   */
  private unavailable(s: PlayerSession, what: 'search' | 'AI game'): string | null {
    const refused = this.newGamesRefused();
    if (!refused) return null;
    this.metrics.messagesRejected.inc({ reason: 'unavailable' });
    this.log.warn({ playerId: s.id, reason: 'unavailable' }, `${what} refused: the site store is unreachable`);
    return refused;
  }
}
