/**
 * The multiplayer game machine and its helpers (machines/game/README.md).
 * The client may import the pure helpers from './display' alone.
 */
export { gameMachine, drivenGameMachine, defaultNow, type GameTiming } from './gameMachine';
export { serverGameMachine } from './directMoves';
export { snapshotForRejoin, uciToWireMove } from './rejoin';
export { clocksAt, clockRunning, flagGraceMs, creditLag, wakeAt } from './clock';
export { formatClock, timerSeconds, toTimers, REASON_LABELS, reasonLabel, outcomeFor, opposite } from './display';
export type { Outcome } from './display';
export { REJECTION } from './reasons';
export * as GAME_DEFAULTS from './defaults';
export type {
  ClocksMs,
  Color,
  GameContext,
  GameEmitted,
  GameEndReason,
  GameEvent,
  GameInput,
  GameOutput,
  GameResult,
  GameSettings,
  LagSettings,
  Seat,
  WireMove,
  Winner,
} from './types';
