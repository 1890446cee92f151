/**
 * A live game as a spectator follows it on its page (/game/:id; docs/protocol.md,
 * "Spectators"): the game as the server's `watchStart` gave it, then the game's `gameMove`,
 * `timerUpdate`, `takeback`, `timeGiven` and `gameEnd` frames, `gameArchived` and its spectator count (`spectators`). The game is the game core's state,
 * kept by the core's own step as the players' screens keep theirs (gameMirror.ts): the same
 * moves, clocks and end, read through `viewOf`. Pure: the page keeps the value and draws it.
 */
import type { GameState } from '../game/types';
import type { ChatLine, PlayerRating, ServerMessage, WatchStartMsg } from '../protocol/messages';
import { readingClocks } from './clock';
import { copyOfServerGame, endedByServer, playMove, takenBack, withServerClocks } from './gameMirror';
import { clocksAt } from '../game/clock';
import { shownPlayerName } from './playerName';

export interface WatchedPlayer {
  name: string;
  /** the pool rating the game started with; null for a guest */
  rating: PlayerRating | null;
}

export interface WatchedGame {
  gameId: string;
  white: WatchedPlayer;
  black: WatchedPlayer;
  /** the game core's state of the game (viewOf gives the position, moves, clocks and result) */
  game: GameState;
  /** the ended game's record is in the archive: the page can show the replay */
  archived: boolean;
  /** a frame was missed (a gap in `seq`, a move that does not fit): ask for the game again */
  stale: boolean;
  /** the spectator room's lines, oldest first */
  chat: ChatLine[];
  /** its spectators on the whole site, once the server has said (`spectators`) */
  spectators: number | null;
}

/** The game as `watchStart` gives it, received at `now` (the clock's time base). */
export function watchedGame(msg: WatchStartMsg, now: number): WatchedGame {
  const st = msg.currentState;
  const game = copyOfServerGame(
    { gameId: msg.gameId, clockMs: msg.timerDuration * 1000, moves: st.moves, fen: st.fen || undefined, clocks: readingClocks(st) },
    now,
  );
  return {
    gameId: msg.gameId,
    white: { name: shownPlayerName(msg.white.name, msg.white.guest ?? false), rating: msg.ratings?.white ?? null },
    black: { name: shownPlayerName(msg.black.name, msg.black.guest ?? false), rating: msg.ratings?.black ?? null },
    game,
    archived: false,
    stale: game.moves.length !== st.moves.length,
    chat: msg.chat ?? [],
    spectators: null,
  };
}

/** The game after a server message received at `now`; the same value when the message is not about it. */
export function followWatched(watched: WatchedGame, msg: ServerMessage, now: number): WatchedGame {
  if (!('gameId' in msg) || msg.gameId !== watched.gameId) return watched;
  const { game } = watched;
  switch (msg.type) {
    case 'gameMove':
      return game.result ? watched : moved(watched, msg, now);
    case 'timerUpdate':
      return game.result ? watched : { ...watched, game: withServerClocks(game, readingClocks(msg), now) };
    case 'gameEnd':
      // a mating move already ended the core's copy: the same result, nothing new
      return game.result?.reason === msg.reason && game.result.winner === msg.winner
        ? watched
        : { ...watched, game: endedByServer(game, { winner: msg.winner, reason: msg.reason }, now) };
    case 'gameArchived':
      return { ...watched, archived: true };
    case 'chatMessage':
      return msg.room === 'spectator' ? { ...watched, chat: [...watched.chat, chatLine(msg)] } : watched;
    case 'takeback':
      return game.result ? watched : { ...watched, game: takenBack(game, msg, now) };
    case 'timeGiven':
      return game.result ? watched : { ...watched, game: withServerClocks(game, msg.clocks, now) };
    case 'spectators':
      return { ...watched, spectators: msg.count };
    default:
      return watched;
  }
}

function moved(watched: WatchedGame, msg: Extract<ServerMessage, { type: 'gameMove' }>, now: number): WatchedGame {
  const { game } = watched;
  const count = game.moves.length;
  if (msg.seq !== undefined && msg.seq <= count) return watched; // already shown (a resync overlapped it)
  const played = msg.seq === undefined || msg.seq === count + 1 ? playMove(game, game.turn, msg.move, now) : null;
  if (!played) return { ...watched, stale: true };
  return { ...watched, game: withServerClocks(played.game, msg.clocks ?? clocksAt(game, now), now) };
}

/** A chatMessage as a line of its room. */
export function chatLine(msg: Extract<ServerMessage, { type: 'chatMessage' }>): ChatLine {
  return { room: msg.room, name: msg.name, ...(msg.guest ? { guest: true } : {}), ...(msg.color ? { color: msg.color } : {}), text: msg.text };
}
