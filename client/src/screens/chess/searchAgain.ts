/**
 * "Play Again" on a game's page: the multiplayer screen opens searching at once, in the pool
 * of the game just played (or the default pool). Carried in the navigation's state.
 */
import type { TimeControl } from '../../../../machines/game/timeControl';

export interface SearchAgain {
  searchAgain: true;
  timeControl?: TimeControl;
}

export function searchAgain(timeControl: TimeControl | undefined): SearchAgain {
  return timeControl ? { searchAgain: true, timeControl } : { searchAgain: true };
}

/** The search the navigation asks for, or null. */
export function searchAsked(state: unknown): SearchAgain | null {
  return typeof state === 'object' && state !== null && (state as Partial<SearchAgain>).searchAgain === true ? (state as SearchAgain) : null;
}
