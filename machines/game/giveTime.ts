/**
 * Giving time (lichess "moretime", the + by the opponent's clock): a player adds GIVE_TIME_MS to
 * the opponent's clock. Only in a game with a clock (not one with a limit per move) between two
 * players (not against the AI), while it is played, and at most once per GIVE_TIME_INTERVAL_MS
 * per player. Both players and the spectators are told the new clocks (`timeGiven`). Time given
 * is kept for good: a later takeback, which puts the clocks back to an earlier turn's start,
 * puts them back with the gift (the clocks kept for takebacks get it too).
 */
import { clocksAt, withIncrement } from './clock';
import { GIVE_TIME_INTERVAL_MS, GIVE_TIME_MS } from './defaults';
import { opposite } from './display';
import { REJECTION } from './reasons';
import { colorOf, rejected, tell } from './replies';
import type { ClocksMs, Color, GameState, StepResult } from './types';

/** Why `me` may not give the opponent time at `now`, or null when it may. */
export function giveTimeRefusal(state: GameState, me: Color, now: number): string | null {
  if (state.white.engine || state.black.engine) return REJECTION.giveTimeAgainstAi;
  if (state.settings.untimed) return REJECTION.giveTimeUntimed;
  const last = state.timeGivenAt[me];
  if (last !== null && now - last < GIVE_TIME_INTERVAL_MS) return REJECTION.giveTimeTooOften;
  return null;
}

/** `playerId` gives the opponent GIVE_TIME_MS at `now` (the game is undecided and no flag has fallen). */
export function giveTime(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'GIVE_TIME');
  const refusal = giveTimeRefusal(state, me, now);
  if (refusal !== null) return rejected(state, playerId, refusal, 'GIVE_TIME');
  const them = opposite(me);
  const next: GameState = {
    ...state,
    clocks: withIncrement(state.clocks, them, GIVE_TIME_MS),
    turnClocks: withGift(state.turnClocks, them),
    timeGivenAt: me === 'white' ? { white: now, black: state.timeGivenAt.black } : { white: state.timeGivenAt.white, black: now },
  };
  return { state: next, events: [tell('both', { type: 'timeGiven', color: them, ms: GIVE_TIME_MS, clocks: clocksAt(next, now) })] };
}

/** The clocks kept for takebacks, each with the gift to `them`: a takeback cannot take a gift back. */
function withGift(turnClocks: readonly ClocksMs[], them: Color): ClocksMs[] {
  return turnClocks.map((clocks) => withIncrement(clocks, them, GIVE_TIME_MS));
}
