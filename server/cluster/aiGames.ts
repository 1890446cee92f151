/**
 * Games against the AI when several nodes share the site. Such a game is played by the node
 * where it started (the player's socket was there), recorded in the shared game log (PostgreSQL)
 * and owned in Redis like a multiplayer game: `owner:<game>`, the node's `owned:<node>` set and
 * the player's `seat:<player>`. So a dead node's AI games are claimed with its other games, and
 * the claiming node resumes them from the log; the player, back on any node, finds the game there
 * (its socket's node learns the owner from the seat and forwards the AI messages to it, the
 * owner's AI service sends its frames back). docs/operations.md ("Several nodes on Redis").
 */
import type { Logger } from 'pino';
import type { Hub, PlayerSession } from '../realtime/hub';
import type { AiGameRecorder } from '../game/journal';
import type { AiGameLog } from '../game/journalRecords';
import type { ClusterMetrics } from '../http/metrics';
import type { AiService } from '../wiring';
import { playerKind } from '../realtime/identity';
import type { OwnedGame, Ownership } from './ownership';
import type { SharedGameLog, LoadedAiGame } from './sharedLog';
import type { BusMessage } from './messages';
import { endedElsewhere, socketOn } from '../round/seats';
import type { Presence } from '../round/presence';

export class SiteAiGames implements AiGameRecorder {
  private ai: AiService | undefined;
  private presence: Presence | undefined;
  /** the AI games this node owns, and each one's player */
  private readonly owned = new Map<string, string>();

  constructor(
    private readonly node: string,
    private readonly log: SharedGameLog,
    private readonly ownership: Ownership,
    private readonly hub: Hub,
    private readonly publish: (node: string, msg: BusMessage) => void,
    private readonly metrics: ClusterMetrics,
    private readonly logger: Logger,
  ) {}

  /** The node's AI service, once it exists (absent: the AI is off here), and the players' presence. */
  attach(ai: AiService | undefined, presence: Presence): void {
    this.ai = ai;
    this.presence = presence;
  }

  // ---------------------------------------------------------------------------------------------
  // The AI service's recorder: the shared log, and the game's owner and seat in Redis

  aiStarted(game: Omit<AiGameLog, 'moves'>): void {
    this.log.aiStarted(game);
    this.own(game.gameId, game.playerId);
  }

  aiMoved(gameId: string, uci: string): void {
    this.log.aiMoved(gameId, uci);
  }

  /** The game is over: its end is recorded, its owner and seat cleared, the player's other node told. */
  aiEnded(gameId: string): void {
    this.log.aiEnded(gameId);
    const playerId = this.owned.get(gameId);
    if (playerId === undefined) return;
    this.owned.delete(gameId);
    void this.ownership.ended(gameId, [playerId]).catch((err: Error) => this.logger.warn({ err: err.message, gameId }, 'could not clear the AI game\'s owner'));
    const s = this.hub.session(playerId);
    if (s && !s.ws && s.node) this.publish(s.node, { k: 'unseat', p: playerId, g: gameId });
  }

  private own(gameId: string, playerId: string): void {
    this.owned.set(gameId, playerId);
    void this.ownership.started(gameId, [playerId]).catch((err: Error) => this.logger.error({ err: err.message, gameId }, 'could not record the AI game\'s owner'));
  }

  /** The AI games this node plays. */
  ids(): string[] {
    return [...this.owned.keys()];
  }

  /** The AI games this node plays, each with its player. */
  seated(): OwnedGame[] {
    return [...this.owned].map(([id, playerId]) => ({ id, players: [playerId] }));
  }

  // ---------------------------------------------------------------------------------------------
  // The player, whose socket may be on another node

  /** The session of a player of an AI game here whose socket is elsewhere (seated for the frames), or undefined. */
  seat(playerId: string): PlayerSession | undefined {
    return this.ai?.hasGame(playerId) ? this.hub.seat(playerId, playerKind(playerId)) : undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Games changing node

  /** A game this node lost (fenced, or taken while its lease lapsed): stopped here without a result. */
  drop(gameId: string, why: 'fenced' | 'lease_lost'): boolean {
    if (!this.owned.delete(gameId)) return false;
    this.log.forget(gameId);
    this.ai?.dropGame(gameId);
    this.logger.error({ gameId, why }, 'AI game dropped: another node plays it now');
    return true;
  }

  /**
   * An AI game of a dead node, claimed here, back in play: its player is away until their
   * socket is found (`at`: the live node of their socket, if any), the AI's disconnect grace runs
   * meanwhile (`awayMs`: how long the dead node was gone, for the log). False when it cannot be
   * resumed (the caller aborts it).
   */
  resumeTaken(dead: string, loaded: LoadedAiGame, at: string | null, awayMs: number, began: number): boolean {
    const { ai: game } = loaded;
    const ai = this.ai;
    if (!ai) {
      this.logger.error({ gameId: game.gameId }, 'AI game claimed by a node without the AI');
      return false;
    }
    this.log.adopt(game.gameId, game.moves.length);
    this.owned.set(game.gameId, game.playerId);
    if (!ai.resumeGame(game)) {
      this.owned.delete(game.gameId);
      this.log.forget(game.gameId);
      return false;
    }
    this.metrics.gamesTakenOver.inc();
    this.findPlayer(game, at);
    this.logger.info({ gameId: game.gameId, from: dead, awayMs: Math.round(awayMs), moves: game.moves.length, ms: Math.round(performance.now() - began) }, 'AI game taken over');
    return true;
  }

  /**
   * A player of a game taken over whose socket is on a live node sees it go on from where it
   * stands: at once when the socket is here; else their node learns the new owner (`seat`) and
   * answers `here`, which shows them the game (or `gone`).
   */
  private findPlayer(game: AiGameLog, at: string | null): void {
    const here = this.hub.session(game.playerId);
    if (here?.ws) {
      // their socket came here before the takeover: the game is no longer played elsewhere
      endedElsewhere(here, game.gameId);
      this.presence?.here(here, true);
      return;
    }
    if (!at || at === this.node) return; // away: the grace runs until they come back
    socketOn(this.hub.seat(game.playerId, playerKind(game.playerId)), at);
    this.publish(at, { k: 'seat', p: game.playerId, g: game.gameId, o: this.node });
  }
}
