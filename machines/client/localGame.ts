/**
 * Local Play (docs/product.md, Local Play): two people at one device, as lichess's over-the-board
 * mode. The game is the game core's own state, stepped here with the page's monotonic clock as
 * `now`: the same rules, clocks, increment and automatic ends as an online game, with no server.
 *
 *   setup --START--> playing --(the core decides)--> over --REMATCH--> playing
 *                                                    over --NEW_GAME--> setup
 *
 * While a game runs the machine sends the core `WAKE` when `wakeAt` falls due, so a flag falls
 * (or an untouched game is aborted) on time. Resign is the side to move's; Draw is both players'
 * agreement at the board (the mover offers, the other accepts, through the core). A finished game
 * is emitted as `finished` for the host to keep on the device. Context is plain JSON besides the
 * injected clock and id source.
 */
import { assign, emit, setup } from 'xstate';
import { createGame, step } from '../game/step';
import { wakeAt } from '../game/clock';
import { opposite } from '../game/display';
import { clockOf, DEFAULT_TIME_CONTROL, POOLS, sameTimeControl, type TimeControl } from '../game/timeControl';
import type { Color, GameCommand, GameState, Winner, WireMove } from '../game/types';

/** The two players at the board: distinct ids, named by their colour. */
export const LOCAL_SEATS = { white: { id: 'local-white', name: 'White' }, black: { id: 'local-black', name: 'Black' } } as const;

/** The longest wait a browser timer takes (2^31 - 1 ms); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** A finished local game, as the device keeps it (its date is the host's to add). */
export interface LocalGameResult {
  id: string;
  timeControl: TimeControl;
  winner: Winner;
  reason: string;
  /** half-moves played */
  plies: number;
}

/** A finished local game as stored on the device: the result and when it ended (ISO). */
export interface LocalGameRecord extends LocalGameResult {
  date: string;
}

/** The Local Play setup a device remembers. */
export interface LocalPlaySettings {
  timeControl: TimeControl;
  autoFlip: boolean;
}

const WINNERS: readonly unknown[] = ['white', 'black', 'draw'];

/** One of the pools' time controls, else null. */
function poolOf(tc: unknown): TimeControl | null {
  const t = tc as Partial<TimeControl> | null;
  if (!t || typeof t !== 'object') return null;
  return POOLS.find((p) => sameTimeControl(p, { initial: Number(t.initial), increment: Number(t.increment) })) ?? null;
}

/** Stored Local Play settings with every field checked; bad or missing fields take the default. */
export function readLocalPlaySettings(stored: unknown): LocalPlaySettings {
  const o = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  return { timeControl: poolOf(o.timeControl) ?? DEFAULT_TIME_CONTROL, autoFlip: typeof o.autoFlip === 'boolean' ? o.autoFlip : true };
}

/** The stored local games that are well formed (anything else read back is dropped). */
export function readLocalGames(stored: unknown): LocalGameRecord[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter((g): g is LocalGameRecord => {
    const r = g as Partial<LocalGameRecord> | null;
    return !!r && typeof r.id === 'string' && typeof r.date === 'string' && WINNERS.includes(r.winner) && typeof r.reason === 'string'
      && typeof r.plies === 'number' && poolOf(r.timeControl) !== null;
  });
}

export interface LocalGameContext {
  timeControl: TimeControl;
  /** the board turns to the side to move after each move (lichess's OTB "auto-flip"; on by default) */
  autoFlip: boolean;
  /** the game core's state of the game on the board (null before the first) */
  game: GameState | null;
  now: () => number;
  newId: () => string;
}

export interface LocalGameInput {
  now: () => number;
  /** a new game's id (unique on this device) */
  newId: () => string;
  timeControl?: TimeControl;
  autoFlip?: boolean;
}

export type LocalGameEvent =
  | { type: 'SET_TIME_CONTROL'; timeControl: TimeControl }
  | { type: 'SET_AUTO_FLIP'; on: boolean }
  | { type: 'START' }
  /** a move of the side to move */
  | { type: 'MOVE'; move: WireMove }
  /** the side to move resigns (before both sides moved: the game is aborted) */
  | { type: 'RESIGN' }
  /** both players agree to a draw */
  | { type: 'DRAW' }
  /** the same time control again */
  | { type: 'REMATCH' }
  /** back to the setup */
  | { type: 'NEW_GAME' };

export type LocalGameEmitted = { type: 'finished'; result: LocalGameResult };

/** The player to move, as the core knows them. */
function moverId(game: GameState): string {
  return LOCAL_SEATS[game.turn].id;
}

/** `commands` through the core's step, one after the other, at `now`. */
function stepped(game: GameState, commands: readonly GameCommand[], now: number): GameState {
  let state = game;
  for (const command of commands) state = step(state, command, now).state;
  return state;
}

/** A new game of `timeControl`, its clocks starting now. */
export function newLocalGame(id: string, timeControl: TimeControl, now: number): GameState {
  return createGame({ gameId: id, white: LOCAL_SEATS.white, black: LOCAL_SEATS.black, startedAt: now, ...clockOf(timeControl) });
}

/** How the board faces: the side to move with auto-flip (white before any game), else white; `flipped` turns it over. */
export function localOrientation(game: GameState | null, autoFlip: boolean, flipped: boolean): Color {
  const base: Color = autoFlip && game ? game.turn : 'white';
  return flipped ? opposite(base) : base;
}

/** What the device keeps of a finished game. */
export function localResultOf(game: GameState, timeControl: TimeControl): LocalGameResult | null {
  if (game.result === null) return null;
  return { id: game.gameId, timeControl, winner: game.result.winner, reason: game.result.reason, plies: game.moves.length };
}

export const localGameMachine = setup({
  types: {
    context: {} as LocalGameContext,
    events: {} as LocalGameEvent,
    input: {} as LocalGameInput,
    emitted: {} as LocalGameEmitted,
  },
  guards: {
    decided: ({ context }) => context.game?.result != null,
  },
  delays: {
    /** until the core's next deadline (first move, flag) */
    untilWake: ({ context }) => (context.game ? Math.min(MAX_TIMER_MS, Math.max(0, wakeAt(context.game) - context.now())) : MAX_TIMER_MS),
  },
  actions: {
    startGame: assign({ game: ({ context }) => newLocalGame(context.newId(), context.timeControl, context.now()) }),
    command: assign({
      game: ({ context }, commands: readonly GameCommand[]) => (context.game ? stepped(context.game, commands, context.now()) : null),
    }),
    emitFinished: emit(({ context }) => ({ type: 'finished' as const, result: localResultOf(context.game as GameState, context.timeControl) as LocalGameResult })),
  },
}).createMachine({
  id: 'localGame',
  context: ({ input }) => ({
    timeControl: input.timeControl ?? DEFAULT_TIME_CONTROL,
    autoFlip: input.autoFlip ?? true,
    game: null,
    now: input.now,
    newId: input.newId,
  }),
  on: {
    SET_AUTO_FLIP: { actions: assign({ autoFlip: ({ event }) => event.on }) },
  },
  initial: 'setup',
  states: {
    setup: {
      on: {
        SET_TIME_CONTROL: { actions: assign({ timeControl: ({ event }) => event.timeControl }) },
        START: { target: 'playing', actions: 'startGame' },
      },
    },
    playing: {
      always: { guard: 'decided', target: 'over' },
      // re-entered after each command, so the timer follows the core's next deadline
      after: {
        untilWake: { target: 'playing', reenter: true, actions: { type: 'command', params: [{ type: 'WAKE' }] } },
      },
      on: {
        MOVE: {
          target: 'playing',
          reenter: true,
          actions: { type: 'command', params: ({ context, event }) => [{ type: 'MOVE', playerId: context.game ? moverId(context.game) : '', move: event.move }] },
        },
        RESIGN: {
          target: 'playing',
          reenter: true,
          actions: { type: 'command', params: ({ context }) => [{ type: 'RESIGN', playerId: context.game ? moverId(context.game) : '' }] },
        },
        DRAW: {
          target: 'playing',
          reenter: true,
          actions: {
            type: 'command',
            params: ({ context }) => {
              const by = context.game ? context.game.turn : 'white';
              return [{ type: 'OFFER_DRAW', playerId: LOCAL_SEATS[by].id }, { type: 'ACCEPT_DRAW', playerId: LOCAL_SEATS[opposite(by)].id }];
            },
          },
        },
      },
    },
    over: {
      entry: 'emitFinished',
      on: {
        REMATCH: { target: 'playing', actions: 'startGame' },
        NEW_GAME: { target: 'setup' },
      },
    },
  },
});
