/**
 * The AI game lifecycle as an XState v5 machine, run by the server (the browser's AI screen keeps
 * its game as the game core's state instead: machines/client/aiGame.ts).
 *
 * The machine owns the rules side of one game against the AI: whose turn it is, checking the
 * player's moves with machines/chess, asking for the AI's move, the human-like pause before
 * showing it, and the end of the game (checkmate, stalemate, draws, resignation, engine
 * failure). It has no sockets, timers of its own or Node APIs; its context is JSON.
 *
 * Where the AI's move comes from is an implementation detail supplied with
 * `aiGameMachine.provide({ actors: { aiMove }, delays: { aiReplyPause } })`:
 *
 * - Server (server/ai/service.ts): `aiMove` asks the Stockfish pool (with the level's
 *   weakness policy) and returns `{ uci, pauseMs }`, where `pauseMs` is what is left of a
 *   random human-like pause after the engine's own thinking time. The default
 *   `aiReplyPause` delay waits `pauseMs` before the move is played and emitted.
 *
 * Emitted events (subscribe with `actor.on(type, handler)`): playerMoved, aiMoved, rejected,
 * engineError, ended. The final state `over` has output `{ winner, reason }`.
 */
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import type { Color, GameEndReason, WireMove, Winner } from '../protocol/messages';
import { MAX_PLIES } from '../game/defaults';
import { automaticResult, describeMove, other, replay, toMoveInput, toWireMove, type GameResult } from './position';

export { replay, toMoveInput, toWireMove, automaticResult } from './position';

/** The maximum game length of every game, the AI's too: drawn after MAX_PLIES plies. */
export const DEFAULT_MAX_PLIES = MAX_PLIES;

export const REJECT = {
  notYourTurn: 'Not your turn',
  gameOver: 'Game is over',
  illegal: (move: unknown) => `Illegal move: ${describeMove(move)}`,
} as const;

export interface AiGameInput {
  gameId: string;
  playerColor: Color;
  /** 1..10 */
  difficulty: number;
  /** moves already played (UCI), to resume a game */
  moves?: string[];
  maxPlies?: number;
}

export interface AiGameContext {
  gameId: string;
  playerColor: Color;
  aiColor: Color;
  difficulty: number;
  /** every move so far, UCI */
  moves: string[];
  /** position after `moves` */
  fen: string;
  /** the AI's chosen move while the reply pause runs */
  pendingAiMove: { uci: string; pauseMs: number } | null;
  result: GameResult | null;
  maxPlies: number;
}

/** What the `aiMove` actor receives. */
export interface AiMoveInput {
  gameId: string;
  difficulty: number;
  aiColor: Color;
  moves: string[];
  fen: string;
}

/** What the `aiMove` actor returns. */
export interface AiMoveOutput {
  uci: string;
  /** how long to wait before playing it (server: rest of the human-like pause) */
  pauseMs?: number;
}

export type AiGameEvent =
  | { type: 'PLAYER_MOVE'; move: WireMove | string }
  | { type: 'RESIGN' }
  /** the server gave up on an absent player (disconnect timeout) */
  | { type: 'ABANDON' }
  /** the server gave up on a player who did not move on their turn for its idle limit (an AI game has no clock): lost on time */
  | { type: 'IDLE' }
  /** client side: the server ended the game */
  | { type: 'SERVER_GAME_OVER'; winner: Winner; reason: GameEndReason }
  /** client side: the server reported an engine error */
  | { type: 'ENGINE_ERROR'; message: string };

export interface MovedEvent {
  move: WireMove;
  uci: string;
  san: string;
  fen: string;
  /** true when this move ended the game */
  gameOver: boolean;
}

export type AiGameEmitted =
  | ({ type: 'playerMoved' } & MovedEvent)
  | ({ type: 'aiMoved' } & MovedEvent)
  | { type: 'rejected'; reason: string; fen: string }
  | { type: 'engineError'; message: string }
  | { type: 'ended'; winner: Winner; reason: GameEndReason };

function applyMove(context: AiGameContext, move: WireMove | string) {
  const game = replay(context.moves);
  const input = toMoveInput(move);
  const played = input ? game.play(input) : null;
  if (!played) return null;
  const result = automaticResult(game, context.maxPlies);
  return { played, fen: game.fen(), result };
}

function isLegalFor(context: AiGameContext, move: unknown): boolean {
  const input = toMoveInput(move);
  if (!input) return false;
  return replay(context.moves).isLegal(input);
}

export const aiGameMachine = setup({
  types: {
    context: {} as AiGameContext,
    events: {} as AiGameEvent,
    input: {} as AiGameInput,
    emitted: {} as AiGameEmitted,
    output: {} as GameResult,
  },
  actors: {
    aiMove: fromPromise<AiMoveOutput, AiMoveInput>(async () => {
      throw new Error('aiMove is not provided: use aiGameMachine.provide({ actors: { aiMove } })');
    }),
  },
  delays: {
    aiReplyPause: ({ context }) => Math.max(0, context.pendingAiMove?.pauseMs ?? 0),
  },
  guards: {
    gameEnded: ({ context }) => context.result !== null,
    playersTurn: ({ context }) => replay(context.moves).turn() === context.playerColor,
    legalPlayerMove: ({ context, event }) => event.type === 'PLAYER_MOVE' && isLegalFor(context, event.move),
  },
  actions: {
    playPlayerMove: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PLAYER_MOVE') return;
      const r = applyMove(context, event.move);
      if (!r) return;
      enqueue.assign({ moves: [...context.moves, r.played.uci], fen: r.fen, result: r.result });
      enqueue.emit({
        type: 'playerMoved',
        move: toWireMove(r.played),
        uci: r.played.uci,
        san: r.played.san,
        fen: r.fen,
        gameOver: r.result !== null,
      });
    }),
    playAiMove: enqueueActions(({ context, enqueue }) => {
      const pending = context.pendingAiMove;
      if (!pending) return;
      const r = applyMove(context, pending.uci);
      if (!r) return; // checked when the move arrived
      enqueue.assign({ moves: [...context.moves, r.played.uci], fen: r.fen, result: r.result, pendingAiMove: null });
      enqueue.emit({
        type: 'aiMoved',
        move: toWireMove(r.played),
        uci: r.played.uci,
        san: r.played.san,
        fen: r.fen,
        gameOver: r.result !== null,
      });
    }),
    rejectIllegal: emit(({ context, event }) => ({
      type: 'rejected' as const,
      reason: REJECT.illegal(event.type === 'PLAYER_MOVE' ? event.move : undefined),
      fen: context.fen,
    })),
    rejectNotYourTurn: emit(({ context }) => ({ type: 'rejected' as const, reason: REJECT.notYourTurn, fen: context.fen })),
    emitEnded: emit(({ context }) => ({
      type: 'ended' as const,
      winner: context.result?.winner ?? 'draw',
      reason: context.result?.reason ?? 'technical_draw',
    })),
    setResignation: assign({ result: ({ context }) => ({ winner: context.aiColor, reason: 'resignation' as const }) }),
    setAbandoned: assign({ result: ({ context }) => ({ winner: context.aiColor, reason: 'disconnection' as const }) }),
    setIdle: assign({ result: ({ context }) => ({ winner: context.aiColor, reason: 'timeout' as const }) }),
    setServerResult: assign({
      result: ({ event }) =>
        event.type === 'SERVER_GAME_OVER' ? { winner: event.winner, reason: event.reason } : null,
    }),
    setTechnicalDraw: assign({ result: () => ({ winner: 'draw' as const, reason: 'technical_draw' as const }), pendingAiMove: null }),
    emitEngineError: emit((_, params: { message: string }) => ({ type: 'engineError' as const, message: params.message })),
  },
}).createMachine({
  id: 'aiGame',
  context: ({ input }) => {
    const moves = [...(input.moves ?? [])];
    const maxPlies = input.maxPlies ?? DEFAULT_MAX_PLIES;
    const game = replay(moves);
    return {
      gameId: input.gameId,
      playerColor: input.playerColor,
      aiColor: other(input.playerColor),
      difficulty: input.difficulty,
      moves,
      fen: game.fen(),
      pendingAiMove: null,
      result: automaticResult(game, maxPlies),
      maxPlies,
    };
  },
  initial: 'next',
  on: {
    RESIGN: { target: '.over', actions: 'setResignation' },
    ABANDON: { target: '.over', actions: 'setAbandoned' },
    IDLE: { target: '.over', actions: 'setIdle' },
    SERVER_GAME_OVER: { target: '.over', actions: 'setServerResult' },
    ENGINE_ERROR: {
      target: '.over',
      actions: ['setTechnicalDraw', { type: 'emitEngineError', params: ({ event }) => ({ message: event.message }) }],
    },
  },
  states: {
    /** decides what comes after a move (or at the start) */
    next: {
      always: [
        { guard: 'gameEnded', target: 'over' },
        { guard: 'playersTurn', target: 'playerTurn' },
        { target: 'aiThinking' },
      ],
    },
    playerTurn: {
      on: {
        PLAYER_MOVE: [
          { guard: 'legalPlayerMove', target: 'next', actions: 'playPlayerMove' },
          { actions: 'rejectIllegal' },
        ],
      },
    },
    aiThinking: {
      invoke: {
        src: 'aiMove',
        input: ({ context }) => ({
          gameId: context.gameId,
          difficulty: context.difficulty,
          aiColor: context.aiColor,
          moves: context.moves,
          fen: context.fen,
        }),
        onDone: [
          {
            guard: ({ context, event }) => isLegalFor(context, event.output.uci),
            target: 'aiPausing',
            actions: assign({
              pendingAiMove: ({ event }) => ({ uci: event.output.uci, pauseMs: event.output.pauseMs ?? 0 }),
            }),
          },
          {
            target: 'over',
            actions: [
              'setTechnicalDraw',
              {
                type: 'emitEngineError',
                params: ({ event }) => ({ message: `The AI produced an illegal move (${String(event.output.uci)})` }),
              },
            ],
          },
        ],
        onError: {
          target: 'over',
          actions: [
            'setTechnicalDraw',
            {
              type: 'emitEngineError',
              params: ({ event }) => ({
                message: `AI engine failure: ${event.error instanceof Error ? event.error.message : String(event.error)}`,
              }),
            },
          ],
        },
      },
      on: { PLAYER_MOVE: { actions: 'rejectNotYourTurn' } },
    },
    aiPausing: {
      after: { aiReplyPause: { target: 'next', actions: 'playAiMove' } },
      on: { PLAYER_MOVE: { actions: 'rejectNotYourTurn' } },
    },
    over: {
      type: 'final',
      entry: 'emitEnded',
    },
  },
  output: ({ context }) => context.result ?? { winner: 'draw', reason: 'technical_draw' },
});

export type AiGameMachine = typeof aiGameMachine;
