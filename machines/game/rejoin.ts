/** What a rejoining player needs to rebuild the game (gameStart's currentState). */
import type { CurrentState, WireMove } from '../protocol/messages';
import { clocksAt } from './clock';
import { toTimers } from './display';
import { awayGrace } from './presence';
import type { GameState } from './types';

/** 'e7e8q' -> { from: 'e7', to: 'e8', promotion: 'q' } (promotion only when present, as the wire move). */
export function uciToWireMove(uci: string): WireMove {
  const move: WireMove = { from: uci.slice(0, 2), to: uci.slice(2, 4) };
  const promotion = uci.charAt(4);
  if (promotion === 'q' || promotion === 'r' || promotion === 'b' || promotion === 'n') move.promotion = promotion;
  return move;
}

/**
 * The current state of a game for a rejoining player at `nowMs` (the game's time base): position,
 * move list, side to move, both clocks as they stand (the running one counted down), the ply
 * number (`seq`, the same number as the last `moved` event's), the pending draw offer and takeback proposal, and the
 * grace each absent player has left.
 */
export function rejoinState(state: GameState, nowMs: number): CurrentState {
  const clocks = clocksAt(state, nowMs);
  const away = awayGrace(state, nowMs);
  return {
    fen: state.fen,
    turn: state.turn,
    moves: state.moves.map(uciToWireMove),
    timers: toTimers(clocks),
    clocks,
    seq: state.moves.length,
    drawOfferFrom: state.drawOffer,
    takebackFrom: state.takebackOffer,
    ...(away ? { awayGraceMs: away } : {}),
  };
}
