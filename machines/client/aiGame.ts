/**
 * The game against the AI (docs/product.md, Screens and The AI game).
 *
 * This screen machine keeps the UI side (setup, the start handshake, notices, the end modal,
 * Play Again / Main Menu). While a game is in progress the rules side (whose turn, checking the
 * player's moves with machines/chess, the AI's move, the end of the game) is delegated to the
 * shared machines/ai `aiGameMachine`, invoked as `rules` in `playing`. Its `aiMove` actor is a
 * promise resolved by the server's next `moveMade` for this game (see `aiMoveWaiters`).
 *
 *   setup --START--> starting --GAME_CREATED--> playing --(moveMade gameOver | gameOver | resign | error)--> over
 *   over --PLAY_AGAIN / MAIN_MENU--> setup (colour back to white, empty board, no game)
 *
 * Server messages come in as events; messages for the server are emitted as `send`.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, sendTo, setup, type AnyActorRef } from 'xstate';
import type {
  AiGameStartMsg, ClientMessage, Color, GameCreatedMsg, GameOverMsg, MoveMadeMsg, PromotionPiece,
} from '../protocol/messages';
import { AI_DIFFICULTY, TEXT } from '../protocol/messages';
import { START_FEN } from '../chess/index';
import { placement, positionOf } from './engine';
import { aiGameMachine as sharedAiGameMachine, type AiGameEmitted, type AiMoveInput, type AiMoveOutput } from '../ai/index';
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
  /** the server's move for the AI was handed to the rules, which have not played it yet */
  aiMoveInFlight: boolean;
  /**
   * the server ended the game with the AI's move in flight: its `gameOver` message, or
   * 'fromPosition' when only `moveMade … gameOver` said so; told to the rules after the move
   */
  serverOver: GameOverMsg | 'fromPosition' | null;
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
  | { type: 'MAIN_MENU' }
  /** an event emitted by the shared rules machine, forwarded by `rulesEvents` */
  | { type: 'RULES'; event: AiGameEmitted };

const clampLevel = (n: number) =>
  Math.min(AI_DIFFICULTY.max, Math.max(AI_DIFFICULTY.min, Math.round(Number.isFinite(n) ? n : AI_DEFAULT_DIFFICULTY)));
const fenTurn = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

const freshGame = (ctx: AiGameContext) => ({
  gameId: null, fen: START_FEN, moves: [], sans: [], lastMove: null, result: null, modalOpen: false, error: null,
  boardVersion: ctx.boardVersion + 1, aiMoveInFlight: false, serverOver: null,
});

/**
 * The `aiMove` requests of running games, keyed by gameId: the rules machine asks for the AI's
 * move, and the screen resolves it when the server's `moveMade` for that game arrives.
 */
const aiMoveWaiters = new Map<string, (out: AiMoveOutput) => void>();

/** The browser's `aiMove`: the move of the server's next `moveMade` for this game. */
const serverAiMove = fromPromise<AiMoveOutput, AiMoveInput>(({ input, signal }) =>
  new Promise<AiMoveOutput>((resolve, reject) => {
    aiMoveWaiters.set(input.gameId, resolve);
    signal.addEventListener('abort', () => {
      if (aiMoveWaiters.get(input.gameId) === resolve) aiMoveWaiters.delete(input.gameId);
      reject(new Error('aborted'));
    });
  }));

const RULES_EVENTS = ['playerMoved', 'aiMoved', 'rejected', 'engineError', 'ended'] as const;

/** Forwards the events emitted by the invoked `rules` actor to the screen as `RULES`. */
const rulesEvents = fromCallback<AiGameEvent, { parent: AnyActorRef }>(({ input, sendBack }) => {
  const rules = input.parent.getSnapshot().children.rules as AnyActorRef | undefined;
  if (!rules) return;
  const subs = RULES_EVENTS.map((type) => rules.on(type, (event: AiGameEmitted) => sendBack({ type: 'RULES', event })));
  const snap = rules.getSnapshot();
  // a resumed game that had already ended finishes before we listen
  if (snap.status === 'done') sendBack({ type: 'RULES', event: { type: 'ended', winner: snap.output.winner, reason: snap.output.reason } });
  return () => subs.forEach((sub) => sub.unsubscribe());
});

/** The result the server's `moveMade … gameOver` implies for the position after the move. */
function gameOverFromPosition(gameId: string, fen: string): GameOverMsg {
  const st = positionOf(fen).status();
  const winner = st.checkmate ? (st.turn === 'white' ? 'black' : 'white') : 'draw';
  const reason = (st.reason ?? 'checkmate') as GameOverMsg['reason'];
  return { type: 'gameOver', gameId, reason, winner };
}

export const aiGameMachine = setup({
  types: {
    context: {} as AiGameContext,
    events: {} as AiGameEvent,
    input: {} as { difficulty?: number; colorChoice?: ColorChoice } | undefined,
    emitted: {} as { type: 'send'; message: ClientMessage } | { type: 'finished'; result: AiResult },
  },
  actors: {
    rules: sharedAiGameMachine.provide({ actors: { aiMove: serverAiMove } }),
    rulesEvents,
  },
  actions: {
    logRejectedServerMove: (_, params: { move: string }) => console.warn(`local engine rejected the AI move ${params.move}`),
  },
}).createMachine({
  id: 'aiGame',
  context: ({ input }) => ({
    difficulty: clampLevel(input?.difficulty ?? AI_DEFAULT_DIFFICULTY), colorChoice: input?.colorChoice ?? 'white', playerColor: 'white',
    gameId: null, opponentName: TEXT.aiOpponentName, fen: START_FEN, moves: [], sans: [], lastMove: null, result: null,
    modalOpen: false, error: null, boardVersion: 0, aiMoveInFlight: false, serverOver: null,
  }),
  initial: 'setup',
  on: {
    // a reconnect re-sends aiGameStart with the current state; the rules restart from its moves
    AI_GAME_START: {
      target: '.playing',
      reenter: true,
      actions: assign(({ context, event }) => {
        const st = event.msg.currentState;
        const fen = st?.fen || START_FEN;
        const last = st?.moves?.length ? st.moves[st.moves.length - 1] : null;
        return {
          gameId: event.msg.gameId, playerColor: event.msg.color, fen,
          moves: (st?.moves ?? []).map((m) => `${m.from}${m.to}${m.promotion ?? ''}`),
          lastMove: last ? [last.from, last.to] as [string, string] : null, result: null, modalOpen: false, error: null,
          boardVersion: context.boardVersion + 1, aiMoveInFlight: false, serverOver: null,
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
      invoke: [
        {
          id: 'rules',
          src: 'rules',
          input: ({ context }) => ({
            gameId: context.gameId ?? '', playerColor: context.playerColor, difficulty: context.difficulty, moves: context.moves,
          }),
        },
        { id: 'rulesEvents', src: 'rulesEvents', input: ({ self }) => ({ parent: self }) },
      ],
      on: {
        GAME_CREATED: {
          actions: assign(({ context, event }) => ({
            gameId: event.msg.gameId, playerColor: event.msg.playerColor, opponentName: event.msg.opponentName || context.opponentName,
          })),
        },
        // the rules check the move; `playerMoved` or `rejected` comes back
        LOCAL_MOVE: {
          actions: sendTo('rules', ({ event }) => ({
            type: 'PLAYER_MOVE' as const,
            move: event.promotion ? { from: event.from, to: event.to, promotion: event.promotion } : { from: event.from, to: event.to },
          })),
        },
        MOVE_MADE: {
          guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
          actions: enqueueActions(({ context, event, enqueue }) => {
            const msg = event.msg;
            // the server may echo the player's own move: the board already shows it
            const mine = msg.fen ? placement(msg.fen) === placement(context.fen) : fenTurn(context.fen) !== context.playerColor && positionOf(context.fen).pieceAt(msg.move.from) === null;
            if (mine) {
              if (msg.gameOver) enqueue.raise({ type: 'GAME_OVER', msg: gameOverFromPosition(msg.gameId, context.fen) });
              return;
            }
            const waiter = aiMoveWaiters.get(context.gameId ?? '');
            if (!waiter) {
              // the board is left alone (docs/product.md, The AI game)
              enqueue({ type: 'logRejectedServerMove', params: { move: `${msg.move.from}${msg.move.to}` } });
              return;
            }
            aiMoveWaiters.delete(context.gameId ?? '');
            enqueue.assign({ aiMoveInFlight: true, serverOver: msg.gameOver ? context.serverOver ?? 'fromPosition' : context.serverOver });
            enqueue(() => waiter({ uci: `${msg.move.from}${msg.move.to}${msg.move.promotion ?? ''}` }));
          }),
        },
        GAME_OVER: [
          // the AI's last move is still being played by the rules: end after it
          { guard: ({ context }) => context.aiMoveInFlight, actions: assign({ serverOver: ({ event }) => event.msg }) },
          {
            actions: sendTo('rules', ({ event }) => ({ type: 'SERVER_GAME_OVER' as const, winner: event.msg.winner, reason: event.msg.reason })),
          },
        ],
        RESIGN: {
          actions: enqueueActions(({ context, enqueue }) => {
            enqueue.emit({ type: 'send', message: { type: 'resign', payload: { gameId: context.gameId ?? '' } } });
            enqueue.sendTo('rules', { type: 'RESIGN' });
          }),
        },
        ERROR: {
          actions: enqueueActions(({ event, enqueue }) => {
            enqueue.assign({ error: `Error: ${event.message}` });
            enqueue.sendTo('rules', { type: 'ENGINE_ERROR', message: event.message });
          }),
        },
        RULES: [
          {
            guard: ({ event }) => event.event.type === 'playerMoved' || event.event.type === 'aiMoved',
            actions: enqueueActions(({ context, event, enqueue }) => {
              const e = event.event;
              if (e.type !== 'playerMoved' && e.type !== 'aiMoved') return;
              enqueue.assign({ fen: e.fen, moves: [...context.moves, e.uci], sans: [...context.sans, e.san], lastMove: [e.move.from, e.move.to] });
              if (e.type === 'playerMoved') {
                enqueue.emit({ type: 'send', message: { type: 'playerMoveAI', payload: { gameId: context.gameId ?? '', move: e.move } } });
                return;
              }
              enqueue.assign({ aiMoveInFlight: false });
              if (context.serverOver && !e.gameOver) {
                // the server's verdict on the AI's move, when the local rules did not end the game themselves
                const over = context.serverOver === 'fromPosition' ? gameOverFromPosition(context.gameId ?? '', e.fen) : context.serverOver;
                enqueue.sendTo('rules', { type: 'SERVER_GAME_OVER', winner: over.winner, reason: over.reason });
              }
            }),
          },
          {
            guard: ({ event }) => event.event.type === 'rejected',
            actions: assign(({ context }) => ({ boardVersion: context.boardVersion + 1 })),
          },
          {
            guard: ({ event }) => event.event.type === 'ended',
            target: 'over',
            actions: enqueueActions(({ context, event, enqueue }) => {
              if (event.event.type !== 'ended') return;
              // a gameOver message from the server has the last word on the reason
              const { winner, reason } = context.serverOver && context.serverOver !== 'fromPosition' ? context.serverOver : event.event;
              const result: AiResult = { outcome: aiOutcomeFor(winner, reason, context.playerColor), reason, winner };
              enqueue.assign({ result, modalOpen: true, aiMoveInFlight: false, serverOver: null });
              enqueue.emit({ type: 'finished', result });
            }),
          },
        ],
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

