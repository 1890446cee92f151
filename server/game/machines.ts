/**
 * The binding between the server and the pure machines in machines/game and
 * machines/matchmaking: creating actors and reading what the server needs from snapshots.
 * Any difference between the machines' interface and what the server expects is absorbed here.
 */
import { createActor } from 'xstate';
import { serverGameMachine, snapshotForRejoin, type GameContext } from '../../machines/game';

/** Pure clock helpers of the game machine the server reads snapshots with. */
export { clockRunning, clocksAt, opposite, timerSeconds, toTimers, wakeAt, type GameContext } from '../../machines/game';
import { matchmakingMachine } from '../../machines/matchmaking';
import type { CurrentState } from '../../machines/protocol/messages';
import type { GameCommand, GameInput, MatchmakingCommand } from './contract';

export interface EmitterActor<C> {
  start(): unknown;
  stop(): unknown;
  send(cmd: C): void;
  on(type: '*', handler: (e: { type: string }) => void): { unsubscribe(): void };
  subscribe(o: { error?: (err: unknown) => void; complete?: () => void }): { unsubscribe(): void };
}

export interface GameActor extends EmitterActor<GameCommand> {
  getSnapshot(): unknown;
}
export type MatchmakingActor = EmitterActor<MatchmakingCommand>;

/** A game actor the server drives with WAKE events from its timing wheel (GameTiming 'driven'), moves taken directly (machines/game/directMoves.ts). */
export function createGameActor(input: GameInput, inspect?: unknown): GameActor {
  const actor = createActor(serverGameMachine, { input: input as never, ...(inspect ? { inspect: inspect as never } : {}) });
  return actor as unknown as GameActor;
}

export function rejoinState(actor: GameActor): CurrentState {
  return snapshotForRejoin(actor.getSnapshot() as never) as CurrentState;
}

/** The context of a game still being played, or null once the actor is done or broken. */
export function liveContext(actor: GameActor): GameContext | null {
  const snap = actor.getSnapshot() as { status?: string; context?: GameContext };
  return snap.status === 'active' && snap.context ? snap.context : null;
}

export function createMatchmakingActor(random: () => number, inspect?: unknown): MatchmakingActor {
  const actor = createActor(matchmakingMachine, { input: { random } as never, ...(inspect ? { inspect: inspect as never } : {}) });
  return actor as unknown as MatchmakingActor;
}
