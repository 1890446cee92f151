/**
 * The players of custom games (hooks and challenges) as their records keep them, and how such a
 * game starts: between the player whose socket is here (who joined or accepted) and the creator,
 * whose socket may be on this node or, with several nodes, on another.
 */
import type { Color, Hook, TimeControl } from '../../machines/protocol/messages';
import type { Player } from '../../machines/lobby/rules';
import type { SeatInfo } from '../cluster/messages';
import type { GameManager } from '../game/games';
import type { Hub, PlayerSession } from '../realtime/hub';
import type { HeldBy } from '../round/round';
import { playingName } from '../round/playingName';
import type { LobbyStore } from './records';
import type { RatingLookup } from '../game/ratingLookup';

export type Creator = Hook['by'];

/** Starts a custom game under the id `gameId` (the caller's: a challenge records it before the game starts); false when it could not start. */
export type CustomStart = (local: PlayerSession, other: SeatInfo, localColor: Color, timeControl: TimeControl, casual: boolean, gameId: string) => boolean;

/** The creator as a hook or challenge shows them. */
export function creatorOf(s: PlayerSession, given?: string | null): Creator {
  return { id: s.id, name: playingName(s, given), guest: s.kind === 'guest', ...(s.kind === 'account' && s.rating ? { rating: s.rating } : {}) };
}

/** A player as the rules see them. */
export function playerOf(s: PlayerSession): Player {
  return { id: s.id, signedIn: s.kind === 'account', ...(s.username ? { username: s.username } : {}) };
}

/** The creator seated for a game, their socket on `node` ('' : this node). */
export function seatOf(c: Creator, node: string): SeatInfo {
  return { id: c.id, kind: c.guest ? 'guest' : 'account', name: c.name, rating: c.rating ?? null, node };
}

/** One node: both players' sockets are here. */
export function localStart(hub: Hub, games: GameManager): CustomStart {
  return (local, other, localColor, timeControl, casual, gameId) => {
    const them = hub.session(other.id);
    if (!them?.ws || them.game) return false;
    them.name = other.name;
    them.rating = other.rating;
    const [white, black] = localColor === 'white' ? [local, them] : [them, local];
    return games.start(white, black, timeControl, { casual, gameId }) !== null;
  };
}

/** What the lobby's hooks and the challenges work with. */
export interface LobbyDeps {
  store: LobbyStore;
  hub: Hub;
  start: CustomStart;
  /** the game a player is busy with, or null */
  heldBy: (s: PlayerSession) => HeldBy | null;
  /** the same, as the site records it (a game elsewhere whose end is recorded holds the player no more; this node's belief when the record cannot be read) */
  heldOnSite: (s: PlayerSession) => Promise<HeldBy | null>;
  /** this node's name ('' on a single node): where the creators seen here have their socket */
  node: string;
  /** the wall clock, ms */
  now: () => number;
  random: () => number;
  /** a signed-in player's rating in a speed (the archive's); none without an archive */
  ratingOf?: RatingLookup | undefined;
  /** why no game may start on this node now (several nodes: the site's store is unreachable, or the lease uncertain), or null */
  newGamesRefused: () => string | null;
}
