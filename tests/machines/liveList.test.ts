/** The site's list of live games: its order (as lichess TV picks), its bound, and its changes applied as sent. */
import { expect, it } from 'vitest';
import type { LiveGameSummary } from '../../machines/protocol/messages';
import { applyChange, listChange, topGames } from '../../machines/game/liveList';

const player = (rating: number | null) => ({ name: 'p', guest: rating === null, rating: rating === null ? null : { rating, provisional: false } });
const game = (gameId: string, white: number | null, black: number | null, moves = 0): LiveGameSummary => ({
  gameId, white: player(white), black: player(black), timeControl: { initial: 180, increment: 0 }, moves, fen: 'x', spectators: 0,
});

it('puts the best-rated game first; a guest counts as unrated, below every game between accounts; ties go to the game with more moves', () => {
  const games = [
    game('guest-vs-master', null, 2800, 40),
    game('club', 1500, 1500, 10),
    game('strong', 2000, 2100),
    game('club-longer', 1500, 1500, 30),
    game('guests', null, null, 60),
  ];
  // the mean of 2800 and an unrated 0 is 1400: under the club games
  expect(topGames(games).map((g) => g.gameId)).toEqual(['strong', 'club-longer', 'club', 'guest-vs-master', 'guests']);
  expect(topGames(games, 2).map((g) => g.gameId)).toEqual(['strong', 'club-longer']);
});

it('sends what changed, and the change applied to the old list gives the new one', () => {
  const before = [game('a', 2000, 2000, 4), game('b', 1800, 1800), game('c', null, null)];
  const after = [game('a', 2000, 2000, 5), game('d', 1900, 1900), game('c', null, null)];
  const change = listChange(before, after);
  expect(change.updated.map((g) => g.gameId)).toEqual(['a', 'd']);
  expect(change.removed).toEqual(['b']);
  expect(applyChange(before, change)).toEqual(topGames(after));
  expect(listChange(after, after)).toEqual({ updated: [], removed: [] });
});
