/**
 * The shapes the server expects from the game and matchmaking machines (machines/game/README.md),
 * written down here so the wrapper code states exactly what it relies on.
 */
import type { ClocksMs, Color, CurrentState, GameEndReason, WireMove, Winner } from '../../machines/protocol/messages';

export interface Seat {
  id: string;
  name: string;
}

export interface GameInput {
  gameId: string;
  white: Seat;
  black: Seat;
  clockMs: number;
  firstMoveDeadlineMs?: number;
  graceMs?: { guest: number; account: number } | number;
  lag?: { perMoveCapMs: number; initialBankMs: number; bankCapMs: number };
  now?: () => number;
  /** test-only start position, when the machine supports it */
  startFen?: string;
  accountIds?: string[];
  /** false: the machine emits no per-second `clock` events; the server ticks all games itself */
  clockEvents?: boolean;
}

export type GameCommand =
  | { type: 'MOVE'; playerId: string; move: WireMove; lagMs?: number }
  | { type: 'RESIGN'; playerId: string }
  | { type: 'OFFER_DRAW' | 'ACCEPT_DRAW' | 'DECLINE_DRAW'; playerId: string }
  | { type: 'PLAYER_DISCONNECTED' | 'PLAYER_RECONNECTED'; playerId: string }
  | { type: 'WAKE' };

export type GameEmitted =
  | { type: 'moved'; move: WireMove; san: string; fen: string; nextTurn: Color; clocks: ClocksMs; seq: number }
  | { type: 'rejected'; playerId: string; reason: string }
  | { type: 'clock'; clocks: ClocksMs }
  | { type: 'drawOffered'; by: Color }
  | { type: 'drawDeclined'; by: Color }
  | { type: 'opponentDisconnected'; color: Color; graceMs: number }
  | { type: 'opponentReconnected'; color: Color }
  | { type: 'ended'; winner: Winner; reason: GameEndReason; pgn: string };

export type MatchmakingCommand = { type: 'JOIN'; playerId: string; name: string } | { type: 'LEAVE'; playerId: string };

export type MatchmakingEmitted =
  | { type: 'paired'; white: Seat; black: Seat }
  | { type: 'queued'; playerId: string }
  | { type: 'left'; playerId: string };

export type { CurrentState };
