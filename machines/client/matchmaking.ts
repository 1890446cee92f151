/**
 * The client side of matchmaking (docs/product.md, Matchmaking):
 *
 *   idle --FIND--> queued --STATUS canceled--> canceled --100 ms--> idle
 *   queued --GAME_STARTED--> inGame --GAME_ENDED/RESET--> idle
 *
 * FIND names its pool (a time control; none is the server's 10+0). FIND while a game runs is refused with a notice shown for 3 s. A search the server refuses
 * because a game holds the player names that game (`activeGame`): the screen links to it and may
 * resign it (RESIGN_ACTIVE), after which a search is possible again.
 * Messages to the server are emitted as `{type:'send'}`; the screen forwards them.
 */
import { assign, emit, setup, stateIn } from 'xstate';
import type { ClientMessage, MatchmakingStatusMsg, TimeControl } from '../protocol/messages';
import { TEXT } from '../protocol/messages';

export const CANCELED_RESET_MS = 100;
export const NOTICE_MS = 3000;

/** The game that holds the player, as the server named it when it refused a search. */
export type ActiveGame = NonNullable<MatchmakingStatusMsg['activeGame']>;

export interface MatchmakingContext {
  message: string;
  notice: string | null;
  username: string;
  activeGame: ActiveGame | null;
  /** the pool of the last search (none: the server's default, 10+0) */
  timeControl: TimeControl | null;
}

export type MatchmakingEvent =
  | { type: 'FIND'; username?: string | null; timeControl?: TimeControl }
  | { type: 'CANCEL' }
  | { type: 'STATUS'; status: 'idle' | 'queued' | 'canceled'; message: string; activeGame?: ActiveGame }
  | { type: 'RESIGN_ACTIVE' }
  | { type: 'GAME_STARTED' }
  | { type: 'GAME_ENDED' }
  | { type: 'RESET' };

/** FIND while in a game: show the refusal notice (again) for 3 s. */
const refuse = { guard: 'inGame', target: 'showing', reenter: true, actions: 'showRefusal' } as const;

export const matchmakingMachine = setup({
  types: {
    context: {} as MatchmakingContext,
    events: {} as MatchmakingEvent,
    emitted: {} as { type: 'send'; message: ClientMessage },
  },
  delays: { canceledReset: CANCELED_RESET_MS, notice: NOTICE_MS },
  guards: { inGame: stateIn({ phase: 'inGame' }) },
  actions: { showRefusal: assign({ notice: TEXT.activeGameRefusal }) },
}).createMachine({
  id: 'matchmaking',
  type: 'parallel',
  context: { message: '', notice: null, username: TEXT.anonymousName, activeGame: null, timeControl: null },
  states: {
    phase: {
      initial: 'idle',
      on: {
        GAME_STARTED: { target: '.inGame', actions: assign({ message: '' }) },
        RESET: { target: '.idle', actions: assign({ message: '' }) },
      },
      states: {
        idle: {
          on: {
            RESIGN_ACTIVE: {
              guard: ({ context }) => context.activeGame !== null,
              actions: [
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'resign' as const, payload: { gameId: context.activeGame!.gameId } } })),
                assign({ activeGame: null, message: '' }),
              ],
            },
            FIND: {
              target: 'queued',
              actions: [
                assign(({ event }) => ({ username: event.username || TEXT.anonymousName, message: '', activeGame: null, timeControl: event.timeControl ?? null })),
                emit(({ context }) => ({
                  type: 'send' as const,
                  message: { type: 'findGame' as const, payload: { username: context.username, ...(context.timeControl ? { timeControl: context.timeControl } : {}) } },
                })),
              ],
            },
          },
        },
        queued: {
          on: {
            CANCEL: { actions: emit({ type: 'send', message: { type: 'cancelMatchmaking' } }) },
            STATUS: [
              { guard: ({ event }) => event.status === 'canceled', target: 'canceled', actions: assign(({ event }) => ({ message: event.message })) },
              { guard: ({ event }) => event.status === 'idle', target: 'idle', actions: assign(({ event }) => ({ message: event.message, activeGame: event.activeGame ?? null })) },
              { actions: assign(({ event }) => ({ message: event.message })) },
            ],
          },
        },
        canceled: { after: { canceledReset: 'idle' } },
        inGame: {
          on: { GAME_ENDED: 'idle' },
        },
      },
    },
    notice: {
      initial: 'hidden',
      states: {
        hidden: { on: { FIND: refuse } },
        showing: {
          on: { FIND: refuse },
          after: { notice: { target: 'hidden', actions: assign({ notice: null }) } },
        },
      },
    },
  },
});
