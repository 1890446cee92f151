/**
 * The binding between the server and the pure cores in machines/game and machines/matchmaking:
 * creating their actors. The types are the cores' own.
 */
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { gameLogic, type GameActor, type GameInput } from '../../machines/game';
import { poolLogic, type PoolActor } from '../../machines/matchmaking';

/** An actor's `inspect` option, as XState takes it (the XState inspector, server/inspect; tests). */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/** A game actor running the core's step; the server stamps each command with its arrival time. */
export function createGameActor(input: GameInput, inspect?: Inspect): GameActor {
  // the id is the name the inspector shows
  return createActor(gameLogic, { input, id: `game ${input.gameId}`, inspect });
}

/** The matchmaking pool's actor running the pool's step; the server stamps each command with its time and roll. */
export function createPoolActor(inspect?: Inspect): PoolActor {
  return createActor(poolLogic, { id: 'matchmaking pool', inspect });
}
