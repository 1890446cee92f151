/**
 * The engine's seat in a game, as an XState v5 machine: it waits for its turn, thinks (the
 * engine's search, supplied as the `think` actor), pauses like a human when its clock allows,
 * plays, and fails for good when the engine does. The game itself (its moves, rules, clocks and
 * end) is the ordinary game's (machines/game); this machine only decides when the engine moves
 * and with what. No sockets, timers of its own or Node APIs; its context is JSON.
 *
 *   ready --TURN--> thinking --done--> pausing --after pause--> ready (emits `move`)
 *                            --error--> failed (emits `failed`)
 *
 * `think` is supplied with `engineSeatMachine.provide({ actors: { think } })`; the server's
 * (server/ai/seat.ts) asks the engine pool and returns `{ uci, pauseMs }`. A TURN while the
 * engine is busy is ignored: the game asks again once its move is played.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { EngineClock } from './movetime';
import type { Seat } from '../game/types';


/** The engine's seat in game `gameId` at `level`: its own id in that game, its name as players and the archive show it. */
export function engineSeat(gameId: string, level: number): Seat {
  return { id: `engine_${gameId}`, name: `Stockfish level ${level}`, engine: { level } };
}

export interface EngineSeatInput {
  gameId: string;
  /** 1..10 */
  level: number;
}

/** The engine's turn: the moves so far (UCI, from the standard start), and its clock (null: none). */
export interface EngineTurn {
  moves: string[];
  clock: EngineClock | null;
}

/** What the `think` actor receives. */
export interface ThinkInput extends EngineTurn {
  gameId: string;
  level: number;
}

/** What the `think` actor returns: the move (UCI) and how long to wait before playing it. */
export interface ThinkOutput {
  uci: string;
  pauseMs?: number;
}

export interface EngineSeatContext extends EngineSeatInput {
  /** the turn being thought about, and the move chosen for it while the pause runs */
  turn: EngineTurn | null;
  chosen: ThinkOutput | null;
}

export type EngineSeatEvent = { type: 'TURN'; turn: EngineTurn };

export type EngineSeatEmitted =
  /** the engine's move for the turn of `ply` moves */
  | { type: 'move'; uci: string; ply: number }
  | { type: 'failed'; message: string };

export const engineSeatMachine = setup({
  types: {
    context: {} as EngineSeatContext,
    events: {} as EngineSeatEvent,
    input: {} as EngineSeatInput,
    emitted: {} as EngineSeatEmitted,
  },
  actors: {
    think: fromPromise<ThinkOutput, ThinkInput>(async () => {
      throw new Error('think is not provided: use engineSeatMachine.provide({ actors: { think } })');
    }),
  },
  delays: {
    pause: ({ context }) => Math.max(0, context.chosen?.pauseMs ?? 0),
  },
}).createMachine({
  id: 'engineSeat',
  context: ({ input }) => ({ gameId: input.gameId, level: input.level, turn: null, chosen: null }),
  initial: 'ready',
  states: {
    ready: {
      on: { TURN: { target: 'thinking', actions: assign({ turn: ({ event }) => event.turn }) } },
    },
    thinking: {
      invoke: {
        src: 'think',
        input: ({ context }) => ({ gameId: context.gameId, level: context.level, moves: context.turn?.moves ?? [], clock: context.turn?.clock ?? null }),
        onDone: { target: 'pausing', actions: assign({ chosen: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: emit(({ event }) => ({
            type: 'failed' as const,
            message: `AI engine failure: ${event.error instanceof Error ? event.error.message : String(event.error)}`,
          })),
        },
      },
    },
    pausing: {
      after: {
        pause: {
          target: 'ready',
          actions: [
            emit(({ context }) => ({ type: 'move' as const, uci: context.chosen?.uci ?? '', ply: context.turn?.moves.length ?? 0 })),
            assign({ turn: null, chosen: null }),
          ],
        },
      },
    },
    failed: { type: 'final' },
  },
});

export type EngineSeatMachine = typeof engineSeatMachine;
