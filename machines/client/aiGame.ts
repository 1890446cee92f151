/**
 * The game against the AI (docs/product.md, Screens and The AI game).
 *
 * This screen machine keeps the UI side (setup, the start handshake, notices, the end modal,
 * Play Again / Main Menu). A game against the AI is an ordinary game on the server whose other
 * seat the engine holds: the server speaks of it as of every game (gameStart with `engineLevel`,
 * gameMove, timerUpdate, gameEnd). The game itself is the game core's state (`game`), kept by the
 * core's own step as the multiplayer screen keeps its game (gameMirror.ts): the player's moves are
 * checked and played by the step, the AI's moves the server announces are played by it too, the
 * clocks (when the game has a time control) are re-anchored to the server's, and the end is the
 * core's result (a mate, a draw by rule) or the one the server gives. The board, the moves, the
 * turn and the clocks in context are what the screen shows of it (`viewOf`).
 *
 *   setup --START--> starting --GAME_CREATED--> playing --(the core's end | gameEnd | resign | error)--> over
 *   over --PLAY_AGAIN / MAIN_MENU--> setup (colour back to white, empty board, no game)
 *
 * Server messages come in as events; messages for the server are emitted as `send`.
 */
import { assign, emit, enqueueActions, setup } from 'xstate';
import type {
  ClientMessage, ClocksMs, Color, GameCreatedMsg, GameEndMsg, GameMoveMsg, GameStartMsg, PromotionPiece, TimeControl, TimerUpdateMsg,
} from '../protocol/messages';
import { AI_DIFFICULTY, TEXT } from '../protocol/messages';
import { opposite } from '../game/display';
import type { GameResult as CoreResult, GameState, WireMove } from '../game/types';
import { positionOf } from './engine';
import { readingClocks } from './clock';
import { atServerPosition, copyOfServerGame, endedByServer, playMove, sideCommand, viewOf, withServerClocks, type GameView } from './gameMirror';
import { aiOutcomeFor, type Outcome } from './outcome';

export const AI_DEFAULT_DIFFICULTY = AI_DIFFICULTY.default;
export const AI_PRESETS = [
  { label: 'Beginner', level: 1 },
  { label: 'Inter', level: 5 },
  { label: 'Advanced', level: 9 },
] as const;

/** Which preset is shown as active: 1-3 Beginner, 4-7 Inter, above 7 Advanced. */
export function presetFor(level: number): 'Beginner' | 'Inter' | 'Advanced' {
  return level <= 3 ? 'Beginner' : level <= 7 ? 'Inter' : 'Advanced';
}

export type ColorChoice = Color | 'random';

export interface AiResult { outcome: Outcome; reason: string; winner?: 'white' | 'black' | 'draw' }

type Shown = Pick<GameView, 'fen' | 'moves' | 'lastMove' | 'turn' | 'clocks' | 'clockSyncedAt' | 'clockRunning'>;

/** The view fields (fen, moves, lastMove, turn, clocks) are what the screen shows of `game`, rewritten with it. */
export interface AiGameContext extends Shown {
  difficulty: number;
  colorChoice: ColorChoice;
  /** the clock asked for (null: no clock), then the game's */
  timeControl: TimeControl | null;
  playerColor: Color;
  gameId: string | null;
  opponentName: string;
  /** the game core's state of the game on the board (null: none) */
  game: GameState | null;
  result: AiResult | null;
  modalOpen: boolean;
  error: string | null;
  boardVersion: number;
  now: () => number;
}

export type AiGameEvent =
  | { type: 'SET_DIFFICULTY'; level: number }
  | { type: 'SET_COLOR'; color: ColorChoice }
  | { type: 'SET_TIME_CONTROL'; timeControl: TimeControl | null }
  | { type: 'START' }
  | { type: 'GAME_CREATED'; msg: GameCreatedMsg }
  /** the server's gameStart of a game against the AI (it names the engine's level): a start or a resume */
  | { type: 'AI_GAME_START'; msg: GameStartMsg }
  | { type: 'LOCAL_MOVE'; from: string; to: string; promotion?: PromotionPiece; piece?: string }
  | { type: 'MOVE_MADE'; msg: GameMoveMsg }
  | { type: 'TIMER_UPDATE'; msg: TimerUpdateMsg }
  | { type: 'GAME_OVER'; msg: GameEndMsg }
  | { type: 'ERROR'; message: string }
  | { type: 'REJECTED'; message: string; fen?: string }
  | { type: 'RESIGN' }
  | { type: 'CLEAR_NOTICE' }
  | { type: 'CLOSE_MODAL' }
  | { type: 'PLAY_AGAIN' }
  | { type: 'MAIN_MENU' };

const clampLevel = (n: number) =>
  Math.min(AI_DIFFICULTY.max, Math.max(AI_DIFFICULTY.min, Math.round(Number.isFinite(n) ? n : AI_DEFAULT_DIFFICULTY)));
const fenTurn = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

/** The game core's state and, with it, what the screen shows of it. */
function showing(game: GameState | null): Pick<AiGameContext, 'game' | keyof Shown> {
  const { fen, moves, lastMove, turn, clocks, clockSyncedAt, clockRunning } = viewOf(game);
  return { game, fen, moves, lastMove, turn, clocks, clockSyncedAt, clockRunning };
}

/** A new game the server made or resumed: its moves replayed through the core, on its clock (none: the core's default, not shown). */
function serverGame(gameId: string, timeControl: TimeControl | null, moves: readonly WireMove[], fen: string | undefined, clocks: ClocksMs | undefined, now: number): GameState {
  const clock = timeControl ? { clockMs: timeControl.initial * 1000, incrementMs: timeControl.increment * 1000 } : { clockMs: 0 };
  return copyOfServerGame({ gameId, ...clock, moves: [...moves], fen, ...(clocks ? { clocks } : {}) }, now);
}

/** The game with the server's clocks when it has a clock. */
function withClocks(context: AiGameContext, game: GameState, clocks: ClocksMs | undefined): GameState {
  return context.timeControl && clocks ? withServerClocks(game, clocks, context.now()) : game;
}

const freshGame = (ctx: AiGameContext) => ({
  gameId: null, ...showing(null), result: null, modalOpen: false, error: null, boardVersion: ctx.boardVersion + 1,
});

/** The result the player sees of the core's result. */
function resultOf(result: CoreResult, playerColor: Color): AiResult {
  return { outcome: aiOutcomeFor(result.winner, result.reason, playerColor), reason: result.reason, winner: result.winner };
}

/** The move as the core takes it (a promotion only when there is one). */
function wireMove(m: { from: string; to: string; promotion?: WireMove['promotion'] }): WireMove {
  return m.promotion ? { from: m.from, to: m.to, promotion: m.promotion } : { from: m.from, to: m.to };
}

export const aiGameMachine = setup({
  types: {
    context: {} as AiGameContext,
    events: {} as AiGameEvent,
    input: {} as { difficulty?: number; colorChoice?: ColorChoice; now?: () => number } | undefined,
    emitted: {} as { type: 'send'; message: ClientMessage } | { type: 'finished'; result: AiResult },
  },
  guards: {
    /** the core decided the game (a mate, a draw by rule) */
    decided: ({ context }) => context.game?.result != null,
  },
  actions: {
    logRejectedServerMove: (_, params: { move: string }) => console.warn(`local engine rejected the AI move ${params.move}`),
    /** the end, as the core's result says it */
    showEnd: enqueueActions(({ context, enqueue }) => {
      const ended = context.game?.result;
      if (!ended) return;
      const result = resultOf(ended, context.playerColor);
      enqueue.assign({ result, modalOpen: true });
      enqueue.emit({ type: 'finished', result });
    }),
  },
}).createMachine({
  id: 'aiGame',
  context: ({ input }) => ({
    difficulty: clampLevel(input?.difficulty ?? AI_DEFAULT_DIFFICULTY), colorChoice: input?.colorChoice ?? 'white', timeControl: null, playerColor: 'white',
    gameId: null, opponentName: TEXT.aiOpponentName, ...showing(null), result: null,
    modalOpen: false, error: null, boardVersion: 0, now: input?.now ?? (() => Date.now()),
  }),
  initial: 'setup',
  on: {
    // the start, or a resume (after a reconnect the screen asks for its game): the game is rebuilt from its moves
    AI_GAME_START: {
      target: '.playing',
      reenter: true,
      actions: assign(({ context, event }) => {
        const st = event.msg.currentState;
        const timeControl = event.msg.timeControl ?? null;
        return {
          gameId: event.msg.gameId, playerColor: event.msg.color, timeControl,
          difficulty: event.msg.engineLevel ?? context.difficulty,
          opponentName: event.msg.opponentName || context.opponentName,
          ...showing(serverGame(event.msg.gameId, timeControl, st?.moves ?? [], st?.fen || undefined, st ? readingClocks(st) : undefined, context.now())),
          result: null, modalOpen: false, error: null, boardVersion: context.boardVersion + 1,
        };
      }),
    },
  },
  states: {
    setup: {
      on: {
        SET_DIFFICULTY: { actions: assign(({ event }) => ({ difficulty: clampLevel(event.level) })) },
        SET_COLOR: { actions: assign(({ event }) => ({ colorChoice: event.color })) },
        SET_TIME_CONTROL: { actions: assign(({ event }) => ({ timeControl: event.timeControl })) },
        START: {
          target: 'starting',
          actions: emit(({ context }) => ({
            type: 'send' as const,
            message: {
              type: 'startAIGame' as const,
              payload: { options: { difficulty: context.difficulty, playerColor: context.colorChoice, ...(context.timeControl ? { timeControl: context.timeControl } : {}) } },
            },
          })),
        },
      },
    },
    starting: {
      on: {
        GAME_CREATED: {
          target: 'playing',
          actions: assign(({ context, event }) => ({
            ...freshGame(context), gameId: event.msg.gameId, playerColor: event.msg.playerColor,
            opponentName: event.msg.opponentName || TEXT.aiOpponentName,
            ...showing(serverGame(event.msg.gameId, context.timeControl, [], undefined, undefined, context.now())),
          })),
        },
        ERROR: { target: 'over', actions: assign(({ event }) => ({ error: `Error: ${event.message}`, result: { outcome: 'draw' as const, reason: 'technical_draw' }, modalOpen: true })) },
        MAIN_MENU: { target: 'setup', actions: assign(({ context }) => ({ ...freshGame(context), colorChoice: 'white' as const, playerColor: 'white' as const })) },
      },
    },
    playing: {
      // a resumed game the core finds decided ends at once
      always: { guard: 'decided', target: 'over', actions: 'showEnd' },
      on: {
        GAME_CREATED: {
          actions: assign(({ context, event }) => ({
            gameId: event.msg.gameId, playerColor: event.msg.playerColor, opponentName: event.msg.opponentName || context.opponentName,
          })),
        },
        // the core checks and plays the move; a refused one puts the board back
        LOCAL_MOVE: {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const played = context.game ? playMove(context.game, context.playerColor, wireMove(event), context.now()) : null;
            if (!played) {
              enqueue.assign({ boardVersion: context.boardVersion + 1 });
              return;
            }
            enqueue.assign(showing(played.game));
            const piece = event.promotion ? 'p' : (event.piece ?? positionOf(context.fen).pieceAt(event.from)?.type ?? '');
            enqueue.emit({ type: 'send', message: { type: 'gameMove', payload: { gameId: context.gameId ?? '', move: { ...wireMove(event), piece } } } });
          }),
        },
        MOVE_MADE: {
          guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
          actions: enqueueActions(({ context, event, enqueue }) => {
            const msg = event.msg;
            const game = context.game;
            if (!game) return;
            // the player's own move, played: the board already shows it; its clocks are the server's
            if (msg.nextTurn !== context.playerColor) {
              enqueue.assign(showing(withClocks(context, game, msg.clocks)));
              return;
            }
            const played = playMove(game, opposite(context.playerColor), wireMove(msg.move), context.now());
            if (!played) {
              // the board is left alone (docs/product.md, The AI game)
              enqueue({ type: 'logRejectedServerMove', params: { move: `${msg.move.from}${msg.move.to}` } });
              return;
            }
            enqueue.assign(showing(withClocks(context, played.game, msg.clocks)));
          }),
        },
        TIMER_UPDATE: {
          guard: ({ context, event }) => event.msg.gameId === context.gameId,
          actions: assign(({ context, event }) => (context.game ? showing(withClocks(context, context.game, readingClocks(event.msg))) : {})),
        },
        // the server ended the game (its reason wins over the core's, which may not know it: an engine failure, an abandon)
        GAME_OVER: {
          guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
          actions: assign(({ context, event }) => (context.game ? showing(endedByServer(context.game, { winner: event.msg.winner, reason: event.msg.reason }, context.now())) : {})),
        },
        RESIGN: {
          actions: enqueueActions(({ context, enqueue }) => {
            enqueue.emit({ type: 'send', message: { type: 'resign', payload: { gameId: context.gameId ?? '' } } });
            // the core's own rule ends the copy: a resignation, or an abort before both sides moved
            if (context.game) enqueue.assign(showing(sideCommand(context.game, context.playerColor, 'RESIGN', context.now()).game));
          }),
        },
        ERROR: {
          actions: assign(({ context, event }) => ({
            error: `Error: ${event.message}`,
            ...(context.game ? showing(endedByServer(context.game, { winner: 'draw', reason: 'technical_draw' }, context.now())) : {}),
          })),
        },
        REJECTED: {
          actions: assign(({ context, event }) => ({
            ...(context.game && event.fen ? showing(atServerPosition(context.game, fenTurn(event.fen), event.fen)) : {}),
            boardVersion: context.boardVersion + 1,
            error: `Invalid move: ${event.message}`,
          })),
        },
        // "Invalid move: …" is shown for 3 s (the screen sends this after the delay)
        CLEAR_NOTICE: { guard: ({ context }) => !!context.error?.startsWith('Invalid move:'), actions: assign({ error: null }) },
      },
    },
    over: {
      on: {
        // the server's own gameOver after a mate or a draw the core saw keeps the result but learns the server's reason
        GAME_OVER: {
          guard: ({ context, event }) => context.result?.reason !== 'resignation' && (!event.msg.gameId || event.msg.gameId === context.gameId),
          actions: assign(({ context, event }) => ({
            ...(context.game ? showing(endedByServer(context.game, { winner: event.msg.winner, reason: event.msg.reason }, context.now())) : {}),
            result: resultOf({ winner: event.msg.winner, reason: event.msg.reason }, context.playerColor),
          })),
        },
        CLOSE_MODAL: { actions: assign({ modalOpen: false }) },
        PLAY_AGAIN: { target: 'setup', actions: assign(({ context }) => ({ ...freshGame(context), colorChoice: 'white' as const, playerColor: 'white' as const })) },
        MAIN_MENU: { target: 'setup', actions: assign(({ context }) => ({ ...freshGame(context), colorChoice: 'white' as const, playerColor: 'white' as const })) },
      },
    },
  },
});
