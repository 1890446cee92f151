/**
 * The `gameEnd` frames of games that ended a short while ago, for their two players only.
 *
 * A player whose socket dropped can miss the end of the game: the opponent resigns, the grace
 * runs out, or the last move and the end go out in one read that the client never handles.
 * When that player comes back and asks to rejoin, the answer is how the game ended, not "Game
 * not found". Entries are kept in the order they ended, for `keepMs` and at most `maxEntries`,
 * and the oldest are dropped whenever one is added, so no timer is needed. What the players
 * are told after the end (a rated game's rating changes) is kept with it, for the same players.
 */
import type { TimeControl } from '../../machines/protocol/messages';

/** How long an ended game's result is kept for players who come back late (several nodes: the site remembers the game's node as long). */
export const ENDED_KEEP_MS = 5 * 60_000;
/** How many ended games' results are kept at most. */
export const ENDED_MAX = 5_000;

interface Ended {
  white: string;
  black: string;
  /** the gameEnd frame, then what followed it for the players (a rated game's ratingChange) */
  frames: Uint8Array[];
  endedAt: number;
  /** its time control (a rematch is played on it); unknown for a game ended as damaged */
  timeControl?: TimeControl;
}

export class EndedGames {
  private readonly byId = new Map<string, Ended>();

  constructor(
    private readonly keepMs: number,
    private readonly maxEntries: number,
  ) {}

  record(gameId: string, white: string, black: string, frame: Uint8Array, now: number, timeControl?: TimeControl): void {
    this.byId.set(gameId, { white, black, frames: [frame], endedAt: now, ...(timeControl ? { timeControl } : {}) });
    for (const [id, e] of this.byId) {
      if (this.byId.size <= this.maxEntries && now - e.endedAt <= this.keepMs) break;
      this.byId.delete(id);
    }
  }

  /** The two players (and time control) of a game that ended within keepMs, if `playerId` was one of them, else null. */
  playersOf(gameId: string, playerId: string, now: number): { white: string; black: string; timeControl?: TimeControl } | null {
    const e = this.byId.get(gameId);
    if (!e || now - e.endedAt > this.keepMs || (e.white !== playerId && e.black !== playerId)) return null;
    return { white: e.white, black: e.black, ...(e.timeControl ? { timeControl: e.timeControl } : {}) };
  }

  /** The game's gameEnd frame if it ended within keepMs and `playerId` played in it, else null. */
  frameFor(gameId: string, playerId: string, now: number): Uint8Array | null {
    return this.framesFor(gameId, playerId, now)[0] ?? null;
  }

  /** The game's gameEnd frame and the frames that followed it, if it ended within keepMs and `playerId` played in it; else none. */
  framesFor(gameId: string, playerId: string, now: number): Uint8Array[] {
    const e = this.byId.get(gameId);
    if (!e || now - e.endedAt > this.keepMs || (e.white !== playerId && e.black !== playerId)) return [];
    return e.frames;
  }

  /**
   * A frame for the players that came after the end (a rated game's ratingChange, once the
   * archive has scored it): a player who comes back late gets it after the gameEnd. Ignored for
   * a game no longer kept.
   */
  followUp(gameId: string, frame: Uint8Array, now: number): void {
    const e = this.byId.get(gameId);
    if (e && now - e.endedAt <= this.keepMs) e.frames.push(frame);
  }

  get size(): number {
    return this.byId.size;
  }
}
