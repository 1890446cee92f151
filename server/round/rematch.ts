/**
 * Rematches, as on lichess: after a multiplayer game either player may offer to play again; when
 * both have offered, a new game starts between them with the colours swapped and the same clock.
 * An offer stands until it is declined, one of the two starts another game, or the ended game
 * is forgotten (the server keeps ended games a few minutes). Offers are keyed by the ended game.
 */
import type { TimeControl } from '../../machines/protocol/messages';
import type { GameManager } from '../game/games';
import type { MatchmakingPort } from '../cluster/matchmaking';
import type { Hub, PlayerSession } from '../realtime/hub';

/** At most this many open offers are kept; the oldest go first (a bound, not a feature). */
const MAX_OFFERS = 10_000;

export const REMATCH_TEXT = {
  unknownGame: 'That game is not one of yours that ended in the last minutes.',
  opponentGone: 'Your opponent has left.',
  busy: 'A rematch needs both players free: one of you is in another game.',
  startFailed: 'The rematch could not be started.',
} as const;

export type RematchRefusal = { code: 'unknown_game' | 'rematch_unavailable' | 'game_start_failed'; message: string };

export class Rematches {
  /** ended gameId -> the player who offered a rematch of it */
  private readonly offers = new Map<string, string>();

  constructor(
    private readonly hub: Hub,
    private readonly games: GameManager,
    private readonly matchmaking: MatchmakingPort,
  ) {}

  /** Offers, or accepts the standing offer; returns why not, or null. */
  offer(session: PlayerSession, gameId: string): RematchRefusal | null {
    const players = this.games.endedPlayers(gameId, session.id);
    if (!players) return { code: 'unknown_game', message: REMATCH_TEXT.unknownGame };
    const opponentId = players.white === session.id ? players.black : players.white;
    const opponent = this.hub.session(opponentId);
    // the opponent's socket may be on another node of the site
    if (!opponent || !this.hub.connected(opponent)) {
      this.offers.delete(gameId);
      return { code: 'rematch_unavailable', message: REMATCH_TEXT.opponentGone };
    }
    if (session.game || opponent.game) return { code: 'rematch_unavailable', message: REMATCH_TEXT.busy };
    if (this.offers.get(gameId) === opponentId) {
      this.offers.delete(gameId);
      const [oldWhite, oldBlack] = players.white === session.id ? [session, opponent] : [opponent, session];
      if (this.start(oldWhite, oldBlack, players.timeControl)) return null;
      this.hub.send(opponentId, { type: 'error', code: 'game_start_failed', message: REMATCH_TEXT.startFailed });
      return { code: 'game_start_failed', message: REMATCH_TEXT.startFailed };
    }
    this.offers.set(gameId, session.id);
    for (const id of this.offers.keys()) {
      if (this.offers.size <= MAX_OFFERS) break;
      this.offers.delete(id);
    }
    this.hub.send(opponentId, { type: 'rematchOffer', gameId });
    return null;
  }

  /** Declines the opponent's offer, telling them; anything else changes nothing. */
  decline(session: PlayerSession, gameId: string): void {
    const offeredBy = this.offers.get(gameId);
    if (!offeredBy || offeredBy === session.id || !this.games.endedPlayers(gameId, session.id)) return;
    this.offers.delete(gameId);
    this.hub.send(offeredBy, { type: 'rematchDeclined', gameId });
  }

  /** The new game, on the old game's clock: the old game's black plays white. Either may have gone back to the queue. */
  private start(oldWhite: PlayerSession, oldBlack: PlayerSession, timeControl: TimeControl | undefined): boolean {
    this.matchmaking.leave(oldWhite, false);
    this.matchmaking.leave(oldBlack, false);
    return this.games.start(oldBlack, oldWhite, timeControl) !== null;
  }
}
