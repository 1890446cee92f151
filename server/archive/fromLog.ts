/**
 * Archive records of finished games, from their logs (the game's whole truth: the moves and
 * result from the final state, the mover's clock after each move from the log's clock history,
 * the players' kinds from the log's input, its chat from the log's lines). A game against the AI
 * (a seat the engine's) is kept as kind 'ai', the engine named by its level, without clocks when
 * it had none.
 */
import { chatOf, clockHistory, gamePgn, playsAsGuest, type GameLog, type GameResult, type GameState, type Seat } from '../../machines/game';
import type { ArchivedPlayer, FinishedGame } from './store';

function playerOf(seat: Seat, log: GameLog): ArchivedPlayer {
  if (seat.engine) return { name: seat.name, accountId: null, guestId: null };
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
  const untimed = state.settings.untimed;
  const clocksMs = clockHistory(log).map((clocks, ply) => {
    const mover = (ply % 2 === 0) === (firstMover === 'white') ? 'white' : 'black';
    return untimed ? 0 : Math.max(0, Math.round(clocks[mover]));
  });
  const endedAt = new Date(instant.wallNow);
  const vsAi = Boolean(log.input.white.engine || log.input.black.engine);
  return {
    id: state.gameId,
    kind: vsAi ? 'ai' : 'pool',
    white: playerOf(state.white, log),
    black: playerOf(state.black, log),
    winner: result.winner,
    reason: result.reason,
    clockMs: untimed ? 0 : state.settings.clockMs,
    incrementMs: state.settings.incrementMs,
    startedAt: new Date(instant.wallNow - Math.max(0, instant.monotonicNow - log.input.startedAt)),
    endedAt,
    moves: [...state.moves],
    clocksMs,
    pgn: gamePgn(state.result ? state : { ...state, result }),
    ...(log.input.casual ? { casual: true } : {}),
    chat: chatOf(log),
  };
}


