/**
 * This node's live games as the site's list of live games shows them (machines/game/liveList.ts):
 * the best-rated ones, summarised. Only the games that make the list are summarised in full, so
 * thousands of games cost a sort of small records.
 */
import type { Color, LiveGameSummary } from '../../machines/protocol/messages';
import { playsAsGuest, timeControlOf } from '../../machines/game';
import { LIVE_GAMES_LISTED, topGames } from '../../machines/game/liveList';
import { shownName } from '../realtime/spectators';
import type { LiveGame } from '../round/types';

function listedPlayer(game: LiveGame, color: Color): LiveGameSummary['white'] {
  const seat = game[color];
  return { name: shownName(seat), guest: playsAsGuest(game.log.input, seat.id), rating: game.ratings?.[color] ?? null };
}

function summaryOf(game: LiveGame, spectators: number): LiveGameSummary {
  const state = game.actor.getSnapshot().context;
  const last = state.moves.at(-1);
  return {
    gameId: game.id,
    white: listedPlayer(game, 'white'),
    black: listedPlayer(game, 'black'),
    timeControl: timeControlOf(game.log.input),
    moves: state.moves.length,
    fen: state.fen,
    ...(last ? { lastMove: last } : {}),
    spectators,
  };
}

/** The best-rated of `games` still being played, summarised; `spectators` counts a game's watchers. */
export function listedGames(games: Iterable<LiveGame>, spectators: (gameId: string) => number, max = LIVE_GAMES_LISTED): LiveGameSummary[] {
  const live = [...games].filter((g) => !g.ended && g.actor.getSnapshot().context.result === null);
  // the order needs only the ratings and the move count: the rest is read for the chosen games
  const light = live.map((g) => ({ game: g, key: { ...summaryKey(g), spectators: 0 } }));
  const chosen = new Set(topGames(light.map((l) => l.key), max).map((k) => k.gameId));
  return topGames(light.filter((l) => chosen.has(l.key.gameId)).map((l) => summaryOf(l.game, spectators(l.game.id))), max);
}

function summaryKey(game: LiveGame): Omit<LiveGameSummary, 'spectators'> {
  return {
    gameId: game.id,
    white: { name: '', guest: false, rating: game.ratings?.white ?? null },
    black: { name: '', guest: false, rating: game.ratings?.black ?? null },
    timeControl: { initial: 0, increment: 0 },
    moves: game.actor.getSnapshot().context.moves.length,
    fen: '',
  };
}
