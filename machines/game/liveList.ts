/**
 * The site's list of live games (/games, /tv; docs/product.md): which games it shows and in
 * what order, and how the list changes from one reading to the next. Pure; the server makes and
 * sends the list, the browser keeps it up to date with the same functions.
 *
 * Order, as lichess TV picks its game: the best-rated game first. A game's rating is the mean
 * of its two players' ratings; a guest has none and counts as 0, so a game with a guest comes
 * after every game between two accounts. Ties go to the game with more moves played (a game
 * under way before one just begun), then to the game id, so every node orders alike.
 */
import type { LiveGameSummary } from '../protocol/messages';
import { changeBetween, withChange, type ListChange, type ListKind } from '../protocol/listChange';

/** How many live games the list holds at most (the best-rated ones). */
export const LIVE_GAMES_LISTED = 50;

/** The rating the list orders a game by. */
export function listRating(game: Pick<LiveGameSummary, 'white' | 'black'>): number {
  return ((game.white.rating?.rating ?? 0) + (game.black.rating?.rating ?? 0)) / 2;
}

/** Sort order of the list: the game shown first comes first. */
export function byListOrder(a: LiveGameSummary, b: LiveGameSummary): number {
  return listRating(b) - listRating(a) || b.moves - a.moves || (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0);
}

/** The first `max` games of `games` in the list's order. */
export function topGames(games: Iterable<LiveGameSummary>, max = LIVE_GAMES_LISTED): LiveGameSummary[] {
  return [...games].sort(byListOrder).slice(0, max);
}

export type LiveListChange = ListChange<LiveGameSummary>;

const LIVE_LIST: ListKind<LiveGameSummary> = {
  id: (g) => g.gameId,
  same: (a, b) => a.moves === b.moves && a.spectators === b.spectators && a.fen === b.fen && listRating(a) === listRating(b),
  order: byListOrder,
};

/** What changed from list `before` to list `after`: games new or changed, and games gone. */
export function listChange(before: readonly LiveGameSummary[], after: readonly LiveGameSummary[]): LiveListChange {
  return changeBetween(LIVE_LIST, before, after);
}

/** The list after a change, in the list's order. */
export function applyChange(list: readonly LiveGameSummary[], change: LiveListChange): LiveGameSummary[] {
  return withChange(LIVE_LIST, list, change);
}
