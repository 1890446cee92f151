/**
 * The binding between the server and the pure cores in machines/game and machines/matchmaking:
 * creating their actors. The types are the cores' own.
 */
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { gameLogic, type GameActor, type GameInput } from '../../machines/game';
import { poolLogic, type PoolActor } from '../../machines/matchmaking';

/** What an actor's `inspect` option takes (tests and diagnostics). */
type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/** The server's inspector option as XState takes it: a function or an observer, else none. */
function inspectOption(inspect: unknown): { inspect?: Inspect } {
  return typeof inspect === 'function' || (typeof inspect === 'object' && inspect !== null) ? { inspect: inspect as Inspect } : {};
}

/** A game actor running the core's step; the server stamps each command with its arrival time. */
export function createGameActor(input: GameInput, inspect?: unknown): GameActor {
  return createActor(gameLogic, { input, ...inspectOption(inspect) });
}

/** The matchmaking pool's actor running the pool's step; the server stamps each command with its time and roll. */
export function createPoolActor(inspect?: unknown): PoolActor {
  return createActor(poolLogic, inspectOption(inspect));
}
