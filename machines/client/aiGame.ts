/**
 * The game against the AI (SPEC 2 "AI screen", 4 "AI game").
 *
 *   setup --START--> starting --GAME_CREATED--> playing --(moveMade gameOver | gameOver | resign | error)--> over
 *   over --PLAY_AGAIN / MAIN_MENU--> setup (colour back to white, empty board, no game)
 *
 * Server messages come in as events; messages for the server are emitted as `send`.
 */
import { assign, emit, enqueueActions, setup } from 'xstate';
import type {
  AiGameStartMsg, ClientMessage, Color, GameCreatedMsg, GameOverMsg, MoveMadeMsg, PromotionPiece,
} from '../protocol/messages';
import { TEXT } from '../protocol/messages';
import { START_FEN } from '../chess/index';
import { applyMove, placement, positionOf } from './engine';
import { aiOutcomeFor, type Outcome } from './outcome';

export const AI_DEFAULT_DIFFICULTY = 5;
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

export interface AiGameContext {
  difficulty: number;
  colorChoice: ColorChoice;
  playerColor: Color;
  gameId: string | null;
  opponentName: string;
  fen: string;
  moves: string[];
  sans: string[];
  lastMove: [string, string] | null;
  result: AiResult | null;
  modalOpen: boolean;
  error: string | null;
  boardVersion: number;
}

export type AiGameEvent =
  | { type: 'SET_DIFFICULTY'; level: number }
  | { type: 'SET_COLOR'; color: ColorChoice }
  | { type: 'START' }
  | { type: 'GAME_CREATED'; msg: GameCreatedMsg }
  | { type: 'AI_GAME_START'; msg: AiGameStartMsg }
  | { type: 'LOCAL_MOVE'; from: string; to: string; promotion?: PromotionPiece; piece?: string }
  | { type: 'MOVE_MADE'; msg: MoveMadeMsg }
  | { type: 'GAME_OVER'; msg: GameOverMsg }
  | { type: 'ERROR'; message: string }
  | { type: 'REJECTED'; message: string; fen?: string }
  | { type: 'RESIGN' }
  | { type: 'CLEAR_NOTICE' }
  | { type: 'CLOSE_MODAL' }
  | { type: 'PLAY_AGAIN' }
  | { type: 'MAIN_MENU' };

const clampLevel = (n: number) => Math.min(10, Math.max(1, Math.round(Number.isFinite(n) ? n : AI_DEFAULT_DIFFICULTY)));
const fenTurn = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

const freshGame = (ctx: AiGameContext) => ({
  gameId: null, fen: START_FEN, moves: [], sans: [], lastMove: null, result: null, modalOpen: false, error: null,
  boardVersion: ctx.boardVersion + 1,
});

export const aiGameMachine = setup({
  types: {
    context: {} as AiGameContext,
    events: {} as AiGameEvent,
    input: {} as { difficulty?: number; colorChoice?: ColorChoice } | undefined,
    emitted: {} as { type: 'send'; message: ClientMessage } | { type: 'finished'; result: AiResult },
  },
  actions: {
    logRejectedServerMove: (_, params: { move: string }) => console.warn(`local engine rejected the AI move ${params.move}`),
  },
}).createMachine({
  id: 'aiGame',
  context: ({ input }) => ({
    difficulty: clampLevel(input?.difficulty ?? AI_DEFAULT_DIFFICULTY), colorChoice: input?.colorChoice ?? 'white', playerColor: 'white',
    gameId: null, opponentName: TEXT.aiOpponentName, fen: START_FEN, moves: [], sans: [], lastMove: null, result: null,
    modalOpen: false, error: null, boardVersion: 0,
  }),
  initial: 'setup',
  on: {
    // a reconnect re-sends aiGameStart with the current state
    AI_GAME_START: {
      target: '.playing',
      actions: assign(({ context, event }) => {
        const st = event.msg.currentState;
        const fen = st?.fen || START_FEN;
        const last = st?.moves?.length ? st.moves[st.moves.length - 1] : null;
        return {
          gameId: event.msg.gameId, playerColor: event.msg.color, fen,
          moves: (st?.moves ?? []).map((m) => `${m.from}${m.to}${m.promotion ?? ''}`),
          lastMove: last ? [last.from, last.to] as [string, string] : null, result: null, modalOpen: false, error: null,
          boardVersion: context.boardVersion + 1,
        };
      }),
    },
  },
  states: {
    setup: {
      on: {
        SET_DIFFICULTY: { actions: assign(({ event }) => ({ difficulty: clampLevel(event.level) })) },
        SET_COLOR: { actions: assign(({ event }) => ({ colorChoice: event.color })) },
        START: {
          target: 'starting',
          actions: emit(({ context }) => ({
            type: 'send' as const,
            message: { type: 'startAIGame' as const, payload: { options: { difficulty: context.difficulty, playerColor: context.colorChoice } } },
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
          })),
        },
        ERROR: { target: 'over', actions: assign(({ event }) => ({ error: `Error: ${event.message}`, result: { outcome: 'draw' as const, reason: 'technical_draw' }, modalOpen: true })) },
        MAIN_MENU: { target: 'setup', actions: assign(({ context }) => ({ ...freshGame(context), colorChoice: 'white' as const, playerColor: 'white' as const })) },
      },
    },
    playing: {
      on: {
        GAME_CREATED: {
          actions: assign(({ context, event }) => ({
            gameId: event.msg.gameId, playerColor: event.msg.playerColor, opponentName: event.msg.opponentName || context.opponentName,
          })),
        },
        LOCAL_MOVE: [
          {
            guard: ({ context, event }) => {
              const game = positionOf(context.fen);
              const piece = game.pieceAt(event.from);
              return game.turn() === context.playerColor && !!piece && (piece.color === 'w') === (context.playerColor === 'white')
                && game.isLegal({ from: event.from, to: event.to, promotion: event.promotion });
            },
            actions: enqueueActions(({ context, event, enqueue }) => {
              const applied = applyMove(context.fen, event);
              if (!applied) return;
              enqueue.assign({ fen: applied.fen, moves: [...context.moves, applied.uci], sans: [...context.sans, applied.san], lastMove: [event.from, event.to] });
              const piece = positionOf(context.fen).pieceAt(event.from)?.type ?? 'p';
              const move = event.promotion ? { from: event.from, to: event.to, piece, promotion: event.promotion } : { from: event.from, to: event.to, piece };
              enqueue.emit({ type: 'send', message: { type: 'playerMoveAI', payload: { gameId: context.gameId ?? '', move } } });
            }),
          },
          { actions: assign(({ context }) => ({ boardVersion: context.boardVersion + 1 })) },
        ],
        MOVE_MADE: {
          guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
          actions: enqueueActions(({ context, event, enqueue }) => {
            const msg = event.msg;
            const mine = msg.fen ? placement(msg.fen) === placement(context.fen) : fenTurn(context.fen) !== context.playerColor && positionOf(context.fen).pieceAt(msg.move.from) === null;
            let finalFen = context.fen;
            if (!mine) {
              const applied = applyMove(context.fen, msg.move);
              if (applied) finalFen = applied.fen;
              if (!applied) {
                // SPEC 8: the board is left alone
                enqueue({ type: 'logRejectedServerMove', params: { move: `${msg.move.from}${msg.move.to}` } });
              } else {
                enqueue.assign({ fen: applied.fen, moves: [...context.moves, applied.uci], sans: [...context.sans, applied.san], lastMove: [msg.move.from, msg.move.to] });
              }
            }
            if (msg.gameOver) {
              const st = positionOf(finalFen).status();
              const winner = st.checkmate ? (st.turn === 'white' ? 'black' : 'white') : 'draw';
              const reason = (st.reason ?? 'checkmate') as GameOverMsg['reason'];
              enqueue.raise({ type: 'GAME_OVER', msg: { type: 'gameOver', gameId: msg.gameId, reason, winner } });
            }
          }),
        },
        GAME_OVER: {
          target: 'over',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const result: AiResult = { outcome: aiOutcomeFor(event.msg.winner, event.msg.reason, context.playerColor), reason: event.msg.reason, winner: event.msg.winner };
            enqueue.assign({ result, modalOpen: true });
            enqueue.emit({ type: 'finished', result });
          }),
        },
        RESIGN: {
          target: 'over',
          actions: enqueueActions(({ context, enqueue }) => {
            enqueue.emit({ type: 'send', message: { type: 'resign', payload: { gameId: context.gameId ?? '' } } });
            const result: AiResult = { outcome: 'loss', reason: 'resignation', winner: context.playerColor === 'white' ? 'black' : 'white' };
            enqueue.assign({ result, modalOpen: true });
            enqueue.emit({ type: 'finished', result });
          }),
        },
        ERROR: {
          target: 'over',
          actions: assign(({ event }) => ({ error: `Error: ${event.message}`, result: { outcome: 'draw' as const, reason: 'technical_draw' }, modalOpen: true })),
        },
        REJECTED: {
          actions: assign(({ context, event }) => ({ fen: event.fen ?? context.fen, boardVersion: context.boardVersion + 1, error: `Invalid move: ${event.message}` })),
        },
        // "Invalid move: …" is shown for 3 s (the screen sends this after the delay)
        CLEAR_NOTICE: { guard: ({ context }) => !!context.error?.startsWith('Invalid move:'), actions: assign({ error: null }) },
      },
    },
    over: {
      on: {
        // the server's own gameOver after our resign/moveMade keeps the first result but learns the real reason
        GAME_OVER: {
          guard: ({ context }) => context.result?.reason !== 'resignation',
          actions: assign(({ context, event }) => ({
            result: { outcome: aiOutcomeFor(event.msg.winner, event.msg.reason, context.playerColor), reason: event.msg.reason, winner: event.msg.winner },
          })),
        },
        CLOSE_MODAL: { actions: assign({ modalOpen: false }) },
        PLAY_AGAIN: { target: 'setup', actions: assign(({ context }) => ({ ...freshGame(context), colorChoice: 'white' as const, playerColor: 'white' as const })) },
        MAIN_MENU: { target: 'setup', actions: assign(({ context }) => ({ ...freshGame(context), colorChoice: 'white' as const, playerColor: 'white' as const })) },
      },
    },
  },
});

