/**
 * Where a player's presence reaches their games: the one place that tells a game that a player disconnected or came back. The socket layer reports its own
 * sockets (here, gone); several nodes report sockets on other nodes (arrived, left).
 */
import type { GameManager, LiveGame } from '../game/games';
import type { Hub, PlayerSession } from '../realtime/hub';
import { forgetElsewhere, socketOn } from './seats';

export class Presence {
  constructor(
    private readonly hub: Hub,
    private readonly games: GameManager,
  ) {}

  /** A socket here speaks for the player now; `replacing`: it took over an older socket here (the player never left). */
  here(s: PlayerSession, replacing: boolean): void {
    socketOn(s, null);
    if (!replacing && s.game) this.games.command(s.game, { type: 'PLAYER_RECONNECTED', playerId: s.id });
  }

  /** The player's socket here closed and no other speaks for them: their game's disconnect grace starts. */
  gone(s: PlayerSession): void {
    if (s.game) this.games.command(s.game, { type: 'PLAYER_DISCONNECTED', playerId: s.id });
  }

  /**
   * Several nodes: the player's socket is on node `from` (again). A game here goes on for them,
   * shown as it stands when they were away from it (a game taken over, a socket elsewhere).
   */
  arrived(s: PlayerSession, from: string): void {
    const wasAway = s.node !== from;
    socketOn(s, from);
    if (!s.game || !wasAway) return;
    this.games.command(s.game, { type: 'PLAYER_RECONNECTED', playerId: s.id });
    this.games.sendPosition(s.game, s);
  }

  /** Several nodes: the player's socket on node `from` closed; false when it was not theirs (they moved on). */
  left(s: PlayerSession, from: string): boolean {
    if (s.node !== from) return false;
    socketOn(s, null);
    this.gone(s);
    return true;
  }

  /** Several nodes: a newer socket of the player on node `by` took over from theirs here. */
  movedTo(s: PlayerSession, by: string): void {
    socketOn(s, by);
    forgetElsewhere(s);
  }

  /** A game begins here (started, or resumed from its log): a player not connected now is away from it (the engine's seat never is). */
  begun(game: LiveGame): void {
    if (game.ended) return;
    const away = game.actor.getSnapshot().context.away;
    for (const color of ['white', 'black'] as const) {
      const s = game.sessions[color];
      if (!game[color].engine && !this.hub.connected(s) && !away[color]) this.games.command(game, { type: 'PLAYER_DISCONNECTED', playerId: s.id });
    }
  }
}
