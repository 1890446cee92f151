/**
 * A finished multiplayer game's archive record, from its log (the game's whole truth): the
 * moves and result from the final state, the mover's clock after each move from the log's
 * clock history, the players' kinds from the log's input.
 */
import { clockHistory, gamePgn, type GameLog, type GameResult, type GameState, type Seat } from '../../machines/game';
import type { ArchivedPlayer, FinishedGame } from './store';

function playerOf(seat: Seat, log: GameLog): ArchivedPlayer {
  const isAccount = log.input.accountIds?.includes(seat.id) ?? false;
  return { name: seat.name, accountId: isAccount ? seat.id : null, guestId: isAccount ? null : seat.id };
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
    startedAt: new Date(instant.wallNow - Math.max(0, instant.monotonicNow - log.input.startedAt)),
    endedAt,
    moves: [...state.moves],
    clocksMs,
    pgn: gamePgn(state.result ? state : { ...state, result }),
  };
}
