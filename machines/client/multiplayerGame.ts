/**
 * The multiplayer game view (docs/product.md, Screens and The multiplayer game).
 *
 *   idle --START--> playing --END--> over --RESET--> idle
 *
 * Parallel to the game runs a `notice` region for the status line: short
 * notices (a declined offer, a refused move, the opponent back) clear after 3 s.
 *
 * The game itself is the game core's state (`game`), kept by the core's own
 * step with the player's moves, draw offers and answers, and what the server
 * announces: moves, offers, the opponent leaving (with the grace the server
 * gives them) and coming back, the end (gameMirror.ts). The board, the turn,
 * the clocks, the first-move deadline, the draw offer, the opponent's absence
 * and the end in context are what the screen shows of it (`viewOf`), never a
 * second record of them. Context is plain JSON.
 * Messages for the server are emitted as `send`, results as `finished`,
 * browser notifications as `notify`.
 */
import { assign, emit, enqueueActions, setup } from 'xstate';
import type {
  ClientMessage, Color, GameEndMsg, GameMoveMsg, GameRatings, GameStartMsg, PromotionPiece, RatingChangeMsg, ServerMessageOf, TakebackMsg, TimerUpdateMsg,
} from '../protocol/messages';
import { clocksAt } from '../game/clock';
import { opposite } from '../game/display';
import type { GameResult as CoreResult, GameState, WireMove } from '../game/types';
import { readingClocks } from './clock';
import { placement, positionOf } from './engine';
import {
  atServerPosition, copyOfServerGame, drawOfferedBy, endedByServer, playMove, sideCommand, sideLeft, takenBack, viewOf, withServerClocks,
  withoutLastMove, type Absence, type GameView,
} from './gameMirror';
import { opponentDisplayName, outcomeFor, pickOutcomeMessage, type GameResult, type Outcome } from './outcome';

export const NOTICE_MS = 3000;

export const GAME_TEXT = {
  drawSent: 'Draw offered. Waiting for opponent...',
  drawDeclined: 'Draw offer declined',
  drawReceived: 'Your opponent offered a draw.',
  opponentBack: 'Your opponent reconnected.',
  aborted: 'The game was aborted before both players moved. It does not count.',
  moveNotSent: 'Not connected: your move was not sent. Play it again once reconnected.',
  takebackSent: 'Takeback proposed. Waiting for opponent...',
  takebackReceived: 'Your opponent proposes to take back their last move.',
  takebackDeclined: 'Takeback declined',
  takenBack: 'Move taken back',
  timeGiven: (seconds: number) => `You gave your opponent ${seconds} seconds.`,
  timeReceived: (seconds: number) => `Your opponent gave you ${seconds} seconds.`,
} as const;

/** The opponent is away: what the notice says, by how the core counts their grace (Absence). */
export const AWAY_TEXT = {
  /** their grace runs down: the seconds left */
  counting: (seconds: number) => `Your opponent disconnected. They have ${seconds} s to come back before you win.`,
  /** their grace waits for their turn */
  waiting: (seconds: number) => `Your opponent disconnected. Their ${seconds} s to come back start when it is their turn.`,
  /** no clock runs yet: the first-move deadline decides instead */
  beforeClocks: 'Your opponent disconnected. If they miss their first move, the game is aborted.',
} as const;

/** `aborted`: ended before both sides moved; nothing is scored (as on lichess). */
export interface GameEnd { winner: 'white' | 'black' | 'draw'; reason: string; outcome: Outcome; aborted: boolean; message: string }

/** A rematch after the end: none yet, offered by us, offered to us, or declined by the opponent. */
export type RematchState = 'none' | 'sent' | 'received' | 'declined';

/** What the screen shows of the game for this player: the view, and the draw offer and the opponent's absence as seen from its side. */
export interface PlayerView extends GameView {
  draw: 'none' | 'sent' | 'received';
  /** why the core would refuse a draw offer from this player now (null: it may offer one) */
  drawOfferRefusal: string | null;
  /** the pending takeback proposal, from this player's side */
  takeback: 'none' | 'sent' | 'received';
  /** whether the game allows takebacks at all, and why the core would refuse a proposal now (null: it may propose) */
  takebacksAllowed: boolean;
  takebackRefusal: string | null;
  opponentAway: Absence | null;
}

/** The view fields (PlayerView) are what the screen shows of `game`, rewritten with it. */
export interface MultiplayerContext extends PlayerView {
  gameId: string | null;
  color: Color;
  opponentId: string;
  opponentName: string;
  /** the game core's state of the game on the board (null: none yet) */
  game: GameState | null;
  notice: string | null;
  /** how the game ended, from the core's result once the server ended it */
  end: GameEnd | null;
  /** the game that just ended (what a rematch refers to), and where its rematch stands */
  endedGameId: string | null;
  rematch: RematchState;
  /** both players' ratings as the game started (null: both guests, or a server without ratings) */
  ratings: GameRatings | null;
  /** each side's rating change in the game's speed, once the server has scored the game */
  ratingChange: Pick<RatingChangeMsg, 'speed' | 'white' | 'black'> | null;
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
  /** the server's `opponentDisconnected`: the grace the opponent has (ms; an older server sends none) */
  | { type: 'OPPONENT_DISCONNECTED'; graceMs?: number }
  | { type: 'OPPONENT_RECONNECTED' }
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
  | { type: 'REMATCH_DECLINED'; gameId: string }
  /** internal: the core refused our draw offer (the button is disabled then; a click that raced it lands here) or our gift of time */
  | { type: 'COMMAND_REFUSED'; reason: string }
  | { type: 'PROPOSE_TAKEBACK' }
  | { type: 'ACCEPT_TAKEBACK' }
  | { type: 'DECLINE_TAKEBACK' }
  /** the server's `takebackOffer`, `takebackDeclined` and `takeback` */
  | { type: 'TAKEBACK_OFFERED' }
  | { type: 'TAKEBACK_DECLINED' }
  | { type: 'TAKEN_BACK'; msg: TakebackMsg }
  /** give the opponent time (the core's rule first), and the server's `timeGiven` (ours or theirs) */
  | { type: 'GIVE_TIME' }
  | { type: 'TIME_GIVEN'; msg: ServerMessageOf<'timeGiven'> };

export type MultiplayerEmitted =
  | { type: 'send'; message: ClientMessage }
  | { type: 'finished'; result: GameResult }
  | { type: 'notify'; title: string; body: string; onlyWhenHidden?: boolean };

/** What `color`'s player sees of `game` at `now`. */
export function playerView(game: GameState | null, color: Color, now: number): PlayerView {
  const view = viewOf(game);
  const them = opposite(color);
  const takeback = game === null || game.result !== null ? null : game.takebackOffer;
  return {
    ...view,
    draw: view.drawOffer === null ? 'none' : view.drawOffer === color ? 'sent' : 'received',
    drawOfferRefusal: game === null ? null : sideCommand(game, color, 'OFFER_DRAW', now).refused,
    takeback: takeback === null ? 'none' : takeback === color ? 'sent' : 'received',
    takebacksAllowed: game?.settings.takebacks ?? false,
    takebackRefusal: game === null ? null : sideCommand(game, color, 'PROPOSE_TAKEBACK', now).refused,
    opponentAway: view.away[them],
  };
}

/** The game core's state and, with it, what the screen shows of it. */
function showing(context: Pick<MultiplayerContext, 'color' | 'now'>, game: GameState | null): Pick<MultiplayerContext, 'game' | keyof PlayerView> {
  return { game, ...playerView(game, context.color, context.now()) };
}

/** How a game ended, for this player, from the core's result. */
function endOf(result: CoreResult, color: Color, random: () => number): GameEnd {
  const outcome = outcomeFor(result.winner, color);
  const aborted = result.reason === 'aborted';
  return { winner: result.winner, reason: result.reason, outcome, aborted, message: aborted ? GAME_TEXT.aborted : pickOutcomeMessage(outcome, random) };
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
    /** our command through the core first: refused, the reason is shown and nothing is sent; else the copy takes it and the server is told */
    throughTheCore: enqueueActions(({ context, enqueue }, params: { command: 'OFFER_DRAW' | 'GIVE_TIME'; message: 'offerDraw' | 'giveTime' }) => {
      if (!context.game) return;
      const done = sideCommand(context.game, context.color, params.command, context.now());
      if (done.refused !== null) {
        enqueue.raise({ type: 'COMMAND_REFUSED', reason: done.refused });
        return;
      }
      enqueue.assign(showing(context, done.game));
      enqueue.emit({ type: 'send', message: { type: params.message, payload: { gameId: context.gameId ?? '' } } });
    }),
  },
}).createMachine({
  id: 'multiplayerGame',
  type: 'parallel',
  context: ({ input }) => {
    const now = input.now ?? (() => Date.now());
    return {
      gameId: null, color: 'white', opponentId: '', opponentName: '', ...showing({ color: 'white', now }, null), clockSyncedAt: now(),
      notice: null, end: null, endedGameId: null, rematch: 'none',
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
              const copy = copyOfServerGame({
                gameId: m.gameId,
                clockMs: m.timerDuration * 1000,
                incrementMs: (m.timeControl?.increment ?? 0) * 1000,
                moves: st?.moves ?? [],
                fen: st?.fen || undefined,
                clocks: st ? readingClocks(st) : undefined,
                takebacks: m.takebacks ?? false,
              }, context.now());
              const offered = { ...copy, drawOffer: st?.drawOfferFrom ?? null, takebackOffer: st?.takebackFrom ?? null };
              // an opponent away as we (re)join: the grace the server says they have left
              const awayMs = st?.awayGraceMs?.[opposite(m.color)];
              const game = awayMs === undefined ? offered : sideLeft(offered, opposite(m.color), awayMs, context.now());
              return {
                gameId: m.gameId, color: m.color, opponentId: m.opponentId,
                opponentName: opponentDisplayName(m.opponentId, m.opponentName, m.opponentGuest ?? false),
                ...showing({ color: m.color, now: context.now }, game),
                end: null, notice: null, boardVersion: context.boardVersion + 1,
                endedGameId: null, rematch: 'none' as const,
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
            gameId: null, endedGameId: null, rematch: 'none' as const, ...showing(context, null), clockSyncedAt: context.clockSyncedAt,
            end: null, notice: null, ratings: null, ratingChange: null, boardVersion: context.boardVersion + 1,
          })),
        },
        // usually just after the end; on a slow archive write it may come later
        RATING_CHANGE: {
          guard: ({ context, event }) => event.msg.gameId === (context.gameId ?? context.endedGameId),
          actions: assign(({ event }) => ({ ratingChange: { speed: event.msg.speed, white: event.msg.white, black: event.msg.black } })),
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
                enqueue.assign(showing(context, played.game));
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
                  enqueue.assign(showing(context, withServerClocks(game, msg.clocks ?? clocksAt(game, now), now)));
                  return;
                }
                const played = playMove(game, opposite(context.color), wireMove(msg.move), now);
                if (!played) {
                  enqueue({ type: 'logRejectedServerMove', params: { move: `${msg.move.from}${msg.move.to}${msg.move.promotion ?? ''}` } });
                  const resynced = atServerPosition(game, msg.nextTurn, msg.fen);
                  enqueue.assign({ ...showing(context, withServerClocks(resynced, msg.clocks ?? clocksAt(game, now), now)), boardVersion: context.boardVersion + 1 });
                  return;
                }
                // the core lapses a draw offer its receiver moved past
                enqueue.assign(showing(context, msg.clocks ? withServerClocks(played.game, msg.clocks, now) : played.game));
                if (played.game.turn === context.color) {
                  enqueue.emit({ type: 'notify', title: 'Your Move!', body: `${opponentDisplayName(context.opponentId, context.opponentName)} played ${played.san}.`, onlyWhenHidden: true });
                }
              }),
            },
            TIMERS: {
              guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
              actions: assign(({ context, event }) => {
                const clocks = readingClocks(event.msg);
                return context.game ? showing(context, withServerClocks(context.game, clocks, context.now())) : {};
              }),
            },
            // our offer and our answers go through the core first: it says whether they may be made
            OFFER_DRAW: { actions: { type: 'throughTheCore', params: { command: 'OFFER_DRAW', message: 'offerDraw' } } },
            DRAW_OFFERED: {
              actions: [
                assign(({ context }) => (context.game ? showing(context, drawOfferedBy(context.game, opposite(context.color), context.now())) : {})),
                emit({ type: 'notify', title: 'Draw Offered', body: GAME_TEXT.drawReceived, onlyWhenHidden: true }),
              ],
            },
            ACCEPT_DRAW: {
              guard: ({ context }) => context.draw === 'received',
              actions: [
                assign(({ context }) => (context.game ? showing(context, sideCommand(context.game, context.color, 'ACCEPT_DRAW', context.now()).game) : {})),
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'acceptDraw' as const, payload: { gameId: context.gameId ?? '' } } })),
              ],
            },
            DECLINE_DRAW: {
              guard: ({ context }) => context.draw === 'received',
              actions: [
                assign(({ context }) => (context.game ? showing(context, sideCommand(context.game, context.color, 'DECLINE_DRAW', context.now()).game) : {})),
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'declineDraw' as const, payload: { gameId: context.gameId ?? '' } } })),
              ],
            },
            // the opponent's answer to our offer (or, after it lapsed, its echo: the core ignores that)
            DRAW_DECLINED: {
              actions: assign(({ context }) => (context.game ? showing(context, sideCommand(context.game, opposite(context.color), 'DECLINE_DRAW', context.now()).game) : {})),
            },
            RESIGN: {
              actions: emit(({ context }) => ({ type: 'send' as const, message: { type: 'resign' as const, payload: { gameId: context.gameId ?? '' } } })),
            },
            // takebacks as draw offers: our proposal goes through the core first; the undoing is the server's `takeback`
            PROPOSE_TAKEBACK: {
              guard: ({ context }) => context.takebackRefusal === null,
              actions: [
                assign(({ context }) => (context.game ? showing(context, sideCommand(context.game, context.color, 'PROPOSE_TAKEBACK', context.now()).game) : {})),
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'proposeTakeback' as const, payload: { gameId: context.gameId ?? '' } } })),
              ],
            },
            TAKEBACK_OFFERED: {
              actions: [
                assign(({ context }) => (context.game ? showing(context, { ...context.game, takebackOffer: opposite(context.color) }) : {})),
                emit({ type: 'notify', title: 'Takeback proposed', body: GAME_TEXT.takebackReceived, onlyWhenHidden: true }),
              ],
            },
            ACCEPT_TAKEBACK: {
              guard: ({ context }) => context.takeback === 'received',
              actions: emit(({ context }) => ({ type: 'send' as const, message: { type: 'acceptTakeback' as const, payload: { gameId: context.gameId ?? '' } } })),
            },
            DECLINE_TAKEBACK: {
              guard: ({ context }) => context.takeback !== 'none',
              actions: [
                assign(({ context }) => (context.game ? showing(context, { ...context.game, takebackOffer: null }) : {})),
                emit(({ context }) => ({ type: 'send' as const, message: { type: 'declineTakeback' as const, payload: { gameId: context.gameId ?? '' } } })),
              ],
            },
            TAKEBACK_DECLINED: {
              actions: assign(({ context }) => (context.game ? showing(context, { ...context.game, takebackOffer: null }) : {})),
            },
            TAKEN_BACK: {
              guard: ({ context, event }) => event.msg.gameId === context.gameId,
              actions: assign(({ context, event }) => ({
                ...(context.game ? showing(context, takenBack(context.game, event.msg, context.now())) : {}),
                boardVersion: context.boardVersion + 1,
              })),
            },
            // as a draw offer: through the core first (it may refuse); the server's clocks then re-anchor ours
            GIVE_TIME: { actions: { type: 'throughTheCore', params: { command: 'GIVE_TIME', message: 'giveTime' } } },
            TIME_GIVEN: {
              guard: ({ context, event }) => event.msg.gameId === context.gameId,
              actions: assign(({ context, event }) => (context.game ? showing(context, withServerClocks(context.game, event.msg.clocks, context.now())) : {})),
            },
            MOVE_NOT_SENT: {
              guard: ({ context }) => context.game !== null && context.moves.length > 0 && context.turn !== context.color,
              actions: assign(({ context }) => ({
                ...showing(context, context.game && withoutLastMove(context.game)),
                boardVersion: context.boardVersion + 1,
              })),
            },
            // presence is the core's: the grace the server gives counts down only when the core's rule says so
            OPPONENT_DISCONNECTED: {
              actions: assign(({ context, event }) => (context.game ? showing(context, sideLeft(context.game, opposite(context.color), event.graceMs, context.now())) : {})),
            },
            OPPONENT_RECONNECTED: {
              actions: assign(({ context }) => (context.game ? showing(context, sideCommand(context.game, opposite(context.color), 'PLAYER_RECONNECTED', context.now()).game) : {})),
            },
            REJECTED: {
              actions: assign(({ context, event }) => ({
                ...(context.game && event.fen ? showing(context, atServerPosition(context.game, fenTurn(event.fen), event.fen)) : {}),
                boardVersion: context.boardVersion + 1,
              })),
            },
            END: {
              guard: ({ context, event }) => !event.msg.gameId || event.msg.gameId === context.gameId,
              target: 'over',
              actions: enqueueActions(({ context, event, enqueue }) => {
                const { winner, reason } = event.msg;
                // the server's result is the core's result: the end shown is read from it
                const ended = context.game && endedByServer(context.game, { winner, reason }, context.now());
                const end = endOf(ended?.result ?? { winner, reason }, context.color, context.random);
                const result: GameResult = {
                  id: context.gameId ?? event.msg.gameId, date: new Date().toISOString(), playerColor: context.color,
                  result: end.outcome, reason, opponentId: context.opponentId,
                };
                enqueue.assign({
                  end, gameId: null, endedGameId: context.gameId ?? event.msg.gameId, rematch: 'none',
                  ...showing(context, ended),
                });
                // an aborted game is not scored: it stays out of the history and the W/L/D counts
                if (end.aborted) return;
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
        DRAW_DECLINED: { target: '.timed', actions: assign({ notice: GAME_TEXT.drawDeclined }) },
        COMMAND_REFUSED: { target: '.timed', actions: assign(({ event }) => ({ notice: event.reason })) },
        TAKEBACK_DECLINED: { target: '.timed', actions: assign({ notice: GAME_TEXT.takebackDeclined }) },
        TAKEN_BACK: { target: '.timed', actions: assign({ notice: GAME_TEXT.takenBack }) },
        TIME_GIVEN: {
          guard: ({ context, event }) => event.msg.gameId === context.gameId,
          target: '.timed',
          actions: assign(({ context, event }) => {
            const seconds = Math.round(event.msg.ms / 1000);
            return { notice: event.msg.color === context.color ? GAME_TEXT.timeReceived(seconds) : GAME_TEXT.timeGiven(seconds) };
          }),
        },
        OPPONENT_RECONNECTED: { target: '.timed', actions: assign({ notice: GAME_TEXT.opponentBack }) },
        REJECTED: { target: '.timed', actions: assign(({ event }) => ({ notice: `Invalid move: ${event.message}` })) },
        MOVE_NOT_SENT: { target: '.timed', actions: assign({ notice: GAME_TEXT.moveNotSent }) },
        START: { target: '.none', actions: assign({ notice: null }) },
        RESET: { target: '.none', actions: assign({ notice: null }) },
      },
      states: {
        none: {},
        timed: { after: { notice: { target: 'none', actions: assign({ notice: null }) } } },
      },
    },
  },
});

