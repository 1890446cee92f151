/**
 * The single 10+0 matchmaking pool as a pure XState v5 machine (machines/matchmaking/README.md).
 *
 * The server owns one actor of this machine. It sends JOIN when a player asks for a game
 * and LEAVE when the player cancels or disconnects; it listens to the emitted events and
 * turns them into socket messages (and a game actor for `paired`).
 *
 * Rules (docs/product.md, Matchmaking):
 * - Players are identified by playerId only. The same id on two sockets is the same player:
 *   a second JOIN does not add a second entry (it refreshes the display name and keeps the
 *   original place in the queue), so a player can never be paired with itself.
 * - Arrival order: a newcomer is paired with the longest-waiting other player.
 * - Colours are random, drawn from `random` in the input (default Math.random), so tests
 *   can fix them.
 * - Whether a player may search at all (e.g. already in a game) is the server's decision:
 *   it knows the games, this machine only knows the queue.
 */
import { assign, emit, enqueueActions, setup } from 'xstate';

export interface QueuedPlayer {
  playerId: string;
  name: string;
}

export interface MatchmakingInput {
  /** Returns a number in [0, 1), like Math.random. < 0.5 gives white to the longer waiter. */
  random?: () => number;
}

export interface MatchmakingContext {
  /** Waiting players, longest-waiting first. JSON-serialisable. */
  queue: QueuedPlayer[];
}

export type MatchmakingEvent =
  | { type: 'JOIN'; playerId: string; name: string }
  | { type: 'LEAVE'; playerId: string };

export type MatchmakingEmitted =
  | { type: 'queued'; playerId: string }
  | { type: 'left'; playerId: string }
  | { type: 'paired'; white: { id: string; name: string }; black: { id: string; name: string } };

/**
 * The random source cannot live in the context (functions are not serialisable), so it is
 * kept beside the actor, keyed by the actor reference, for the actor's lifetime.
 */
const randomByActor = new WeakMap<object, () => number>();

function randomFor(self: object): number {
  const r = (randomByActor.get(self) ?? Math.random)();
  return Number.isFinite(r) ? r : Math.random();
}

export const matchmakingMachine = setup({
  types: {} as {
    context: MatchmakingContext;
    events: MatchmakingEvent;
    input: MatchmakingInput | undefined;
    emitted: MatchmakingEmitted;
  },
  guards: {
    alreadyQueued: ({ context, event }) =>
      event.type === 'JOIN' && context.queue.some((p) => p.playerId === event.playerId),
    someoneElseWaiting: ({ context, event }) =>
      event.type === 'JOIN' && context.queue.some((p) => p.playerId !== event.playerId),
    isQueued: ({ context, event }) =>
      event.type === 'LEAVE' && context.queue.some((p) => p.playerId === event.playerId),
  },
  actions: {
    refreshName: assign({
      queue: ({ context, event }) =>
        event.type !== 'JOIN'
          ? context.queue
          : context.queue.map((p) => (p.playerId === event.playerId ? { ...p, name: event.name } : p)),
    }),
    enqueue: assign({
      queue: ({ context, event }) =>
        event.type !== 'JOIN' ? context.queue : [...context.queue, { playerId: event.playerId, name: event.name }],
    }),
    emitQueued: emit(({ event }) => ({ type: 'queued' as const, playerId: event.playerId })),
    pairWithLongestWaiting: enqueueActions(({ context, event, enqueue, self }) => {
      if (event.type !== 'JOIN') return;
      const opponent = context.queue.find((p) => p.playerId !== event.playerId);
      if (!opponent) return;
      const waiter = { id: opponent.playerId, name: opponent.name };
      const newcomer = { id: event.playerId, name: event.name };
      const waiterIsWhite = randomFor(self) < 0.5;
      enqueue.assign({ queue: context.queue.filter((p) => p.playerId !== opponent.playerId) });
      enqueue.emit({
        type: 'paired',
        white: waiterIsWhite ? waiter : newcomer,
        black: waiterIsWhite ? newcomer : waiter,
      });
    }),
    dequeue: assign({
      queue: ({ context, event }) => context.queue.filter((p) => p.playerId !== event.playerId),
    }),
    emitLeft: emit(({ event }) => ({ type: 'left' as const, playerId: event.playerId })),
  },
}).createMachine({
  id: 'matchmaking',
  context: ({ input, self }) => {
    if (input?.random) randomByActor.set(self, input.random);
    return { queue: [] };
  },
  initial: 'open',
  states: {
    open: {
      on: {
        JOIN: [
          // Idempotent: a second JOIN (another tab, a retry) keeps the first place in line.
          { guard: 'alreadyQueued', actions: ['refreshName', 'emitQueued'] },
          { guard: 'someoneElseWaiting', actions: ['emitQueued', 'pairWithLongestWaiting'] },
          { actions: ['enqueue', 'emitQueued'] },
        ],
        LEAVE: { guard: 'isQueued', actions: ['dequeue', 'emitLeft'] },
      },
    },
  },
});
