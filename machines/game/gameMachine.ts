/**
 * One multiplayer game as a pure XState v5 machine (machines/game/README.md).
 *
 * States
 *   firstMove -> secondMove -> running (re-entered on every move and clock wake-up) -> over
 *   `over` is final; output { winner, reason }.
 * The machine is deliberately flat (no parallel regions, no transient states): the server runs
 * thousands of these actors and every state node costs time on every event.
 *
 * Time: the machine reads time only through the injected now() (monotonic ms) and waits only
 * through XState `after` with delays computed from the context, so a SimulatedClock or fake
 * timers drive it in tests. now() is not kept in the context (functions do not serialise); it
 * is kept beside the actor, keyed by the actor reference.
 *
 * Decisions that set `context.result` are taken in actions (they may depend on the time);
 * every live state then leaves for `over` on an eventless transition guarded by "result is set".
 * See README.md in this folder for the rules.
 */
import { assign, emit, enqueueActions, setup } from 'xstate';
import { START_FEN } from '../chess';
import { chessGameFor, moveCachedGame } from './chessCache';
import { clockRunning, clocksAt, creditLag, elapsedThisTurn, moverFlagged, nextClockWakeMs, wakeAt } from './clock';
import { graceLeftMs, syncGrace } from './presence';
import { CLOCK_TICK_MS, UNTIMED_PLIES } from './defaults';
import { opposite } from './display';
import { REJECTION } from './reasons';
import { resolveSettings } from './settings';
import type { Color, GameContext, GameEmitted, GameEvent, GameInput, GameOutput, GameResult, WireMove } from './types';

// ---------------------------------------------------------------------------------------------
// Time source beside the actor

const nowByActor = new WeakMap<object, () => number>();

/** performance.now where it exists (browsers, Node), else Date.now. */
export function defaultNow(): number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf ? perf.now() : Date.now();
}

export function nowOf(self: object): number {
  return (nowByActor.get(self) ?? defaultNow)();
}

// ---------------------------------------------------------------------------------------------
// Pure helpers over the context

function colorOf(ctx: GameContext, playerId: string): Color | null {
  if (playerId === ctx.white.id) return 'white';
  if (playerId === ctx.black.id) return 'black';
  return null;
}

const PROMOTIONS = new Set(['q', 'r', 'b', 'n']);

/** A square's name, a1 to h8 (read by character codes: this runs on every move). */
function isSquare(s: unknown): s is string {
  if (typeof s !== 'string' || s.length !== 2) return false;
  const file = s.charCodeAt(0);
  const rank = s.charCodeAt(1);
  return file >= 97 && file <= 104 && rank >= 49 && rank <= 56;
}

function wellFormed(move: unknown): move is WireMove {
  if (!move || typeof move !== 'object') return false;
  const m = move as Record<string, unknown>;
  return (
    isSquare(m.from) &&
    isSquare(m.to) &&
    (m.promotion === undefined || (typeof m.promotion === 'string' && PROMOTIONS.has(m.promotion)))
  );
}

/** One object shape whether or not the move promotes (keeps the chess core's hot path monomorphic). */
function moveInput(move: WireMove): { from: string; to: string; promotion: WireMove['promotion'] } {
  return { from: move.from, to: move.to, promotion: move.promotion };
}

function game(ctx: GameContext) {
  return chessGameFor(ctx.settings, ctx.startFen, ctx.moves);
}

/** `loser` lost (on time or by leaving): the other side wins if it could still mate, else a draw. */
function lossUnlessNoMatingMaterial(ctx: GameContext, loser: Color, reason: 'timeout' | 'disconnection'): GameResult {
  const other = opposite(loser);
  return game(ctx).hasMatingMaterial(other) ? { winner: other, reason } : { winner: 'draw', reason };
}

function pgnResult(result: GameResult): string {
  if (result.winner === 'draw') return '1/2-1/2';
  return result.winner === 'white' ? '1-0' : '0-1';
}

/** PGN Termination tag values as lichess writes them. */
function pgnTermination(result: GameResult): string {
  if (result.reason === 'timeout') return 'Time forfeit';
  if (result.reason === 'disconnection') return 'Abandoned';
  if (result.reason === 'aborted') return 'Unterminated';
  return 'Normal';
}

const MAX_TIMER_MS = 2_147_483_647;

function timerDelay(ms: number): number {
  return Number.isFinite(ms) ? Math.min(MAX_TIMER_MS, Math.max(0, ms)) : MAX_TIMER_MS;
}

function playerOf(event: GameEvent): string {
  return (event as { playerId?: unknown }).playerId as string;
}

type MoveEvent = Extract<GameEvent, { type: 'MOVE' }>;

/** A move by the player whose turn it is, with well-formed squares (its legality not yet checked). */
export function isOwnWellFormedMove(context: GameContext, event: MoveEvent): boolean {
  return colorOf(context, event.playerId) === context.turn && wellFormed(event.move);
}

/** A player's own move, on its turn, well formed and legal (the `acceptableMove` guard). */
export function isAcceptableMove(context: GameContext, event: MoveEvent): boolean {
  return isOwnWellFormedMove(context, event) && game(context).isLegal(moveInput(event.move));
}

/** What an acceptable move does: the next context and the events it emits. */
export interface MovePlan {
  next: GameContext;
  emitted: GameEmitted[];
  /** the move was played on the cached ChessGame (false: the mover's flag had fallen) */
  played: boolean;
}

/**
 * The `applyMove` action as a function of the context, the move and the time, for a move that
 * passed `isOwnWellFormedMove`: null when the move is not legal (and nothing changed), unless
 * the mover's flag had already fallen (then the result is that timeout, legal or not). Called
 * once per relayed move, so it builds the next context in one object literal. It plays the move
 * on the context's cached ChessGame (see chessCache.ts); `unplanMove` takes that back.
 */
export function planMove(context: GameContext, event: MoveEvent, t: number): MovePlan | null {
  const mover = context.turn;
  let clocks = context.clocks;
  let lagBank = context.lagBank;
  if (clockRunning(context)) {
    const elapsed = elapsedThisTurn(context, t);
    const { creditMs, bankMs } = creditLag(context.lagBank[mover], event.lagMs, context.settings.lag, elapsed);
    const remaining = context.clocks[mover] - (elapsed - creditMs);
    if (remaining < 0) {
      // Arrived after the flag even with its lag credit (inside the flag grace): time is up.
      const result = lossUnlessNoMatingMaterial(context, mover, 'timeout');
      return { next: { ...context, clocks: { ...context.clocks, [mover]: 0 }, result }, emitted: [], played: false };
    }
    clocks = mover === 'white' ? { white: remaining, black: clocks.black } : { white: clocks.white, black: remaining };
    lagBank = mover === 'white' ? { white: bankMs, black: lagBank.black } : { white: lagBank.white, black: bankMs };
  }

  const chess = game(context);
  const played = chess.play(moveInput(event.move));
  if (!played) return null;
  const moves = [...context.moves, played.uci];
  moveCachedGame(context.settings, moves, chess);

  let result: GameResult | null = chess.outcome();
  if (!result && moves.length >= context.settings.maxPlies) result = { winner: 'draw', reason: 'max plies' };

  // lichess: a pending offer lapses when its receiver moves instead of answering.
  const offerLapsed = context.drawOffer === opposite(mover);
  const nextTurn = chess.turn();
  // Every field written out, in the order of the initial context: one object shape for every
  // context this makes (a spread of contexts of mixed shapes takes V8's slow path on each move).
  let next: GameContext = {
    gameId: context.gameId,
    white: context.white,
    black: context.black,
    settings: context.settings,
    startFen: context.startFen,
    moves,
    fen: played.fenAfter,
    turn: nextTurn,
    clocks,
    turnStartedAt: t,
    tickIndex: 0,
    lagBank,
    drawOffer: offerLapsed ? null : context.drawOffer,
    lastDrawOfferPly: context.lastDrawOfferPly,
    away: context.away,
    graceUsed: context.graceUsed,
    graceCount: context.graceCount,
    result,
  };
  // The disconnect grace can only change when somebody is away (or a grace is counting).
  if (context.graceCount !== null || context.away.white || context.away.black) next = { ...next, ...syncGrace(next, t) };
  const move: WireMove = played.promotion
    ? { from: played.from, to: played.to, promotion: played.promotion }
    : { from: played.from, to: played.to };
  const emitted: GameEmitted[] = [
    { type: 'moved', move, san: played.san, fen: played.fenAfter, nextTurn, clocks, seq: moves.length, uci: played.uci, by: mover },
  ];
  if (offerLapsed) emitted.push({ type: 'drawDeclined', by: mover, implicit: true });
  return { next, emitted, played: true };
}

/** Takes back what planMove did to the cached ChessGame (the context itself was never changed). */
export function unplanMove(context: GameContext, plan: MovePlan): void {
  if (!plan.played) return;
  const chess = chessGameFor(context.settings, context.startFen, plan.next.moves);
  chess.undo();
  moveCachedGame(context.settings, context.moves, chess);
}

// ---------------------------------------------------------------------------------------------

const toOver = { guard: 'hasResult', target: 'over' } as const;

const gameSetup = setup({
  types: {} as {
    context: GameContext;
    events: GameEvent;
    input: GameInput;
    emitted: GameEmitted;
    output: GameOutput;
  },
  guards: {
    hasResult: ({ context }) => context.result !== null,
    notAPlayer: ({ context, event }) => colorOf(context, playerOf(event)) === null,
    notYourTurn: ({ context, event }) => colorOf(context, playerOf(event)) !== context.turn,
    acceptableMove: ({ context, event }) => event.type === 'MOVE' && isAcceptableMove(context, event),
    // Draw offers
    beforeClocksStart: ({ context }) => context.moves.length < UNTIMED_PLIES,
    ownOfferPending: ({ context, event }) => context.drawOffer === colorOf(context, playerOf(event)),
    opponentOfferPending: ({ context, event }) => {
      const me = colorOf(context, playerOf(event));
      return me !== null && context.drawOffer === opposite(me);
    },
    offeredTooRecently: ({ context, event }) => {
      const me = colorOf(context, playerOf(event));
      const last = me ? context.lastDrawOfferPly[me] : null;
      return last !== null && context.moves.length - last < context.settings.drawOfferIntervalPlies;
    },
    // Presence
    isAway: ({ context, event }) => {
      const me = colorOf(context, playerOf(event));
      return me !== null && context.away[me];
    },
    isPresent: ({ context, event }) => {
      const me = colorOf(context, playerOf(event));
      return me !== null && !context.away[me];
    },
  },
  // Timers longer than 2^31-1 ms fire at once in browsers and Node; capping them makes a very
  // long clock merely wake up early (and go back to sleep) instead of spinning.
  delays: {
    firstMoveDeadline: ({ context, self }) => timerDelay(wakeAt(context) - nowOf(self)),
    clockWake: ({ context, self }) => timerDelay(nextClockWakeMs(context, nowOf(self))),
  },
  actions: {
    reject: emit(({ event }, params: { reason: string }) => ({
      type: 'rejected' as const,
      playerId: playerOf(event),
      reason: params.reason,
      command: event.type,
    })),

    /** An acceptable move (see planMove). */
    applyMove: enqueueActions(({ context, event, enqueue, self }) => {
      if (event.type !== 'MOVE') return;
      const plan = planMove(context, event, nowOf(self));
      if (!plan) return; // unreachable: the acceptableMove guard ran first
      enqueue.assign(() => plan.next);
      for (const e of plan.emitted) enqueue.emit(e);
    }),

    /**
     * The running clock's wake-up: the flag falls, or the counting disconnect grace runs out,
     * or one more whole second has passed and is reported.
     */
    clockWake: enqueueActions(({ context, enqueue, self }) => {
      const t = nowOf(self);
      if (moverFlagged(context, t)) {
        enqueue.assign({
          clocks: { ...context.clocks, [context.turn]: 0 },
          result: lossUnlessNoMatingMaterial(context, context.turn, 'timeout'),
        });
        return;
      }
      if (context.graceCount && graceLeftMs(context, t) <= 0) {
        const c = context.graceCount.color;
        if (!context.away[opposite(c)]) {
          enqueue.assign({ result: lossUnlessNoMatingMaterial(context, c, 'disconnection') });
          return;
        }
        // Both are away: nobody is there to win it; the game goes on and the clock decides.
        enqueue.assign({ graceCount: null, graceUsed: { ...context.graceUsed, [c]: context.settings.graceMs[c] } });
      }
      const index = Math.floor(elapsedThisTurn(context, t) / CLOCK_TICK_MS);
      if (index > context.tickIndex) {
        enqueue.assign({ tickIndex: index });
        enqueue.emit({ type: 'clock', clocks: clocksAt(context, t), turn: context.turn });
      }
    }),

    /** The first-move deadline passed (or a capped timer woke early: then it sleeps again). */
    abortIfFirstMoveLate: assign(({ context, self }) =>
      nowOf(self) >= wakeAt(context)
        ? { result: { winner: 'draw', reason: 'aborted' } as GameResult }
        : {},
    ),

    resignOrAbort: assign({
      result: ({ context, event }): GameResult => {
        // Before both sides have moved nothing is scored (lichess offers abort, not resign).
        if (context.moves.length < UNTIMED_PLIES) return { winner: 'draw', reason: 'aborted' };
        const me = colorOf(context, playerOf(event)) as Color;
        return { winner: opposite(me), reason: 'resignation' };
      },
    }),

    offerDraw: enqueueActions(({ context, event, enqueue }) => {
      const me = colorOf(context, playerOf(event)) as Color;
      enqueue.assign({
        drawOffer: me,
        lastDrawOfferPly: { ...context.lastDrawOfferPly, [me]: context.moves.length },
      });
      enqueue.emit({ type: 'drawOffered', by: me });
    }),

    drawByAgreement: assign({ result: (): GameResult => ({ winner: 'draw', reason: 'agreement' }) }),

    declineDraw: enqueueActions(({ context, event, enqueue }) => {
      const me = colorOf(context, playerOf(event)) as Color;
      enqueue.assign({ drawOffer: null });
      enqueue.emit({ type: 'drawDeclined', by: me });
    }),

    markAway: enqueueActions(({ context, event, enqueue, self }) => {
      const me = colorOf(context, playerOf(event)) as Color;
      const next: GameContext = {
        ...context,
        away: { ...context.away, [me]: true },
        // Each absence gets the full grace again (the clock still bounds a player who stalls).
        graceUsed: { ...context.graceUsed, [me]: 0 },
      };
      enqueue.assign({ away: next.away, ...syncGrace(next, nowOf(self)) });
      enqueue.emit({ type: 'opponentDisconnected', color: me, graceMs: context.settings.graceMs[me] });
    }),

    markBack: enqueueActions(({ context, event, enqueue, self }) => {
      const me = colorOf(context, playerOf(event)) as Color;
      const next: GameContext = { ...context, away: { ...context.away, [me]: false } };
      const mover = context.turn;
      // Both were away and the mover's grace ran out meanwhile: the one who returns wins.
      const moverGraceSpent =
        clockRunning(context) &&
        me !== mover &&
        context.away[mover] &&
        context.graceCount === null &&
        context.graceUsed[mover] >= context.settings.graceMs[mover];
      enqueue.assign({
        away: next.away,
        ...syncGrace(next, nowOf(self)),
        ...(moverGraceSpent ? { result: lossUnlessNoMatingMaterial(context, mover, 'disconnection') } : {}),
      });
      enqueue.emit({ type: 'opponentReconnected', color: me });
    }),

    emitEnded: emit(({ context, self }) => {
      const result = context.result ?? { winner: 'draw' as const, reason: 'aborted' as const };
      const tags: Record<string, string> = {
        Event: 'Casual rapid game',
        White: context.white.name,
        Black: context.black.name,
        Result: pgnResult(result),
        Termination: pgnTermination(result),
      };
      let pgn = '';
      try {
        pgn = game(context).pgn(tags);
      } catch {
        pgn = ''; // a PGN is a courtesy; never let it break the end of a game
      }
      // Final clocks: the side to move is charged for its unfinished turn (a flag has already
      // set it to 0; before ply 2 nothing was running).
      const clocks = { ...context.clocks };
      if (context.moves.length >= UNTIMED_PLIES) {
        clocks[context.turn] = Math.max(0, clocks[context.turn] - elapsedThisTurn(context, nowOf(self)));
      }
      return { type: 'ended' as const, winner: result.winner, reason: result.reason, pgn, clocks };
    }),
  },
});

/**
 * How the machine's deadlines (first-move deadline, flag, end of a counting disconnect grace)
 * are noticed:
 * - 'self': the machine schedules its own XState `after` timers, re-entering `running` on every
 *   move to reschedule them. Self-contained; what tests and single games use.
 * - 'driven': no timers in the machine. Whoever runs the actor sends `WAKE` at or after
 *   `wakeAt(context)` (a pure function of the context, machines/game/clock.ts); the machine then
 *   checks the deadlines against now() exactly as its own timers would. A server with thousands
 *   of games drives them all from one timing wheel instead of cancelling and re-arming a timer
 *   per game on every move.
 * Both handle `WAKE` the same way, so a spurious or early WAKE is harmless.
 */
export type GameTiming = 'self' | 'driven';

function liveState<const T extends object>(timing: GameTiming, delayed: T) {
  return timing === 'self' ? { after: delayed } : {};
}

function defineGameMachine(timing: GameTiming) {
  /** In 'self' timing a transition in `running` re-enters it to re-arm its timer; else it stays. */
  const stay = timing === 'self' ? ({ target: 'running', reenter: true } as const) : {};
  /** A state before both sides have moved: the first-move deadline applies, a move goes on to `next`. */
  const beforeClocks = <S extends 'firstMove' | 'secondMove', N extends 'secondMove' | 'running'>(self: S, next: N) => ({
    always: toOver,
    ...liveState(timing, { firstMoveDeadline: { target: self, reenter: true, actions: 'abortIfFirstMoveLate' as const } }),
    on: {
      MOVE: { guard: 'acceptableMove' as const, target: next, actions: 'applyMove' as const },
      WAKE: { actions: 'abortIfFirstMoveLate' as const },
    },
  });
  return gameSetup.createMachine({
    id: 'game',
    context: ({ input, self }) => {
      const settings = resolveSettings(input);
      if (typeof input.now === 'function') nowByActor.set(self, input.now);
      const moves: string[] = [];
      const chess = chessGameFor(settings, input.startFen ?? START_FEN, moves);
      const startFen = chess.fen();
      return {
        gameId: input.gameId,
        white: { id: input.white.id, name: String(input.white.name ?? '') },
        black: { id: input.black.id, name: String(input.black.name ?? '') },
        settings,
        startFen,
        moves,
        fen: startFen,
        turn: chess.turn(),
        clocks: { white: settings.clockMs, black: settings.clockMs },
        turnStartedAt: (input.now ?? defaultNow)(),
        tickIndex: 0,
        lagBank: { white: settings.lag.initialBankMs, black: settings.lag.initialBankMs },
        drawOffer: null,
        lastDrawOfferPly: { white: null, black: null },
        away: { white: false, black: false },
        graceUsed: { white: 0, black: 0 },
        graceCount: null,
        result: null,
      };
    },
    initial: 'firstMove',
    on: {
      // Reached when the state's own MOVE transition (an acceptable move) did not apply.
      MOVE: [
        { guard: 'notAPlayer', actions: { type: 'reject', params: { reason: REJECTION.notAPlayer } } },
        { guard: 'notYourTurn', actions: { type: 'reject', params: { reason: REJECTION.notYourTurn } } },
        { actions: { type: 'reject', params: { reason: REJECTION.illegalMove } } },
      ],
      RESIGN: [
        { guard: 'notAPlayer', actions: { type: 'reject', params: { reason: REJECTION.notAPlayer } } },
        { actions: 'resignOrAbort' },
      ],
      OFFER_DRAW: [
        { guard: 'notAPlayer', actions: { type: 'reject', params: { reason: REJECTION.notAPlayer } } },
        { guard: 'beforeClocksStart', actions: { type: 'reject', params: { reason: REJECTION.drawTooEarly } } },
        { guard: 'ownOfferPending', actions: { type: 'reject', params: { reason: REJECTION.drawAlreadyOffered } } },
        // Offering while the opponent's offer stands is accepting it (as lichess does).
        { guard: 'opponentOfferPending', actions: 'drawByAgreement' },
        { guard: 'offeredTooRecently', actions: { type: 'reject', params: { reason: REJECTION.drawTooOften } } },
        { actions: 'offerDraw' },
      ],
      ACCEPT_DRAW: [
        { guard: 'notAPlayer', actions: { type: 'reject', params: { reason: REJECTION.notAPlayer } } },
        { guard: 'opponentOfferPending', actions: 'drawByAgreement' },
        { actions: { type: 'reject', params: { reason: REJECTION.noDrawOffer } } },
      ],
      DECLINE_DRAW: [
        { guard: 'notAPlayer', actions: { type: 'reject', params: { reason: REJECTION.notAPlayer } } },
        { guard: 'opponentOfferPending', actions: 'declineDraw' },
        { actions: { type: 'reject', params: { reason: REJECTION.noDrawOffer } } },
      ],
      // Presence reports from the server: idempotent, unknown ids ignored. Before the clocks run
      // no grace counts (the first-move deadline aborts instead), so nothing needs rescheduling.
      PLAYER_DISCONNECTED: { guard: 'isPresent', actions: 'markAway' },
      PLAYER_RECONNECTED: { guard: 'isAway', actions: 'markBack' },
    },
    states: {
      /** No clock yet; the first mover has firstMoveDeadlineMs from the start. */
      firstMove: beforeClocks('firstMove', 'secondMove'),
      /** No clock yet; the reply has firstMoveDeadlineMs from the first move. */
      secondMove: beforeClocks('secondMove', 'running'),
      /**
       * The side to move's clock runs. One timer wakes the state at the next whole second, the
       * flag or the end of a counting disconnect grace; re-entering the state reschedules it.
       */
      running: {
        always: toOver,
        ...liveState(timing, { clockWake: { target: 'running', reenter: true, actions: 'clockWake' } }),
        on: {
          MOVE: { guard: 'acceptableMove', ...stay, actions: 'applyMove' },
          WAKE: { ...stay, actions: 'clockWake' },
          PLAYER_DISCONNECTED: { guard: 'isPresent', ...stay, actions: 'markAway' },
          PLAYER_RECONNECTED: { guard: 'isAway', ...stay, actions: 'markBack' },
        },
      },
      over: {
        type: 'final',
        entry: 'emitEnded',
      },
    },
    output: ({ context }) => context.result ?? { winner: 'draw', reason: 'aborted' },
  });
}

/** The self-timed game machine (see GameTiming). */
export const gameMachine = defineGameMachine('self');
/** The same game driven by `WAKE` events from its runner (see GameTiming); what the server runs. */
export const drivenGameMachine = defineGameMachine('driven');
