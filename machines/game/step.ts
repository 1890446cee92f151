/**
 * The game core: one pure function from a state, a command and the time to the next state and
 * the events to tell the host. Nothing here reads a clock or a random source, and nothing that
 * was passed in is changed: a command that changes nothing returns the very state it was given.
 * The rules are described in README.md in this folder.
 */
import { START_FEN } from '../chess';
import { canMate, pgnOf, playOnBoard, positionKey, startPosition } from './board';
import { clockRunning, clocksAt, creditLag, elapsedThisTurn, moverFlagged, withIncrement } from './clock';
import { UNTIMED_PLIES } from './defaults';
import { opposite, pgnResultTag } from './display';
import { giveTime } from './giveTime';
import { graceLeftMs, syncGrace } from './presence';
import { REJECTION } from './reasons';
import { resolveSettings } from './settings';
import { colorOf, rejected, tell, unchanged } from './replies';
import { acceptTakeback, declineTakeback, proposeTakeback, turnClocksAfterMove } from './takeback';
import { PRESENCE_TEXT } from '../protocol/constants';
import type { ClocksMs, Color, GameCommand, GameEmitted, GameInput, GameNotice, GameResult, GameState, Seat, StepResult, WireMove } from './types';

/** The state of a new game; throws a TypeError naming the first bad field of `input`. */
export function createGame(input: GameInput): GameState {
  const settings = resolveSettings(input);
  const start = startPosition(input.startFen ?? START_FEN);
  return {
    gameId: input.gameId,
    white: seatOf(input.white),
    black: seatOf(input.black),
    settings,
    startFen: start.fen,
    moves: [],
    fen: start.fen,
    turn: start.turn,
    positions: [positionKey(start.fen)],
    clocks: { white: settings.clockMs, black: settings.clockMs },
    turnStartedAt: input.startedAt,
    lagBank: { white: settings.lag.initialBankMs, black: settings.lag.initialBankMs },
    drawOffer: null,
    lastDrawOfferPly: { white: null, black: null },
    takebackOffer: null,
    lastTakebackPly: { white: null, black: null },
    turnClocks: [],
    timeGivenAt: { white: null, black: null },
    away: { white: false, black: false },
    graceUsed: { white: 0, black: 0 },
    graceCount: null,
    result: null,
  };
}

/** A seat as the state keeps it: its id, its name, and the engine's level when the engine holds it. */
function seatOf(seat: Seat): Seat {
  const kept: Seat = { id: seat.id, name: String(seat.name ?? '') };
  if (seat.engine) kept.engine = { level: seat.engine.level };
  return kept;
}

const NOTHING: readonly GameEmitted[] = Object.freeze([]);

/**
 * What `command`, arriving at `now`, does to the game in `state`. `now` is in the time base of
 * the game's `startedAt` and should not go back; a turn's elapsed time is never negative.
 */
export function step(state: GameState, command: GameCommand, now: number): StepResult {
  if (typeof now !== 'number' || !Number.isFinite(now)) throw new TypeError(`game step: now must be a finite number, got ${String(now)}`);
  if (state.result !== null) return afterTheEnd(state, command);
  switch (command.type) {
    case 'MOVE':
      return move(state, command, now);
    case 'RESIGN':
      return resign(state, command.playerId, now);
    case 'OFFER_DRAW':
      return offerDraw(state, command.playerId, now);
    case 'ACCEPT_DRAW':
      return acceptDraw(state, command.playerId, now);
    case 'DECLINE_DRAW':
      return declineDraw(state, command.playerId);
    case 'PROPOSE_TAKEBACK':
      return proposeTakeback(state, command.playerId, now);
    case 'ACCEPT_TAKEBACK':
      return acceptTakeback(state, command.playerId, now);
    case 'DECLINE_TAKEBACK':
      return declineTakeback(state, command.playerId);
    case 'GIVE_TIME':
      // after the flag of the side to move the game is lost on time, whoever gives what
      return moverFlagged(state, now) ? wake(state, now) : giveTime(state, command.playerId, now);
    case 'PLAYER_DISCONNECTED':
      return disconnected(state, command.playerId, now);
    case 'PLAYER_RECONNECTED':
      return reconnected(state, command.playerId, now);
    case 'WAKE':
      return wake(state, now);
    case 'CHAT':
      return unchanged(state); // the log keeps it; the game does not change
    case 'SEAT_FAILED':
      return seatFailed(state, command.playerId, now);
    default:
      return unchanged(state);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** `loser` lost (on time or by leaving): the other side wins if it could still mate, else a draw. */
function lossUnlessNoMatingMaterial(state: GameState, loser: Color, reason: 'timeout' | 'disconnection'): GameResult {
  const other = opposite(loser);
  return canMate(state.fen, other) ? { winner: other, reason } : { winner: 'draw', reason };
}

/** PGN Termination tag values as lichess writes them. */
function pgnTermination(result: GameResult): string {
  if (result.reason === 'timeout') return 'Time forfeit';
  if (result.reason === 'disconnection') return 'Abandoned';
  if (result.reason === 'aborted') return 'Unterminated';
  return 'Normal';
}

/** The game's PGN ('*' as the result while it goes on); '' if it cannot be written (a PGN is a courtesy, never a reason to fail). */
export function gamePgn(state: GameState): string {
  const result = state.result;
  const tags: Record<string, string> = {
    Event: state.white.engine || state.black.engine ? 'Game against the AI' : 'Casual rapid game',
    White: state.white.name,
    Black: state.black.name,
    Result: result ? pgnResultTag(result.winner) : '*',
  };
  if (result) tags.Termination = pgnTermination(result);
  try {
    return pgnOf(state.startFen, state.moves, tags);
  } catch {
    return '';
  }
}

/**
 * The game decided at `now`: the side to move is charged for its unfinished turn (clocks run
 * from ply 2), the state keeps the final clocks, and `ended` follows the step's other events.
 */
function finish(state: GameState, result: GameResult, now: number, events: GameEmitted[] = []): StepResult {
  const clocks = clocksAt(state, now);
  const ended: GameState = { ...state, clocks, graceCount: null, result };
  events.push({ type: 'ended', winner: result.winner, reason: result.reason, pgn: gamePgn(ended), clocks });
  return { state: ended, events };
}

/** A finished game takes no more commands: players are told so, presence and wake-ups change nothing. */
function afterTheEnd(state: GameState, command: GameCommand): StepResult {
  if (command.type === 'WAKE' || command.type === 'CHAT' || command.type === 'PLAYER_DISCONNECTED' || command.type === 'PLAYER_RECONNECTED') return unchanged(state);
  return rejected(state, command.playerId, REJECTION.gameOver, command.type);
}

// ---------------------------------------------------------------------------------------------
// Moves

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
  return isSquare(m.from) && isSquare(m.to) && (m.promotion === undefined || (typeof m.promotion === 'string' && PROMOTIONS.has(m.promotion)));
}

/**
 * A move: refused unless a player's, on its turn, well formed and legal. Once the clocks run
 * the mover is charged the time since its turn began, less its lag credit; a move that arrives
 * after the flag even with that credit (inside the flag grace) loses on time, legal or not. A
 * timed move that does not end the game then gets the increment (scalachess: none while the
 * clock has not started, that is on each side's first move, and none on a move that ends it).
 */
function move(state: GameState, command: Extract<GameCommand, { type: 'MOVE' }>, now: number): StepResult {
  const mover = colorOf(state, command.playerId);
  if (mover === null) return rejected(state, command.playerId, REJECTION.notAPlayer, 'MOVE');
  if (mover !== state.turn) return rejected(state, command.playerId, REJECTION.notYourTurn, 'MOVE');
  if (!wellFormed(command.move)) return rejected(state, command.playerId, REJECTION.illegalMove, 'MOVE');

  let clocks = state.clocks;
  let lagBank = state.lagBank;
  const timed = clockRunning(state);
  if (timed) {
    const elapsed = elapsedThisTurn(state, now);
    const { creditMs, bankMs } = creditLag(state.lagBank[mover], command, state.settings.lag, elapsed);
    const remaining = state.clocks[mover] - (elapsed - creditMs);
    if (remaining < 0) return finish(state, lossUnlessNoMatingMaterial(state, mover, 'timeout'), now);
    clocks = mover === 'white' ? { white: remaining, black: clocks.black } : { white: clocks.white, black: remaining };
    lagBank = mover === 'white' ? { white: bankMs, black: lagBank.black } : { white: lagBank.white, black: bankMs };
  }

  const played = playOnBoard(state.fen, state.positions, command.move);
  if (!played) return rejected(state, command.playerId, REJECTION.illegalMove, 'MOVE');
  const moves = [...state.moves, played.uci];
  let result: GameResult | null = played.outcome;
  if (!result && moves.length >= state.settings.maxPlies) result = { winner: 'draw', reason: 'max plies' };
  if (!result && timed) clocks = afterTimedMove(clocks, mover, state.settings);
  // lichess: a pending offer lapses when its receiver moves instead of answering.
  const offerLapsed = state.drawOffer === opposite(mover);
  // Any move ends a pending takeback proposal (the position it was made in is gone).
  const takebackLapsed = state.takebackOffer;
  const nextTurn: Color = played.turn;
  // Every field written out, in the order createGame writes them: one object shape for every
  // state (a spread of states of mixed shapes takes V8's slow path on each move).
  let next: GameState = {
    gameId: state.gameId,
    white: state.white,
    black: state.black,
    settings: state.settings,
    startFen: state.startFen,
    moves,
    fen: played.fen,
    turn: nextTurn,
    positions: played.positions,
    clocks,
    turnStartedAt: now,
    lagBank,
    drawOffer: offerLapsed ? null : state.drawOffer,
    lastDrawOfferPly: state.lastDrawOfferPly,
    takebackOffer: null,
    lastTakebackPly: state.lastTakebackPly,
    turnClocks: turnClocksAfterMove(state),
    timeGivenAt: state.timeGivenAt,
    away: state.away,
    graceUsed: state.graceUsed,
    graceCount: state.graceCount,
    result: null,
  };
  // The disconnect grace can only change when somebody is away (or a grace is counting).
  if (state.graceCount !== null || state.away.white || state.away.black) {
    const grace = syncGrace(next, now);
    next = { ...next, graceUsed: grace.graceUsed, graceCount: grace.graceCount };
  }
  const events: GameEmitted[] = [
    { type: 'moved', move: played.move, san: played.san, fen: played.fen, nextTurn, clocks, seq: moves.length, uci: played.uci, by: mover },
  ];
  if (offerLapsed) events.push(tell(opposite(mover), { type: 'drawDeclined' }));
  if (takebackLapsed !== null) events.push(tell(opposite(mover), { type: 'takebackDeclined' }));

  return result ? finish(next, result, now, events) : { state: next, events };
}

/** The mover's clock after a timed move: its increment, or (no clock) its whole limit per move again. */
function afterTimedMove(clocks: ClocksMs, mover: Color, settings: GameState['settings']): ClocksMs {
  if (!settings.untimed) return withIncrement(clocks, mover, settings.incrementMs);
  return mover === 'white' ? { white: settings.clockMs, black: clocks.black } : { white: clocks.white, black: settings.clockMs };
}

// ---------------------------------------------------------------------------------------------
// Resignation and draws

/** Before both sides have moved nothing is scored (lichess offers abort, not resign). */
function resign(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'RESIGN');
  if (state.moves.length < UNTIMED_PLIES) return finish(state, { winner: 'draw', reason: 'aborted' }, now);
  return finish(state, { winner: opposite(me), reason: 'resignation' }, now);
}

/** A seat that cannot go on through nobody's fault (its engine failed) ends the game as a technical draw. */
function seatFailed(state: GameState, playerId: string, now: number): StepResult {
  if (colorOf(state, playerId) === null) return rejected(state, playerId, REJECTION.notAPlayer, 'SEAT_FAILED');
  return finish(state, { winner: 'draw', reason: 'technical_draw' }, now);
}

function offerDraw(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'OFFER_DRAW');
  if (state.moves.length < UNTIMED_PLIES) return rejected(state, playerId, REJECTION.drawTooEarly, 'OFFER_DRAW');
  if (state.drawOffer === me) return rejected(state, playerId, REJECTION.drawAlreadyOffered, 'OFFER_DRAW');
  // Offering while the opponent's offer stands is accepting it (as lichess does).
  if (state.drawOffer === opposite(me)) return finish(state, { winner: 'draw', reason: 'agreement' }, now);
  const last = state.lastDrawOfferPly[me];
  if (last !== null && state.moves.length - last < state.settings.drawOfferIntervalPlies) {
    return rejected(state, playerId, REJECTION.drawTooOften, 'OFFER_DRAW');
  }
  return {
    state: { ...state, drawOffer: me, lastDrawOfferPly: { ...state.lastDrawOfferPly, [me]: state.moves.length } },
    events: [tell(opposite(me), { type: 'drawOffer' })],
  };
}

function acceptDraw(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'ACCEPT_DRAW');
  if (state.drawOffer !== opposite(me)) return rejected(state, playerId, REJECTION.noDrawOffer, 'ACCEPT_DRAW');
  return finish(state, { winner: 'draw', reason: 'agreement' }, now);
}

function declineDraw(state: GameState, playerId: string): StepResult {
  const me = colorOf(state, playerId);
  if (me === null) return rejected(state, playerId, REJECTION.notAPlayer, 'DECLINE_DRAW');
  if (state.drawOffer !== opposite(me)) return rejected(state, playerId, REJECTION.noDrawOffer, 'DECLINE_DRAW');
  return { state: { ...state, drawOffer: null }, events: [tell(opposite(me), { type: 'drawDeclined' })] };
}

// ---------------------------------------------------------------------------------------------
// Presence (reports from the host: idempotent, unknown ids ignored)

function disconnected(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null || state.away[me]) return unchanged(state);
  const next: GameState = {
    ...state,
    away: { ...state.away, [me]: true },
    // Each absence gets the full grace again (the clock still bounds a player who stalls).
    graceUsed: { ...state.graceUsed, [me]: 0 },
  };
  return {
    state: { ...next, ...syncGrace(next, now) },
    events: [tell(opposite(me), opponentLeft(state.settings.graceMs[me]))],
  };
}

/** What the opponent of a player who left with `graceMs` to come back is told. */
function opponentLeft(graceMs: number): GameNotice {
  return { type: 'opponentDisconnected', message: PRESENCE_TEXT.left(Math.round(graceMs / 1000)), graceMs };
}

function reconnected(state: GameState, playerId: string, now: number): StepResult {
  const me = colorOf(state, playerId);
  if (me === null || !state.away[me]) return unchanged(state);
  const back: GameState = { ...state, away: { ...state.away, [me]: false } };
  const next: GameState = { ...back, ...syncGrace(back, now) };
  const events: GameEmitted[] = [tell(opposite(me), { type: 'opponentReconnected', message: PRESENCE_TEXT.back })];
  const mover = state.turn;
  // Both were away and the mover's grace ran out meanwhile: the one who returns wins.
  const moverGraceSpent =
    clockRunning(state) &&
    me !== mover &&
    state.away[mover] &&
    state.graceCount === null &&
    state.graceUsed[mover] >= state.settings.graceMs[mover];
  if (moverGraceSpent) return finish(next, lossUnlessNoMatingMaterial(state, mover, 'disconnection'), now, events);
  return { state: next, events };
}

// ---------------------------------------------------------------------------------------------
// Deadlines

/**
 * The deadlines checked against `now`: the first-move deadline before the clocks run; then the
 * flag of the side to move, and the end of a counting disconnect grace. An early WAKE changes
 * nothing.
 */
function wake(state: GameState, now: number): StepResult {
  if (state.moves.length < UNTIMED_PLIES) {
    return now >= state.turnStartedAt + state.settings.firstMoveDeadlineMs ? finish(state, { winner: 'draw', reason: 'aborted' }, now) : unchanged(state);
  }
  if (moverFlagged(state, now)) return finish(state, lossUnlessNoMatingMaterial(state, state.turn, 'timeout'), now);
  const g = state.graceCount;
  if (g === null || graceLeftMs(state, now) > 0) return unchanged(state);
  if (!state.away[opposite(g.color)]) return finish(state, lossUnlessNoMatingMaterial(state, g.color, 'disconnection'), now);
  // Both are away: nobody is there to win it; the game goes on and the clock decides.
  return { state: { ...state, graceCount: null, graceUsed: { ...state.graceUsed, [g.color]: state.settings.graceMs[g.color] } }, events: NOTHING };
}
