/**
 * Types of the game core: its input, its state, the commands it takes, the events it emits and
 * the log that records a game. All of them are plain JSON.
 */
import type { ChatLine, ClocksMs, Color, GameEndReason, GameNotice, GameRatings, WireMove, Winner } from '../protocol/messages';

export type { ChatLine, ClocksMs, Color, GameEndReason, GameNotice, WireMove, Winner };

export interface Seat {
  id: string;
  name: string;
  /** The seat is the engine's (a game against the AI), at this level; the step plays it like any seat. */
  engine?: { level: number };
}

export interface LagSettings {
  /** Most lag credited to one move. */
  perMoveCapMs: number;
  /** Bank each side starts with. */
  initialBankMs: number;
  /** The bank never grows above this. */
  bankCapMs: number;
  /** Most added back to the mover's bank after a timed move: its measured lag and ESTIMATED_CPU_LAG_MS, up to this (lichess "quota gain"). */
  refillPerMoveMs?: number;
}

/** What a game is created from (see settings.ts for the defaults and the checks). */
export interface GameInput {
  gameId: string;
  white: Seat;
  black: Seat;
  /** When the game starts, in the host's time base (milliseconds; the server uses its monotonic clock). */
  startedAt: number;
  /** Per side; default 600 000. */
  clockMs?: number;
  /**
   * No clock: `clockMs` is then a limit per move instead (each side's clock starts every turn
   * from it again, without increment), so a side that does not move within it loses on time.
   * Games against the AI offer this ("no clock").
   */
  untimed?: boolean;
  /** Fischer increment: added to the mover's clock after each timed move that does not end the game; default 0. */
  incrementMs?: number;
  /** Per side's first move; default 30 000. */
  firstMoveDeadlineMs?: number;
  /**
   * Disconnect grace. A number applies to both players; otherwise a player whose id is in
   * `accountIds` gets `account`, everyone else `guest`. Default lichess 10+0: 80 s / 40 s.
   */
  graceMs?: { guest: number; account: number } | number;
  /** Lag compensation quota; missing fields take the defaults. */
  lag?: Partial<LagSettings>;
  /** Ids of players signed in with an account (for the grace period). */
  accountIds?: string[];
  /** Start position (tests, puzzles); default the standard start position. */
  startFen?: string;
  /** Maximum game length in plies before a draw; default 600. */
  maxPlies?: number;
  /** The players' pool ratings as the game started, for the host to show (the step ignores them). */
  ratings?: GameRatings;
  /**
   * Whether a player may propose a takeback (takeback.ts); default false. The host decides per
   * game: on for a casual game, off for one that may be rated (`takebacksByDefault`).
   */
  takebacks?: boolean;
  /** A casual game: never rated, whoever plays it (a custom game's choice; the step ignores it). */
  casual?: boolean;
}

export interface GameSettings {
  clockMs: number;
  /** GameInput.untimed: clockMs is a limit per move */
  untimed: boolean;
  incrementMs: number;
  firstMoveDeadlineMs: number;
  graceMs: ClocksMs;
  lag: Required<LagSettings>;
  maxFlagGraceMs: number;
  maxPlies: number;
  drawOfferIntervalPlies: number;
  takebacks: boolean;
}

export interface GameResult {
  winner: Winner;
  reason: GameEndReason;
}

/**
 * Everything a game is, between two commands. Plain JSON: no functions, no class instances, no
 * shared mutable parts (a step returns a new state and never changes the one it was given).
 */
export interface GameState {
  gameId: string;
  white: Seat;
  black: Seat;
  settings: GameSettings;
  startFen: string;
  /** The moves played, as UCI ('e2e4', 'e7e8q'). */
  moves: string[];
  /** The position now (the position is carried as FEN: a move parses it, never the move list). */
  fen: string;
  turn: Color;
  /**
   * For repetitions: the position part of the FEN (placement, side, castling, en passant) of
   * every position since the last capture or pawn move, the current one last.
   */
  positions: string[];
  /**
   * Remaining time per side: for the side to move, as of `turnStartedAt` (it is running down
   * since then once the clocks have started); for the other side, final until its next turn.
   * Once the game is over, both are final.
   */
  clocks: ClocksMs;
  /** When the current turn began (game start, then each move). */
  turnStartedAt: number;
  /** Lag compensation bank per side. */
  lagBank: ClocksMs;
  /** The side whose draw offer is pending, if any. */
  drawOffer: Color | null;
  /** Ply count at each side's last draw offer (for the once-per-20-plies limit). */
  lastDrawOfferPly: { white: number | null; black: number | null };
  /** The side whose takeback proposal is pending, if any. */
  takebackOffer: Color | null;
  /** Ply count at each side's last takeback proposal (one proposal per position). */
  lastTakebackPly: { white: number | null; black: number | null };
  /**
   * When takebacks are on: both clocks as each played move's turn began (entry i: before ply
   * i + 1, the mover's as of that turn's start), so a takeback restores them; empty otherwise.
   */
  turnClocks: ClocksMs[];
  /** When each side last gave the opponent time (GIVE_TIME), for the once-per-interval limit. */
  timeGivenAt: { white: number | null; black: number | null };
  /** Players the host reported as disconnected. */
  away: { white: boolean; black: boolean };
  /** Grace already used by each side in its current absence. */
  graceUsed: ClocksMs;
  /** Grace currently running down: for whom and since when. */
  graceCount: { color: Color; since: number } | null;
  /** Set once the game is decided; the state then changes no more. */
  result: GameResult | null;
}

/** What a host tells a game. */
export type GameCommand =
  | {
      type: 'MOVE';
      playerId: string;
      move: WireMove;
      /** the mover's one-way network lag, as the host measured it (half its lag pings' round trip) */
      lagMs?: number;
      /**
       * how long the oldest lag ping the mover had not answered when the move arrived had been
       * on its way (the host's measure; absent when every ping was answered)
       */
      unansweredPingMs?: number;
    }
  | { type: 'RESIGN'; playerId: string }
  | { type: 'OFFER_DRAW'; playerId: string }
  | { type: 'ACCEPT_DRAW'; playerId: string }
  | { type: 'DECLINE_DRAW'; playerId: string }
  | { type: 'PROPOSE_TAKEBACK'; playerId: string }
  | { type: 'ACCEPT_TAKEBACK'; playerId: string }
  /** The receiver declines, or the proposer withdraws, a pending takeback proposal. */
  | { type: 'DECLINE_TAKEBACK'; playerId: string }
  /** The player adds GIVE_TIME_MS to the opponent's clock (giveTime.ts). */
  | { type: 'GIVE_TIME'; playerId: string }
  | { type: 'PLAYER_DISCONNECTED'; playerId: string }
  | { type: 'PLAYER_RECONNECTED'; playerId: string }
  /**
   * A line of the game's chat, by `playerId` (a player, or a spectator in the spectator room):
   * part of the game's record, not of its state (the step changes nothing for it).
   */
  | { type: 'CHAT'; playerId: string; line: ChatLine }
  /** The seat's player cannot go on through nobody's fault (the engine failed): a technical draw. */
  | { type: 'SEAT_FAILED'; playerId: string }
  /** Check the deadlines (the host sends it at or after `wakeAt(state)`). */
  | { type: 'WAKE' };

/** What a host measured of the mover's lag, as a move carries it. */
export type MoveLag = Pick<Extract<GameCommand, { type: 'MOVE' }>, 'lagMs' | 'unansweredPingMs'>;

/** A command with the time it arrived: what the game actor takes, and one entry of a game's log. */
export type TimedCommand = GameCommand & { at: number };

/** What a game tells its host. */
export type GameEmitted =
  | {
      type: 'moved';
      move: WireMove;
      san: string;
      fen: string;
      nextTurn: Color;
      clocks: ClocksMs;
      /** The ply number of this move (1 for the first move). */
      seq: number;
      uci: string;
      /** The side that moved. */
      by: Color;
    }
  | {
      type: 'rejected';
      playerId: string;
      reason: string;
      /** The command that was refused. */
      command: GameCommand['type'];
    }
  /**
   * What the step tells players, in the protocol's own words: `message` goes to the seat `to`,
   * or (`both`) to both players and the game's spectators; the host adds the game's id.
   */
  | { type: 'told'; to: 'both' | Color; message: GameNotice }
  | {
      type: 'ended';
      winner: Winner;
      reason: GameEndReason;
      pgn: string;
      /** Final clocks. */
      clocks: ClocksMs;
    };

/** What one command does: the next state and what to tell the host. */
export interface StepResult {
  state: GameState;
  events: readonly GameEmitted[];
}

/** Version of the log format (see GameLog). */
export const GAME_LOG_VERSION = 1;

/**
 * A game's whole truth: its input and every command it was given, with the time it arrived, in
 * order. `replay(log)` rebuilds the state from it, exactly. Version 1.
 */
export interface GameLog {
  v: typeof GAME_LOG_VERSION;
  input: GameInput;
  entries: TimedCommand[];
}
