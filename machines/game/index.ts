/**
 * The multiplayer game core: a pure step, the XState actor that runs it, the log that replays
 * it, and the helpers hosts and clients read a game with. The client imports the step from
 * './step' and the display and clock helpers from their own files, without the log and the actor.
 */
export { createGame, step, gamePgn } from './step';
export { gameLogic, type GameActor } from './actor';
export { newGameLog, replay, clockHistory, chatOf, logPgn, shiftLog, lastLogTime, timedCommand } from './log';
export { rejoinState, uciToWireMove } from './rejoin';
export { clocksAt, clockRunning, flagGraceMs, creditLag, runningClocks, wakeAt, withIncrement } from './clock';
export {
  DEFAULT_TIME_CONTROL,
  POOLS,
  SPEEDS,
  SPEED_NAMES,
  clockOf,
  estimatedSeconds,
  isRequestable,
  parseTimeControl,
  sameTimeControl,
  speedOf,
  timeControlKey,
  timeControlName,
  timeControlOf,
  gameTimeControl,
  timeControlText,
} from './timeControl';
export type { Speed, TimeControl } from './timeControl';
export { formatClock, timerSeconds, toTimers, REASON_LABELS, reasonLabel, outcomeFor, opposite } from './display';
export type { Outcome } from './display';
export { REJECTION } from './reasons';
export { playsAsGuest } from './settings';
export { takebacksByDefault, takebackRefusal } from './takeback';
export * as GAME_DEFAULTS from './defaults';
export { GAME_LOG_VERSION } from './types';
export type {
  ChatLine,
  ClocksMs,
  Color,
  GameCommand,
  GameEmitted,
  GameNotice,
  GameEndReason,
  GameInput,
  GameLog,
  GameResult,
  GameSettings,
  GameState,
  LagSettings,
  MoveLag,
  Seat,
  StepResult,
  TimedCommand,
  WireMove,
  Winner,
} from './types';
