/**
 * Archive records of finished games: a multiplayer game's from its log (the game's whole truth:
 * the moves and result from the final state, the mover's clock after each move from the log's
 * clock history, the players' kinds from the log's input), and a game against the AI's from
 * what the AI service knows at its end.
 */
import { ChessGame } from '../../machines/chess';
import { clockHistory, gamePgn, playsAsGuest, type GameLog, type GameResult, type GameState, type Seat } from '../../machines/game';
import { pgnResultTag } from '../../machines/game/display';
import type { EndedAiGame } from '../ai/service';
import type { ArchivedPlayer, FinishedGame } from './store';

function playerOf(seat: Seat, log: GameLog): ArchivedPlayer {
  const guest = playsAsGuest(log.input, seat.id);
  return { name: seat.name, accountId: guest ? null : seat.id, guestId: guest ? seat.id : null };
}

/** `monotonicNow` and `wallNow` are the same instant in the log's time base and on the wall clock. */
export function finishedGameFromLog(
  log: GameLog,
  state: GameState,
  result: GameResult,
  instant: { monotonicNow: number; wallNow: number },
): FinishedGame {
  const firstMover = state.startFen.split(' ')[1] === 'b' ? 'black' : 'white';
  const clocksMs = clockHistory(log).map((clocks, ply) => {
    const mover = (ply % 2 === 0) === (firstMover === 'white') ? 'white' : 'black';
    return Math.max(0, Math.round(clocks[mover]));
  });
  const endedAt = new Date(instant.wallNow);
  return {
    id: state.gameId,
    kind: 'pool',
    white: playerOf(state.white, log),
    black: playerOf(state.black, log),
    winner: result.winner,
    reason: result.reason,
    clockMs: state.settings.clockMs,
    incrementMs: state.settings.incrementMs,
    startedAt: new Date(instant.wallNow - Math.max(0, instant.monotonicNow - log.input.startedAt)),
    endedAt,
    moves: [...state.moves],
    clocksMs,
    pgn: gamePgn(state.result ? state : { ...state, result }),
    ...(log.input.casual ? { casual: true } : {}),
  };
}


/** The archive record of a game against the AI: unrated, without clocks (AI games have none). */
export function finishedAiGame(ended: EndedAiGame, human: ArchivedPlayer): FinishedGame {
  const engine: ArchivedPlayer = { name: `Stockfish level ${ended.difficulty}`, accountId: null, guestId: null };
  const game = new ChessGame();
  const moves: string[] = [];
  for (const uci of ended.moves) {
    if (!game.play(uci)) break;
    moves.push(uci);
  }
  const white = ended.playerColor === 'white' ? human : engine;
  const black = ended.playerColor === 'white' ? engine : human;
  return {
    id: ended.gameId,
    kind: 'ai',
    white,
    black,
    winner: ended.result.winner,
    reason: ended.result.reason,
    clockMs: 0,
    startedAt: new Date(ended.startedAt),
    endedAt: new Date(Math.max(ended.startedAt, ended.endedAt)),
    moves,
    clocksMs: moves.map(() => 0),
    pgn: game.pgn({ Event: 'Game against the AI', White: white.name, Black: black.name, Result: pgnResultTag(ended.result.winner) }),
  };
}
