/** What a rejoining player needs to rebuild the game (the protocol's gameStart.currentState). */
import type { SnapshotFrom } from 'xstate';
import type { CurrentState, WireMove } from '../protocol/messages';
import { clocksAt } from './clock';
import { toTimers } from './display';
import { defaultNow, type gameMachine } from './gameMachine';
import type { Color } from './types';

/** 'e7e8q' -> { from: 'e7', to: 'e8', promotion: 'q' } (promotion only when present, as the protocol's wire move). */
export function uciToWireMove(uci: string): WireMove {
  const move: WireMove = { from: uci.slice(0, 2), to: uci.slice(2, 4) };
  const promotion = uci.charAt(4);
  if (promotion === 'q' || promotion === 'r' || promotion === 'b' || promotion === 'n') move.promotion = promotion;
  return move;
}

/**
 * The current state of a game for a rejoining player: position, move list, side to move,
 * both clocks as they stand now (the running one counted down), the ply number (`seq`, the
 * same number as the last `moved` event's) and the pending draw offer.
 *
 * `nowMs` must come from the same time source the actor was given (default performance.now,
 * which is also the machine's default).
 */
export function snapshotForRejoin(snapshot: SnapshotFrom<typeof gameMachine>, nowMs: number = defaultNow()): CurrentState {
  const ctx = snapshot.context;
  const clocks = clocksAt(ctx, nowMs);
  const turn: Color = ctx.turn;
  return {
    fen: ctx.fen,
    turn,
    moves: ctx.moves.map(uciToWireMove),
    timers: toTimers(clocks),
    clocks,
    seq: ctx.moves.length,
    drawOfferFrom: ctx.drawOffer,
  };
}
