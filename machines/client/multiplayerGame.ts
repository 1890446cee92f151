/**
 * The multiplayer game view (docs/product.md, Screens and The multiplayer game).
 *
 *   idle --START--> playing --END--> over --RESET--> idle
 *
 * Parallel to the game runs a `notice` region for the status line: timed
 * notices clear after 3 s, disconnect notices stay until replaced.
 *
 * Context is plain JSON (FEN, UCI list, clocks in ms); the engine is rebuilt
 * from the FEN when needed. Messages for the server are emitted as `send`,
 * results as `finished`, browser notifications as `notify`.
 */
import { assign, emit, enqueueActions, setup } from 'xstate';
import type {
  ClientMessage, ClocksMs, Color, GameEndMsg, GameMoveMsg, GameRatings, GameStartMsg, PromotionPiece, RatingChangeMsg, TimerUpdateMsg,
} from '../protocol/messages';
import { START_FEN } from '../chess/index';
import { DEFAULT_CLOCK_MS, DEFAULT_FIRST_MOVE_DEADLINE_MS, UNTIMED_PLIES } from '../game/defaults';
import { runningClocks } from '../game/clock';
import { runningSide } from './clock';
import { applyMove, placement, positionOf } from './engine';
import { replayMoves } from './moveHistory';
import { opponentDisplayName, outcomeFor, pickOutcomeMessage, type GameResult, type Outcome } from './outcome';

export const NOTICE_MS = 3000;

export const GAME_TEXT = {
  drawSent: 'Draw offered. Waiting for opponent...',
  drawDeclined: 'Draw offer declined',
  drawReceived: 'Your opponent offered a draw.',
  aborted: 'The game was aborted before both players moved. It does not count.',
  moveNotSent: 'Not connected: your move was not sent. Play it again once reconnected.',
} as const;

/** `aborted`: ended before both sides moved; nothing is scored (as on lichess). */
export interface GameEnd { winner: 'white' | 'black' | 'draw'; reason: string; outcome: Outcome; aborted: boolean; message: string }

/** A rematch after the end: none yet, offered by us, offered to us, or declined by the opponent. */
export type RematchState = 'none' | 'sent' | 'received' | 'declined';

/** The opponent's socket is gone: since when (monotonic ms) and how long the server waits for them. */
export interface OpponentAway { since: number; graceMs: number }

export interface MultiplayerContext {
  gameId: string | null;
  color: Color;
  opponentId: string;
  opponentName: string;
  fen: string;
  moves: string[];
  lastMove: [string, string] | null;
  turn: Color;
  clocks: ClocksMs;
  clockSyncedAt: number;
  clockRunning: Color | null;
  draw: 'none' | 'sent' | 'received';
  notice: string | null;
  end: GameEnd | null;
  /** until both sides have moved: when the side to move must have moved (monotonic ms), else null */
  firstMoveDeadline: number | null;
  opponentAway: OpponentAway | null;
  /** the game that just ended (what a rematch refers to), and where its rematch stands */
  endedGameId: string | null;
  rematch: RematchState;
  /** both players' ratings as the game started (null: both guests, or a server without ratings) */
  ratings: GameRatings | null;
  /** each side's rating change, once the server has scored the game */
  ratingChange: Pick<RatingChangeMsg, 'white' | 'black'> | null;
  /** bumped whenever the board must be redrawn from context (illegal drop, resync) */
  boardVersion: number;
  now: () => number;
  random: () => number;
}

export interface MultiplayerInput { now?: () => number; random?: () => number }

export type MultiplayerEvent =
  | { type: 'START'; msg: GameStartMsg }
  | { type: 'LOCAL_MOVE'; from: string; to: string; promotion?: PromotionPiece; piece?: string }
  | { type: 'SERVER_MOVE'; msg: GameMoveMsg }
  | { type: 'TIMERS'; msg: TimerUpdateMsg }
  | { type: 'DRAW_OFFERED' }
  | { type: 'DRAW_DECLINED' }
  | { type: 'OFFER_DRAW' }
  | { type: 'ACCEPT_DRAW' }
  | { type: 'DECLINE_DRAW' }
  | { type: 'RESIGN' }
  | { type: 'OPPONENT_DISCONNECTED'; message: string }
  | { type: 'OPPONENT_RECONNECTED'; message: string }
  | { type: 'REJECTED'; message: string; fen?: string }
  /** the socket was down when the player's last move was to be sent: take it back */
  | { type: 'MOVE_NOT_SENT' }
  | { type: 'END'; msg: GameEndMsg }
  | { type: 'RATING_CHANGE'; msg: RatingChangeMsg }
  | { type: 'RESET' }
  /** offer a rematch, or accept the opponent's offer */
  | { type: 'OFFER_REMATCH' }
  | { type: 'DECLINE_REMATCH' }
  | { type: 'REMATCH_OFFERED'; gameId: string }
  | { type: 'REMATCH_DECLINED'; gameId: string };

export type MultiplayerEmitted =
  | { type: 'send'; message: ClientMessage }
  | { type: 'finished'; result: GameResult }
  | { type: 'notify'; title: string; body: string; onlyWhenHidden?: boolean };


/** Until both sides have moved (no clock runs yet), each side must move within the first-move deadline. */
function firstMoveDeadline(moves: string[], now: number): number | null {
  return moves.length < UNTIMED_PLIES ? now + DEFAULT_FIRST_MOVE_DEADLINE_MS : null;
}

/** The server's disconnect notice says how many seconds the absent player has ("They have 40 seconds"). */
export function graceFromNotice(message: string): number {
  const m = /(\d+) seconds?/.exec(message);
  return m ? Number(m[1]) * 1000 : 0;
}

/** The position after the plies, from the standard start. */
function fenAfter(moves: string[]): string {
  const plies = replayMoves(moves);
  return plies.length ? plies[plies.length - 1].fen : START_FEN;
}

function fenTurn(fen: string): Color {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

export const multiplayerGameMachine = setup({
  types: {
    context: {} as MultiplayerContext,
    events: {} as MultiplayerEvent,
    input: {} as MultiplayerInput,
    emitted: {} as MultiplayerEmitted,
  },
  delays: { notice: NOTICE_MS },
  actions: {
    logRejectedServerMove: (_, params: { move: string }) => console.warn(`local engine rejected the server move ${params.move}`),
  },
  guards: {
    isMyLegalMove: ({ context, event }) => {
      if (event.type !== 'LOCAL_MOVE' || context.turn !== context.color) return false;
      const game = positionOf(context.fen);
      const piece = game.pieceAt(event.from);
      if (!piece || (piece.color === 'w' ? 'white' : 'black') !== context.color || game.turn() !== context.color) return false;
      return game.isLegal({ from: event.from, to: event.to, promotion: event.promotion });
    },
  },
}).createMachine({
  id: 'multiplayerGame',
  type: 'parallel',
  context: ({ input }) => {
    const now = input.now ?? (() => Date.now());
    return {
      gameId: null, color: 'white', opponentId: '', opponentName: '', fen: START_FEN, moves: [], lastMove: null,
      turn: 'white', clocks: { white: DEFAULT_CLOCK_MS, black: DEFAULT_CLOCK_MS }, clockSyncedAt: now(), clockRunning: null,
      draw: 'none', notice: null, end: null, firstMoveDeadline: null, opponentAway: null, endedGameId: null, rematch: 'none',
      ratings: null, ratingChange: null, boardVersion: 0, now, random: input.random ?? Math.random,
    };
  },
  states: {
    game: {
      initial: 'idle',
      on: {
        START: {
          target: '.playing',
          actions: [
            assign(({ context, event }) => {
              const m = event.msg;
              const st = m.currentState;
              const clockMs = (m.timerDuration > 0 ? m.timerDuration * 1000 : DEFAULT_CLOCK_MS);
              const fen = st?.fen || START_FEN;
              const moves = (st?.moves ?? []).map((mv) => `${mv.from}${mv.to}${mv.promotion ?? ''}`);
              const last = st?.moves?.length ? st.moves[st.moves.length - 1] : null;
              const turn = st?.turn ?? fenTurn(fen);
              const clocks = st?.clocks ?? (st?.timers ? { white: st.timers.white * 1000, black: st.timers.black * 1000 } : { white: clockMs, black: clockMs });
              return {
                gameId: m.gameId, color: m.color, opponentId: m.opponentId,
                opponentName: opponentDisplayName(m.opponentId, m.opponentName),
                fen, moves, lastMove: last ? [last.from, last.to] as [string, string] : null, turn,
                clocks, clockSyncedAt: context.now(), clockRunning: runningSide(moves.length, turn),
                draw: st?.drawOfferFrom && st.drawOfferFrom !== m.color ? 'received' as const : st?.drawOfferFrom ? 'sent' as const : 'none' as const,
                end: null, notice: null, boardVersion: context.boardVersion + 1,
                firstMoveDeadline: firstMoveDeadline(moves, context.now()), opponentAway: null, endedGameId: null, rematch: 'none' as const,
                ratings: m.ratings ?? null, ratingChange: null,
              };
            }),
            emit(({ context }) => ({
              type: 'notify' as const, title: 'Game Started', body: `Your game with ${context.opponentName} has begun.`, onlyWhenHidden: true,
            })),
          ],
        },
        RESET: {
          target: '.idle',
          actions: assign(({ context }) => ({
            gameId: null, endedGameId: null, rematch: 'none' as const, fen: START_FEN, moves: [], lastMove: null, turn: 'white' as Color, draw: 'none' as const,
            end: null, notice: null, clocks: { white: DEFAULT_CLOCK_MS, black: DEFAULT_CLOCK_MS }, clockRunning: null,
            firstMoveDeadline: null, opponentAway: null, ratings: null, ratingChange: null, boardVersion: context.boardVersion + 1,
          })),
        },
        // usually just after the end; on a slow archive write it may come later
        RATING_CHANGE: {
          guard: ({ context, event }) => event.msg.gameId === (context.gameId ?? context.endedGameId),
          actions: assign(({ event }) => ({ ratingChange: { white: event.msg.white, black: event.msg.black } })),
        },
      },
      states: {
        idle: {},
        playing: {
          on: {
            LOCAL_MOVE: [
              {
                guard: 'isMyLegalMove',
                actions: enqueueActions(({ context, event, enqueue }) => {
                  const applied = applyMove(context.fen, event);
                  if (!applied) return;
                  const moves = [...context.moves, applied.uci];
                  const turn = fenTurn(applied.fen);
                  const now = context.now();
                  enqueue.assign({
                    fen: applied.fen, moves, lastMove: [event.from, event.to], turn,
                    clocks: currentClocksAt(context, now), clockSyncedAt: now, clockRunning: runningSide(moves.length, turn),
                    firstMoveDeadline: firstMoveDeadline(moves, now),
                  });
                  const move = event.promotion
                    ? { from: event.from, to: event.to, piece: event.piece ?? 'p', promotion: event.promotion }
                    : { from: event.from, to: event.to, piece: event.piece ?? positionOf(context.fen).pieceAt(event.from)?.type ?? '' };
                  enqueue.emit({ type: 'send', message: { type: 'gameMove', payload: { gameId: context.gameId ?? '', move } } });
                }),
              },
              // dropped locally: the board is reset to the position
              { actions: assign(({ context }) => ({ boardVersion: context.boardVersion + 1 })) },
            ],
            SERVER_MOVE: {
              guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
              actions: enqueueActions(({ context, event, enqueue }) => {
                const msg = event.msg;
                const now = context.now();
                const clocks = msg.clocks ?? currentClocksAt(context, now);
                const uci = `${msg.move.from}${msg.move.to}${msg.move.promotion ?? ''}`;
                // our own move echoed back: only the clocks and turn are news
                const echo = msg.fen
                  ? placement(msg.fen) === placement(context.fen)
                  : context.lastMove?.[0] === msg.move.from && context.lastMove?.[1] === msg.move.to && context.turn !== context.color;
                if (echo) {
                  enqueue.assign({ clocks, clockSyncedAt: now, clockRunning: runningSide(context.moves.length, msg.nextTurn), turn: msg.nextTurn });
                  return;
                }
                const applied = applyMove(context.fen, msg.move);
                if (!applied) {
                  enqueue({ type: 'logRejectedServerMove', params: { move: uci } });
                  const fen = msg.fen ?? context.fen;
                  enqueue.assign({
                    fen, turn: msg.nextTurn, clocks, clockSyncedAt: now,
                    clockRunning: runningSide(context.moves.length, msg.nextTurn), boardVersion: context.boardVersion + 1,
                  });
                  return;
                }
                const moves = [...context.moves, applied.uci];
                enqueue.assign({
                  fen: applied.fen, moves, lastMove: [msg.move.from, msg.move.to], turn: msg.nextTurn,
                  clocks, clockSyncedAt: now, clockRunning: runningSide(moves.length, msg.nextTurn), firstMoveDeadline: firstMoveDeadline(moves, now),
                  draw: context.draw === 'sent' ? 'sent' : 'none',
                });
                if (msg.nextTurn === context.color) {
                  enqueue.emit({ type: 'notify', title: 'Your Move!', body: `${opponentDisplayName(context.opponentId, context.opponentName)} played ${applied.san}.`, onlyWhenHidden: true });
                }
              }),
            },
            TIMERS: {
              guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
              actions: assign(({ context, event }) => ({
                clocks: event.msg.clocks ?? { white: event.msg.timers.white * 1000, black: event.msg.timers.black * 1000 },
                clockSyncedAt: context.now(),
              })),
            },
            OFFER_DRAW: {
              guard: ({ context }) => context.draw === 'none',
              actions: [
                assign({ draw: 'sent' as const }),
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'offerDraw' as const, payload: { gameId: context.gameId ?? '' } } })),
              ],
            },
            DRAW_OFFERED: {
              actions: [
                assign({ draw: 'received' as const }),
                emit({ type: 'notify', title: 'Draw Offered', body: 'Your opponent offered a draw.', onlyWhenHidden: true }),
              ],
            },
            ACCEPT_DRAW: {
              guard: ({ context }) => context.draw === 'received',
              actions: [
                assign({ draw: 'none' as const }),
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'acceptDraw' as const, payload: { gameId: context.gameId ?? '' } } })),
              ],
            },
            DECLINE_DRAW: {
              guard: ({ context }) => context.draw === 'received',
              actions: [
                assign({ draw: 'none' as const }),
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'declineDraw' as const, payload: { gameId: context.gameId ?? '' } } })),
              ],
            },
            DRAW_DECLINED: { actions: assign({ draw: 'none' as const }) },
            RESIGN: {
              actions: emit(({ context }) => ({ type: 'send' as const, message: { type: 'resign' as const, payload: { gameId: context.gameId ?? '' } } })),
            },
            MOVE_NOT_SENT: {
              guard: ({ context }) => context.moves.length > 0 && context.turn !== context.color,
              actions: assign(({ context }) => {
                const moves = context.moves.slice(0, -1);
                const fen = fenAfter(moves);
                const plies = replayMoves(moves);
                const last = plies[plies.length - 1];
                return {
                  moves, fen, turn: fenTurn(fen), lastMove: last ? [last.from, last.to] as [string, string] : null,
                  clockRunning: runningSide(moves.length, fenTurn(fen)), boardVersion: context.boardVersion + 1,
                };
              }),
            },
            OPPONENT_DISCONNECTED: {
              actions: assign(({ context, event }) => ({ opponentAway: { since: context.now(), graceMs: graceFromNotice(event.message) } })),
            },
            OPPONENT_RECONNECTED: { actions: assign({ opponentAway: null }) },
            REJECTED: {
              actions: assign(({ context, event }) => ({
                fen: event.fen ?? context.fen,
                turn: event.fen ? fenTurn(event.fen) : context.turn,
                boardVersion: context.boardVersion + 1,
              })),
            },
            END: {
              guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
              target: 'over',
              actions: enqueueActions(({ context, event, enqueue }) => {
                const { winner, reason } = event.msg;
                const outcome = outcomeFor(winner, context.color);
                const aborted = reason === 'aborted';
                const end: GameEnd = { winner, reason, outcome, aborted, message: aborted ? GAME_TEXT.aborted : pickOutcomeMessage(outcome, context.random) };
                const result: GameResult = {
                  id: context.gameId ?? event.msg.gameId, date: new Date().toISOString(), playerColor: context.color,
                  result: outcome, reason, opponentId: context.opponentId,
                };
                const now = context.now();
                enqueue.assign({
                  end, gameId: null, endedGameId: context.gameId ?? event.msg.gameId, rematch: 'none',
                  draw: 'none', clocks: currentClocksAt(context, now), clockSyncedAt: now, clockRunning: null,
                  firstMoveDeadline: null, opponentAway: null,
                });
                // an aborted game is not scored: it stays out of the history and the W/L/D counts
                if (aborted) return;
                enqueue.emit({ type: 'finished', result });
                // As the original client: the colour used to choose Victory/Defeat in notifications is always white.
                const notifyColor: Color = 'white';
                if (winner === 'draw') enqueue.emit({ type: 'notify', title: 'Game Drawn', body: `Game ended by ${reason}` });
                else enqueue.emit({ type: 'notify', title: winner === notifyColor ? 'Victory!' : 'Defeat', body: `Game ended by ${reason}` });
              }),
            },
          },
        },
        over: {
          on: {
            OFFER_REMATCH: {
              guard: ({ context }) => context.endedGameId !== null && (context.rematch === 'none' || context.rematch === 'received'),
              actions: [
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'offerRematch' as const, payload: { gameId: context.endedGameId ?? '' } } })),
                assign({ rematch: 'sent' as const }),
              ],
            },
            DECLINE_REMATCH: {
              guard: ({ context }) => context.rematch === 'received',
              actions: [
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'declineRematch' as const, payload: { gameId: context.endedGameId ?? '' } } })),
                assign({ rematch: 'none' as const }),
              ],
            },
            REMATCH_OFFERED: {
              guard: ({ context, event }) => event.gameId === context.endedGameId && context.rematch !== 'sent',
              actions: assign({ rematch: 'received' as const }),
            },
            REMATCH_DECLINED: {
              guard: ({ context, event }) => event.gameId === context.endedGameId && context.rematch === 'sent',
              actions: assign({ rematch: 'declined' as const }),
            },
          },
        },
      },
    },
    notice: {
      initial: 'none',
      on: {
        OFFER_DRAW: { guard: ({ context }) => context.draw === 'none' && context.gameId !== null && context.end === null, target: '.sticky', actions: assign({ notice: GAME_TEXT.drawSent }) },
        DRAW_DECLINED: { target: '.timed', actions: assign({ notice: GAME_TEXT.drawDeclined }) },
        ACCEPT_DRAW: { target: '.none', actions: assign({ notice: null }) },
        OPPONENT_DISCONNECTED: { target: '.sticky', actions: assign(({ event }) => ({ notice: event.message })) },
        OPPONENT_RECONNECTED: { target: '.timed', actions: assign(({ event }) => ({ notice: event.message })) },
        REJECTED: { target: '.timed', actions: assign(({ event }) => ({ notice: `Invalid move: ${event.message}` })) },
        MOVE_NOT_SENT: { target: '.timed', actions: assign({ notice: GAME_TEXT.moveNotSent }) },
        START: { target: '.none', actions: assign({ notice: null }) },
        RESET: { target: '.none', actions: assign({ notice: null }) },
      },
      states: {
        none: {},
        sticky: {},
        timed: { after: { notice: { target: 'none', actions: assign({ notice: null }) } } },
      },
    },
  },
});

/** The clocks last received, the running one counted down since: the game core's clock formula. */
function currentClocksAt(ctx: Pick<MultiplayerContext, 'clocks' | 'clockRunning' | 'clockSyncedAt'>, now: number): ClocksMs {
  return runningClocks(ctx.clocks, ctx.clockRunning, ctx.clockSyncedAt, now);
}
