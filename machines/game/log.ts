/**
 * A game's log and what is derived from it. The log (GameLog, version 1) is the input the game
 * was created from and every command it was given with the time it arrived, in order:
 *
 *   { "v": 1,
 *     "input": { "gameId": "…", "white": {…}, "black": {…}, "startedAt": 1234.5, … },
 *     "entries": [ { "at": 1301.2, "type": "MOVE", "playerId": "…", "move": { "from": "e2", "to": "e4" } }, … ] }
 *
 * Replaying it with the pure step gives the game's state exactly (the same JSON), so the log is
 * all a game needs to be stored, moved to another process or archived.
 */
import { gamePgn, createGame, step } from './step';
import { GAME_LOG_VERSION, type ChatLine, type ClocksMs, type GameCommand, type GameInput, type GameLog, type GameState, type TimedCommand } from './types';

/**
 * `command` stamped with the time it arrived: the entry a host logs and sends to the game actor.
 * `at` comes first on purpose. V8 (Node 20) gives every object made as `{ ...command, at }` a
 * hidden class of its own, so each later read of a command (the step, the actor, the journal's
 * encoder) missed V8's inline caches, and each logged entry kept a class of its own in memory.
 * Made this way, every command of a kind shares one class (tests/machines/gameLog.test.ts checks it).
 */
export function timedCommand(command: GameCommand, at: number): TimedCommand {
  return { at, ...command };
}

/** An empty log for a game created from `input`. */
export function newGameLog(input: GameInput): GameLog {
  return { v: GAME_LOG_VERSION, input, entries: [] };
}

function checkVersion(log: GameLog): void {
  if (!log || log.v !== GAME_LOG_VERSION) throw new TypeError(`game log: version ${String(log?.v)} is not supported (expected ${GAME_LOG_VERSION})`);
}

/** Feeds every entry to `visit` with the state before and after it; returns the last state. */
function fold(log: GameLog, visit?: (entry: TimedCommand, after: ReturnType<typeof step>) => void): GameState {
  checkVersion(log);
  let state = createGame(log.input);
  for (const entry of log.entries) {
    const result = step(state, entry, entry.at);
    visit?.(entry, result);
    state = result.state;
  }
  return state;
}

/** The state the log's commands lead to. */
export function replay(log: GameLog): GameState {
  return fold(log);
}

/** Both clocks right after each move of the game (index 0 = after ply 1), as the players were told them; a takeback drops its moves' entries. */
export function clockHistory(log: GameLog): ClocksMs[] {
  const history: ClocksMs[] = [];
  fold(log, (_entry, { events }) => {
    for (const e of events) {
      if (e.type === 'moved') history.push(e.clocks);
      else if (e.type === 'told' && e.message.type === 'takeback') history.length = e.message.seq;
    }
  });
  return history;
}

/** The lines of the game's chat said in `room` (both rooms when none), oldest first (the last `last` of them when given). */
export function chatOf(log: GameLog, room?: ChatLine['room'], last = Number.POSITIVE_INFINITY): ChatLine[] {
  const lines: ChatLine[] = [];
  for (const e of log.entries) if (e.type === 'CHAT' && (room === undefined || e.line.room === room)) lines.push(e.line);
  return lines.length > last ? lines.slice(lines.length - last) : lines;
}

/** The game's PGN, with its result and termination once it is over. */
export function logPgn(log: GameLog): string {
  return gamePgn(replay(log));
}

/**
 * The same log in another time base: every time in it (the start and each entry's `at`) moved by
 * `deltaMs`. A host that resumes a game in a new process (whose monotonic clock starts again at
 * zero) moves the log so that its last known instant becomes "now": the time the host was away
 * counts for neither side, and the moved log replays to the same game with its times moved.
 */
export function shiftLog(log: GameLog, deltaMs: number): GameLog {
  checkVersion(log);
  if (!Number.isFinite(deltaMs)) throw new RangeError(`game log: cannot shift by ${deltaMs} ms`);
  return {
    v: log.v,
    input: { ...log.input, startedAt: log.input.startedAt + deltaMs },
    entries: log.entries.map((e) => ({ ...e, at: e.at + deltaMs })),
  };
}

/** The latest time the log mentions (its start or its last entry). */
export function lastLogTime(log: GameLog): number {
  return log.entries.reduce((t, e) => Math.max(t, e.at), log.input.startedAt);
}
