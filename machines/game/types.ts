/**
 * Types of the game machine: its input, context, events in and events out.
 * machines/game/README.md; additive fields are marked.
 */
import type { ClocksMs, Color, GameEndReason, WireMove, Winner } from '../protocol/messages';

export type { ClocksMs, Color, GameEndReason, WireMove, Winner };

export interface Seat {
  id: string;
  name: string;
}

export interface LagSettings {
  /** Most lag credited to one move. */
  perMoveCapMs: number;
  /** Bank each side starts with. */
  initialBankMs: number;
  /** The bank never grows above this. */
  bankCapMs: number;
  /** additive: added back to the mover's bank after each timed move (lichess "quota gain"). */
  refillPerMoveMs?: number;
}

export interface GameInput {
  gameId: string;
  white: Seat;
  black: Seat;
  /** Per side; default 600 000 (docs/product.md). */
  clockMs?: number;
  /** Per side's first move; default 30 000 (docs/product.md). */
  firstMoveDeadlineMs?: number;
  /**
   * Disconnect grace. A number applies to both players; otherwise a player whose id is in
   * `accountIds` gets `account`, everyone else `guest`. Default lichess 10+0: 80 s / 40 s.
   */
  graceMs?: { guest: number; account: number } | number;
  /** Lag compensation quota; missing fields take the defaults (docs/product.md). */
  lag?: Partial<LagSettings>;
  /** additive: ids of players signed in with an account (for the grace period). */
  accountIds?: string[];
  /** additive: start position (tests, puzzles); default the standard start position. */
  startFen?: string;
  /** additive: maximum game length in plies before a draw; default 600 (docs/product.md). */
  maxPlies?: number;
  /**
   * additive: emit `clock` once per second while a clock runs (default true). A server with
   * thousands of games may turn it off and tick all games from one interval with `clocksAt`;
   * the machine then wakes only for the flag and the disconnect grace.
   */
  clockEvents?: boolean;
  /** Monotonic milliseconds (the server passes performance.now). Default performance.now. */
  now?: () => number;
}

export interface GameSettings {
  clockMs: number;
  firstMoveDeadlineMs: number;
  graceMs: ClocksMs;
  lag: Required<LagSettings>;
  maxFlagGraceMs: number;
  maxPlies: number;
  drawOfferIntervalPlies: number;
  clockEvents: boolean;
}

export interface GameResult {
  winner: Winner;
  reason: GameEndReason;
}

/** Everything the machine knows; JSON-serialisable (no functions, no class instances). */
export interface GameContext {
  gameId: string;
  white: Seat;
  black: Seat;
  settings: GameSettings;
  startFen: string;
  /** The moves played, as UCI ('e2e4', 'e7e8q'); a ChessGame is rebuilt from startFen + moves. */
  moves: string[];
  /** Position after the last move. */
  fen: string;
  turn: Color;
  /**
   * Remaining time per side: for the side to move, as of `turnStartedAt` (it is running down
   * since then once the clocks have started); for the other side, final until its next turn.
   */
  clocks: ClocksMs;
  /** now() when the current turn began (game start, then each move). */
  turnStartedAt: number;
  /** Whole seconds of the current turn already reported by a `clock` event. */
  tickIndex: number;
  /** Lag compensation bank per side. */
  lagBank: ClocksMs;
  /** The side whose draw offer is pending, if any. */
  drawOffer: Color | null;
  /** Ply count at each side's last draw offer (for the once-per-20-plies limit). */
  lastDrawOfferPly: { white: number | null; black: number | null };
  /** Players the server reported as disconnected. */
  away: { white: boolean; black: boolean };
  /** Grace already used by each side in its current absence. */
  graceUsed: ClocksMs;
  /** Grace currently running down: for whom and since when. */
  graceCount: { color: Color; since: number } | null;
  /** Set when the game is decided; the machine then goes to its final state. */
  result: GameResult | null;
}

export type GameEvent =
  | { type: 'MOVE'; playerId: string; move: WireMove; lagMs?: number }
  | { type: 'RESIGN'; playerId: string }
  | { type: 'OFFER_DRAW'; playerId: string }
  | { type: 'ACCEPT_DRAW'; playerId: string }
  | { type: 'DECLINE_DRAW'; playerId: string }
  | { type: 'PLAYER_DISCONNECTED'; playerId: string }
  | { type: 'PLAYER_RECONNECTED'; playerId: string }
  /** additive: check the deadlines now (the runner of a 'driven' machine sends it at `wakeAt`). */
  | { type: 'WAKE' };

export type GameEmitted =
  | {
      type: 'moved';
      move: WireMove;
      san: string;
      fen: string;
      nextTurn: Color;
      clocks: ClocksMs;
      /** The ply number of this move (1 for the first move): moves are the events a client must not miss. */
      seq: number;
      /** additive */
      uci: string;
      /** additive: the side that moved */
      by: Color;
    }
  | {
      type: 'rejected';
      playerId: string;
      reason: string;
      /** additive: the command that was refused */
      command: GameEvent['type'];
    }
  | {
      type: 'clock';
      clocks: ClocksMs;
      /** additive: whose clock is running */
      turn: Color;
    }
  | { type: 'drawOffered'; by: Color }
  | {
      type: 'drawDeclined';
      by: Color;
      /** additive: true when the offer lapsed because its receiver moved instead of answering */
      implicit?: boolean;
    }
  | { type: 'opponentDisconnected'; color: Color; graceMs: number }
  | { type: 'opponentReconnected'; color: Color }
  | {
      type: 'ended';
      winner: Winner;
      reason: GameEndReason;
      pgn: string;
      /** additive: final clocks */
      clocks: ClocksMs;
    };

export type GameOutput = GameResult;
