/**
 * A live game as a spectator follows it on its page (/game/:id; docs/protocol.md,
 * "Spectators"): the game as the server's `watchStart` gave it, then the game's `gameMove`,
 * `timerUpdate` and `gameEnd` frames and `gameArchived`. Pure: the page keeps the value and
 * draws it; the clocks count down between the server's readings through ./clock.ts.
 */
import { START_FEN } from '../chess/index';
import type { Color, GameEndReason, PlayerRating, ServerMessage, WatchStartMsg, Winner } from '../protocol/messages';
import { currentClocks, readingClocks, runningSide, type ClockState } from './clock';
import { applyMove } from './engine';
import { replayMoves, type Ply } from './moveHistory';

export interface WatchedPlayer {
  name: string;
  /** the pool rating the game started with; null for a guest */
  rating: PlayerRating | null;
}

export interface WatchedGame {
  gameId: string;
  white: WatchedPlayer;
  black: WatchedPlayer;
  /** every ply so far: SAN, the position after it and its squares */
  plies: Ply[];
  /** the position now */
  fen: string;
  turn: Color;
  clock: ClockState;
  end: { winner: Winner; reason: GameEndReason } | null;
  /** the ended game's record is in the archive: the page can show the replay */
  archived: boolean;
  /** a frame was missed (a gap in `seq`, a move that does not fit): ask for the game again */
  stale: boolean;
}

const turnOf = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

/** The game as `watchStart` gives it, received at `now` (the clock's time base). */
export function watchedGame(msg: WatchStartMsg, now: number): WatchedGame {
  const st = msg.currentState;
  const plies = replayMoves(st.moves.map((m) => `${m.from}${m.to}${m.promotion ?? ''}`));
  const clocks = readingClocks(st);
  return {
    gameId: msg.gameId,
    white: { name: msg.white.name, rating: msg.ratings?.white ?? null },
    black: { name: msg.black.name, rating: msg.ratings?.black ?? null },
    plies,
    fen: st.fen || START_FEN,
    turn: st.turn,
    clock: { clocks, syncedAt: now, running: runningSide(st.moves.length, st.turn) },
    end: null,
    archived: false,
    stale: plies.length !== st.moves.length,
  };
}

/** The game after a server message received at `now`; the same value when the message is not about it. */
export function followWatched(game: WatchedGame, msg: ServerMessage, now: number): WatchedGame {
  if (!('gameId' in msg) || msg.gameId !== game.gameId) return game;
  switch (msg.type) {
    case 'gameMove':
      return game.end ? game : moved(game, msg, now);
    case 'timerUpdate':
      if (game.end) return game;
      return { ...game, clock: { ...game.clock, clocks: readingClocks(msg), syncedAt: now } };
    case 'gameEnd':
      if (game.end) return game;
      return { ...game, end: { winner: msg.winner, reason: msg.reason }, clock: { clocks: currentClocks(game.clock, now), syncedAt: now, running: null } };
    case 'gameArchived':
      return { ...game, archived: true };
    default:
      return game;
  }
}

function moved(game: WatchedGame, msg: Extract<ServerMessage, { type: 'gameMove' }>, now: number): WatchedGame {
  const count = game.plies.length;
  if (msg.seq !== undefined && msg.seq <= count) return game; // already shown (a resync overlapped it)
  const played = msg.seq === undefined || msg.seq === count + 1 ? applyMove(game.fen, msg.move) : null;
  if (!played) return { ...game, stale: true };
  const plies = [...game.plies, { san: played.san, fen: played.fen, from: played.from, to: played.to }];
  const clocks = msg.clocks ?? currentClocks(game.clock, now);
  return {
    ...game,
    plies,
    fen: played.fen,
    turn: turnOf(played.fen),
    clock: { clocks, syncedAt: now, running: runningSide(plies.length, msg.nextTurn) },
  };
}
