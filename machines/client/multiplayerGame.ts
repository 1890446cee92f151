/**
 * The multiplayer game view (docs/product.md, Screens and The multiplayer game).
 *
 *   idle --START--> playing --END--> over --RESET--> idle
 *
 * Parallel to the game runs a `notice` region for the status line: timed
 * notices clear after 3 s, disconnect notices stay until replaced.
 *
 * The game itself is the game core's state (`game`), kept by the core's own
 * step with the player's moves and the moves the server announces
 * (gameMirror.ts); the board, the turn, the clocks and the first-move deadline
 * in context are what the screen shows of it (`viewOf`). Context is plain JSON.
 * Messages for the server are emitted as `send`, results as `finished`,
 * browser notifications as `notify`.
 */
import { assign, emit, enqueueActions, setup } from 'xstate';
import type {
  ClientMessage, Color, GameEndMsg, GameMoveMsg, GameRatings, GameStartMsg, PromotionPiece, RatingChangeMsg, TimerUpdateMsg,
} from '../protocol/messages';
import { clocksAt } from '../game/clock';
import { opposite } from '../game/display';
import type { GameState, WireMove } from '../game/types';
import { readingClocks } from './clock';
import { placement, positionOf } from './engine';
import {
  atServerPosition, copyOfServerGame, endedByServer, playMove, viewOf, withServerClocks, withoutLastMove, type GameView,
} from './gameMirror';
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

/** The view fields (GameView) are what the screen shows of `game`, rewritten with it. */
export interface MultiplayerContext extends GameView {
  gameId: string | null;
  color: Color;
  opponentId: string;
  opponentName: string;
  /** the game core's state of the game on the board (null: none yet) */
  game: GameState | null;
  draw: 'none' | 'sent' | 'received';
  notice: string | null;
  end: GameEnd | null;
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

/** The game core's state and, with it, what the screen shows of it. */
function showing(game: GameState | null): Pick<MultiplayerContext, 'game' | keyof GameView> {
  return { game, ...viewOf(game) };
}

/** The server's disconnect notice says how many seconds the absent player has ("They have 40 seconds"). */
export function graceFromNotice(message: string): number {
  const m = /(\d+) seconds?/.exec(message);
  return m ? Number(m[1]) * 1000 : 0;
}

function fenTurn(fen: string): Color {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

/** The move as the core takes it (a promotion only when there is one). */
function wireMove(m: { from: string; to: string; promotion?: WireMove['promotion'] }): WireMove {
  return m.promotion ? { from: m.from, to: m.to, promotion: m.promotion } : { from: m.from, to: m.to };
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
}).createMachine({
  id: 'multiplayerGame',
  type: 'parallel',
  context: ({ input }) => {
    const now = input.now ?? (() => Date.now());
    return {
      gameId: null, color: 'white', opponentId: '', opponentName: '', ...showing(null), clockSyncedAt: now(),
      draw: 'none', notice: null, end: null, opponentAway: null, endedGameId: null, rematch: 'none',
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
              const game = copyOfServerGame({
                gameId: m.gameId,
                clockMs: m.timerDuration * 1000,
                moves: st?.moves ?? [],
                fen: st?.fen || undefined,
                clocks: st ? readingClocks(st) : undefined,
              }, context.now());
              return {
                gameId: m.gameId, color: m.color, opponentId: m.opponentId,
                opponentName: opponentDisplayName(m.opponentId, m.opponentName),
                ...showing(game),
                draw: st?.drawOfferFrom && st.drawOfferFrom !== m.color ? 'received' as const : st?.drawOfferFrom ? 'sent' as const : 'none' as const,
                end: null, notice: null, boardVersion: context.boardVersion + 1,
                opponentAway: null, endedGameId: null, rematch: 'none' as const,
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
            gameId: null, endedGameId: null, rematch: 'none' as const, ...showing(null), clockSyncedAt: context.clockSyncedAt, draw: 'none' as const,
            end: null, notice: null, opponentAway: null, ratings: null, ratingChange: null, boardVersion: context.boardVersion + 1,
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
            LOCAL_MOVE: {
              actions: enqueueActions(({ context, event, enqueue }) => {
                const played = context.game ? playMove(context.game, context.color, wireMove(event), context.now()) : null;
                // refused by the core (not our turn, not legal): the board is reset to the position
                if (!played) {
                  enqueue.assign({ boardVersion: context.boardVersion + 1 });
                  return;
                }
                enqueue.assign(showing(played.game));
                const move = event.promotion
                  ? { from: event.from, to: event.to, piece: event.piece ?? 'p', promotion: event.promotion }
                  : { from: event.from, to: event.to, piece: event.piece ?? positionOf(context.fen).pieceAt(event.from)?.type ?? '' };
                enqueue.emit({ type: 'send', message: { type: 'gameMove', payload: { gameId: context.gameId ?? '', move } } });
              }),
            },
            SERVER_MOVE: {
              guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
              actions: enqueueActions(({ context, event, enqueue }) => {
                const msg = event.msg;
                const game = context.game;
                if (!game) return;
                const now = context.now();
                // our own move echoed back: only the clocks are news
                const echo = msg.fen
                  ? placement(msg.fen) === placement(context.fen)
                  : context.lastMove?.[0] === msg.move.from && context.lastMove?.[1] === msg.move.to && context.turn !== context.color;
                if (echo) {
                  enqueue.assign(showing(withServerClocks(game, msg.clocks ?? clocksAt(game, now), now)));
                  return;
                }
                const played = playMove(game, opposite(context.color), wireMove(msg.move), now);
                if (!played) {
                  enqueue({ type: 'logRejectedServerMove', params: { move: `${msg.move.from}${msg.move.to}${msg.move.promotion ?? ''}` } });
                  const resynced = atServerPosition(game, msg.nextTurn, msg.fen);
                  enqueue.assign({ ...showing(withServerClocks(resynced, msg.clocks ?? clocksAt(game, now), now)), boardVersion: context.boardVersion + 1 });
                  return;
                }
                enqueue.assign({
                  ...showing(msg.clocks ? withServerClocks(played.game, msg.clocks, now) : played.game),
                  draw: context.draw === 'sent' ? 'sent' : 'none',
                });
                if (played.game.turn === context.color) {
                  enqueue.emit({ type: 'notify', title: 'Your Move!', body: `${opponentDisplayName(context.opponentId, context.opponentName)} played ${played.san}.`, onlyWhenHidden: true });
                }
              }),
            },
            TIMERS: {
              guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
              actions: assign(({ context, event }) => {
                const clocks = readingClocks(event.msg);
                return context.game ? showing(withServerClocks(context.game, clocks, context.now())) : {};
              }),
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
              guard: ({ context }) => context.game !== null && context.moves.length > 0 && context.turn !== context.color,
              actions: assign(({ context }) => ({
                ...showing(context.game && withoutLastMove(context.game)),
                boardVersion: context.boardVersion + 1,
              })),
            },
            OPPONENT_DISCONNECTED: {
              actions: assign(({ context, event }) => ({ opponentAway: { since: context.now(), graceMs: graceFromNotice(event.message) } })),
            },
            OPPONENT_RECONNECTED: { actions: assign({ opponentAway: null }) },
            REJECTED: {
              actions: assign(({ context, event }) => ({
                ...(context.game && event.fen ? showing(atServerPosition(context.game, fenTurn(event.fen), event.fen)) : {}),
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
                  draw: 'none', opponentAway: null,
                  ...showing(context.game && endedByServer(context.game, { winner, reason }, now)),
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

