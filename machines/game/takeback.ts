/**
 * Takebacks (lichess Takebacker): in a game whose settings allow them, a player proposes to take
 * back their last move once both sides have moved; the opponent accepts or declines, and the
 * proposer may withdraw. Accepting undoes one ply when the proposer moved last, two when the
 * proposer is to move (their last move and the reply to it), so the proposer is to move after.
 *
 * Clocks: both clocks go back to what they were when the earliest undone move's turn began, and
 * that turn starts again at the acceptance (the time spent on the undone moves, and since, is
 * given back to both); time given since then stays given (giveTime adds it to those clocks too). lichess instead keeps what the undone mover spent and refunds only the
 * current turn; here a takeback is a return to an earlier moment of the game, clocks included.
 * A pending proposal lapses when either side moves (lichess keeps it and undoes two plies);
 * one proposal per side per position; a pending draw offer lapses with the takeback.
 */
import { UNTIMED_PLIES } from './defaults';
import { opposite } from './display';
import { playOnBoard, positionKey, startPosition } from './board';
import { syncGrace } from './presence';
import { REJECTION } from './reasons';
import { uciToWireMove } from './rejoin';
import { colorOf, rejected, tell } from './replies';
import type { ClocksMs, Color, GameState, StepResult } from './types';

/** Whether a game that may be rated gets takebacks unless its creator says otherwise: lichess's default, casual only. */
export function takebacksByDefault(mayBeRated: boolean): boolean {
  return !mayBeRated;
}

/** `turnClocks` after a move played from `state` (only kept when takebacks are on). */
export function turnClocksAfterMove(state: GameState): ClocksMs[] {
  return state.settings.takebacks ? [...state.turnClocks, state.clocks] : state.turnClocks;
}

/** Why `me` may not propose a takeback now, or null when it may. */
export function takebackRefusal(state: GameState, me: Color): string | null {
  if (!state.settings.takebacks) return REJECTION.takebacksOff;
  if (state.moves.length < UNTIMED_PLIES) return REJECTION.takebackTooEarly;
  if (state.takebackOffer === me) return REJECTION.takebackAlreadyProposed;
  if (state.lastTakebackPly[me] === state.moves.length) return REJECTION.takebackTooOften;
  return null;
}

export function proposeTakeback(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'PROPOSE_TAKEBACK');
  // Proposing while the opponent's proposal stands is accepting it (lichess).
  if (state.settings.takebacks && state.takebackOffer === opposite(me)) return takeBack(state, now);
  const refusal = takebackRefusal(state, me);
  if (refusal !== null) return rejected(state, playerId, refusal, 'PROPOSE_TAKEBACK');
  return {
    state: { ...state, takebackOffer: me, lastTakebackPly: { ...state.lastTakebackPly, [me]: state.moves.length } },
    events: [tell(opposite(me), { type: 'takebackOffer' })],
  };
}

export function acceptTakeback(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'ACCEPT_TAKEBACK');
  if (state.takebackOffer !== opposite(me)) return rejected(state, playerId, REJECTION.noTakebackOffer, 'ACCEPT_TAKEBACK');
  return takeBack(state, now);
}

/** The receiver declines, or the proposer withdraws. */
export function declineTakeback(state: GameState, playerId: string): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'DECLINE_TAKEBACK');
  if (state.takebackOffer === null) return rejected(state, playerId, REJECTION.noTakebackOffer, 'DECLINE_TAKEBACK');
  return { state: { ...state, takebackOffer: null }, events: [tell(opposite(me), { type: 'takebackDeclined' })] };
}

/** The position after `moves` from the start: FEN, side to move and the repetition positions. */
function positionAfter(startFen: string, moves: readonly string[]): Pick<GameState, 'fen' | 'turn' | 'positions'> {
  const start = startPosition(startFen);
  let at = { fen: start.fen, turn: start.turn as Color, positions: [positionKey(start.fen)] };
  for (const uci of moves) {
    const played = playOnBoard(at.fen, at.positions, uciToWireMove(uci));
    if (!played) throw new Error(`takeback: move ${uci} of the game is illegal after ${at.fen}`);
    at = { fen: played.fen, turn: played.turn, positions: played.positions };
  }
  return at;
}

/** The pending proposal accepted: its plies undone, the clocks as the earliest undone turn began. */
function takeBack(state: GameState, now: number): StepResult {
  const by = state.takebackOffer!;
  const plies: 1 | 2 = by === state.turn ? 2 : 1;
  const keep = state.moves.length - plies;
  const moves = state.moves.slice(0, keep);
  const clocks = state.turnClocks[keep];
  const back: GameState = {
    ...state,
    ...positionAfter(state.startFen, moves),
    moves,
    clocks,
    turnStartedAt: now,
    turnClocks: state.turnClocks.slice(0, keep),
    drawOffer: null,
    takebackOffer: null,
    lastTakebackPly: { white: null, black: null },
  };
  const next: GameState = { ...back, ...syncGrace(back, now) };
  return { state: next, events: [tell('both', { type: 'takeback', plies, fen: next.fen, turn: next.turn, clocks, seq: keep })] };
}
