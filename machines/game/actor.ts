/**
 * The game core as an XState actor: `createActor(gameLogic, { input })` runs `step` through
 * XState's own `fromTransition`. Its events are timed commands (a command and the time it
 * arrived, `at`), which are also the entries of the game's log; the actor's snapshot context is
 * the game state; the step's events are emitted (`actor.on('moved', …)`) once the new snapshot
 * is in place. The actor never reads a clock: the host stamps each command, and sends `WAKE`
 * at or after `wakeAt(state)`.
 */
import { fromTransition, type ActorRefFromLogic, type ActorScope, type TransitionSnapshot } from 'xstate';
import { createGame, step } from './step';
import type { GameEmitted, GameInput, GameState, TimedCommand } from './types';

/** Whatever actor system the actor runs in (the game uses none of it). */
type AnySystem = ActorScope<TransitionSnapshot<GameState>, TimedCommand>['system'];

export const gameLogic = fromTransition<GameState, TimedCommand, AnySystem, GameInput, GameEmitted>(
  (state, command, { defer, emit }) => {
    // XState's own events (`xstate.stop` when the actor stops) reach the transition too.
    if (command.type.startsWith('xstate.')) return state;
    const { state: next, events } = step(state, command, command.at);
    if (events.length > 0) {
      defer(() => {
        for (const e of events) emit(e);
      });
    }
    return next;
  },
  ({ input }) => createGame(input),
);

export type GameActor = ActorRefFromLogic<typeof gameLogic>;
