/**
 * The browser's copy of the game it plays: the game core's own state (machines/game), advanced
 * by the core's pure `step` with the player's moves and the moves the server announces, so the
 * rules the board follows and the clocks it shows are the core's, the same ones the server runs.
 * The server stays the truth: the clocks it sends re-anchor the copy, where the copy cannot
 * follow a move the server's position wins, and only the server ends a game (the copy never
 * lets a clock run past zero: the flag grace and lag credit that decide a flag are the server's).
 * Nothing here is sent on the wire; the protocol is unchanged (docs/protocol.md).
 */
import { START_FEN } from '../chess/index';
import { positionKey } from '../game/board';
import { clockRunning, clocksAt, wakeAt } from '../game/clock';
import { DEFAULT_CLOCK_MS, UNTIMED_PLIES } from '../game/defaults';
import { uciToWireMove } from '../game/rejoin';
import { createGame, step } from '../game/step';
import type { ClocksMs, Color, GameCommand, GameResult, GameState, WireMove } from '../game/types';

/** In the copy the colours stand for the players: the browser knows only its own side. */
const SEATS = { white: { id: 'white', name: '' }, black: { id: 'black', name: '' } } as const;

/**
 * A player whose socket is gone, as the core counts their disconnect grace: it runs down only
 * while they are to move with a running clock (machines/game/presence.ts).
 */
export interface Absence {
  /** grace left, ms: as of now while it waits, as of `countingSince` while it runs */
  graceLeftMs: number;
  /** when the grace began to run down (monotonic ms), or null while it waits for their turn */
  countingSince: number | null;
}

/** What the game screen shows of the copy (or of no game). */
export interface GameView {
  fen: string;
  moves: string[];
  lastMove: [string, string] | null;
  turn: Color;
  /** the clocks as of `clockSyncedAt`; the running one counts down from then */
  clocks: ClocksMs;
  clockSyncedAt: number;
  clockRunning: Color | null;
  /** until both sides have moved: when the side to move must have moved, else null */
  firstMoveDeadline: number | null;
  /** the side whose draw offer stands (none once the game is decided) */
  drawOffer: Color | null;
  /** each side's absence, null while present */
  away: { white: Absence | null; black: Absence | null };
  /** the result, once the game is decided */
  result: GameResult | null;
}

/** How the server describes a game to a player joining or rejoining it (gameStart). */
export interface ServerGame {
  gameId: string;
  /** each side's clock at the start (ms); not positive: the default */
  clockMs: number;
  /** the Fischer increment (ms) added after each timed move, when the game has one */
  incrementMs?: number;
  /** the moves so far, from the standard start */
  moves: WireMove[];
  /** the position now, when the server sends it */
  fen?: string;
  /** the clocks now, when the server sends them */
  clocks?: ClocksMs;
  /** whether the game allows takebacks (gameStart's `takebacks`) */
  takebacks?: boolean;
}

/** A move the copy played, with what the screen says of it. */
export interface PlayedMove {
  game: GameState;
  san: string;
  uci: string;
}

function newCopy(desc: Pick<ServerGame, 'gameId' | 'clockMs' | 'incrementMs' | 'takebacks'>, startedAt: number, startFen = START_FEN): GameState {
  return createGame({
    gameId: desc.gameId || 'game',
    white: SEATS.white,
    black: SEATS.black,
    startedAt,
    clockMs: desc.clockMs > 0 ? desc.clockMs : DEFAULT_CLOCK_MS,
    incrementMs: desc.incrementMs ?? 0,
    startFen,
    takebacks: desc.takebacks ?? false,
  });
}

/** A running clock is not run past zero here: the copy shows 0:00 and the server decides the flag. */
function notPastTheFlag(game: GameState, now: number): number {
  return clockRunning(game) ? Math.min(now, game.turnStartedAt + game.clocks[game.turn]) : now;
}

/** `by` plays `move` at `now` through the core's step; null when the core refuses it. */
export function playMove(game: GameState, by: Color, move: WireMove, now: number): PlayedMove | null {
  const { state, events } = step(game, { type: 'MOVE', playerId: SEATS[by].id, move }, notPastTheFlag(game, now));
  const moved = events[0];
  return moved?.type === 'moved' ? { game: state, san: moved.san, uci: moved.uci } : null;
}

/** What a side (or the server on its behalf) says besides moves; the core's own rules decide. */
export type SideCommand = Exclude<GameCommand['type'], 'MOVE' | 'WAKE' | 'CHAT'>;

/** `by` does `command` at `now` through the core's step: the new copy, or why the core refused it. */
export function sideCommand(game: GameState, by: Color, command: SideCommand, now: number): { game: GameState; refused: string | null } {
  const { state, events } = step(game, { type: command, playerId: SEATS[by].id }, notPastTheFlag(game, now));
  const refusal = events.find((e) => e.type === 'rejected');
  return { game: state, refused: refusal?.type === 'rejected' ? refusal.reason : null };
}

/**
 * The server says `color` left at `now` with `graceMs` to come back: the copy takes that grace
 * and the core's presence rule decides when it counts down.
 */
export function sideLeft(game: GameState, color: Color, graceMs: number | undefined, now: number): GameState {
  const settings = graceMs === undefined ? game.settings : { ...game.settings, graceMs: { ...game.settings.graceMs, [color]: graceMs } };
  return sideCommand({ ...game, settings }, color, 'PLAYER_DISCONNECTED', now).game;
}

/** The server says `by` offered a draw: its offer stands in the copy even where the copy would not have allowed it. */
export function drawOfferedBy(game: GameState, by: Color, now: number): GameState {
  const offered = sideCommand(game, by, 'OFFER_DRAW', now);
  return offered.refused === null || game.result !== null ? offered.game : { ...game, drawOffer: by };
}

/** `moves` played one after the other at `now`; null when one of them cannot be played. */
function replayed(game: GameState, moves: readonly WireMove[], now: number): GameState | null {
  let copy = game;
  for (const move of moves) {
    const played = playMove(copy, copy.turn, move, now);
    if (!played) return null;
    copy = played.game;
  }
  return copy;
}

/** The server's clocks, as they stand at `now`: the running one counts down from here. */
export function withServerClocks(game: GameState, clocks: ClocksMs, now: number): GameState {
  return clockRunning(game) ? { ...game, clocks, turnStartedAt: now } : { ...game, clocks };
}

/**
 * The copy of a game the server has just described: its moves replayed from the start (or, if
 * they do not lead to its position, a game from that position), its clocks the server's.
 */
export function copyOfServerGame(desc: ServerGame, now: number): GameState {
  const start = newCopy(desc, now);
  const fromMoves = replayed(start, desc.moves, now);
  const copy = fromMoves && (desc.fen === undefined || samePosition(fromMoves.fen, desc.fen))
    ? fromMoves
    : (desc.fen !== undefined ? copyAtPosition(desc, desc.fen, now) : null) ?? fromMoves ?? start;
  return desc.clocks ? withServerClocks(copy, desc.clocks, now) : copy;
}

/** A game from `fen` (its moves unknown here); null when the FEN cannot be read. */
function copyAtPosition(desc: ServerGame, fen: string, now: number): GameState | null {
  try {
    return newCopy(desc, now, fen);
  } catch {
    return null;
  }
}

/** Where the copy could not follow the server: the server's position and side to move win. */
export function atServerPosition(game: GameState, turn: Color, fen?: string): GameState {
  return fen === undefined ? { ...game, turn } : { ...game, fen, turn, positions: [positionKey(fen)] };
}

/**
 * The copy without its last move (a move the socket could not carry): replayed without it, the
 * clocks as they stood when it was played.
 */
export function withoutLastMove(game: GameState): GameState {
  const start = newCopy({ gameId: game.gameId, clockMs: game.settings.clockMs, incrementMs: game.settings.incrementMs }, game.turnStartedAt, game.startFen);
  const back = replayed(start, game.moves.slice(0, -1).map(uciToWireMove), game.turnStartedAt) ?? start;
  return { ...back, clocks: game.clocks, turnStartedAt: game.turnStartedAt };
}

/**
 * The server's accepted takeback (`takeback`): the copy replayed to its first `seq` moves (or,
 * if they do not lead to the server's position, at that position), the server's clocks from
 * `now`; who is away stays as it was.
 */
export function takenBack(game: GameState, back: { seq: number; fen: string; turn: Color; clocks: ClocksMs }, now: number): GameState {
  const s = game.settings;
  const start = newCopy({ gameId: game.gameId, clockMs: s.clockMs, incrementMs: s.incrementMs, takebacks: s.takebacks }, now, game.startFen);
  const replayedBack = replayed(start, game.moves.slice(0, back.seq).map(uciToWireMove), now);
  const copy = replayedBack && samePosition(replayedBack.fen, back.fen) ? replayedBack : atServerPosition(replayedBack ?? start, back.turn, back.fen);
  const kept = { ...copy, settings: s, away: game.away, graceUsed: game.graceUsed, graceCount: game.graceCount };
  return withServerClocks(kept, back.clocks, now);
}

/** The server ended the game at `now`: the clocks stop where they stand. */
export function endedByServer(game: GameState, result: GameResult, now: number): GameState {
  return { ...game, clocks: clocksAt(game, now), turnStartedAt: now, result };
}

/** The same pieces on the same squares and the same side to move (FENs differ in how they write en passant). */
function samePosition(a: string, b: string): boolean {
  return boardAndSide(a) === boardAndSide(b);
}

function boardAndSide(fen: string): string {
  return fen.split(' ', 2).join(' ');
}

const NO_GAME: GameView = {
  fen: START_FEN,
  moves: [],
  lastMove: null,
  turn: 'white',
  clocks: { white: DEFAULT_CLOCK_MS, black: DEFAULT_CLOCK_MS },
  clockSyncedAt: 0,
  clockRunning: null,
  firstMoveDeadline: null,
  drawOffer: null,
  away: { white: null, black: null },
  result: null,
};

/** `color`'s absence in the copy, as its disconnect grace stands (null: present, or the game is decided). */
function absenceOf(game: GameState, color: Color): Absence | null {
  if (!game.away[color] || game.result !== null) return null;
  const counting = game.graceCount?.color === color ? game.graceCount : null;
  return {
    graceLeftMs: Math.max(0, game.settings.graceMs[color] - game.graceUsed[color]),
    countingSince: counting ? counting.since : null,
  };
}

/** What the screen shows of the copy: the core's position, clocks and deadline. */
export function viewOf(game: GameState | null): GameView {
  if (game === null) return NO_GAME;
  const last = game.moves.length > 0 ? game.moves[game.moves.length - 1] : null;
  return {
    fen: game.fen,
    moves: game.moves,
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : null,
    turn: game.turn,
    clocks: game.clocks,
    clockSyncedAt: game.turnStartedAt,
    clockRunning: clockRunning(game) ? game.turn : null,
    firstMoveDeadline: game.result === null && game.moves.length < UNTIMED_PLIES ? wakeAt(game) : null,
    drawOffer: game.result === null ? game.drawOffer : null,
    away: { white: absenceOf(game, 'white'), black: absenceOf(game, 'black') },
    result: game.result,
  };
}
