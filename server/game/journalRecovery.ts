/**
 * Reading a node's game journal back after a restart, and compacting it: which games were live
 * (their logs), which ended and are not yet archived, which records are damaged (and whose), and
 * the node's last sign of life. docs/operations.md (Durability) describes the rules.
 */
import type { GameLog, GameResult, Seat } from '../../machines/game';
import { newGameLog, replay, timedCommand } from '../../machines/game';
import { engineSeat } from '../../machines/ai/index';
import { uciToWireMove } from '../../machines/game/rejoin';
import { DEFAULT_IDLE_MS } from '../config/ai';
import { decodeLine, type OldAiGame } from './journalRecords';

export interface DamagedGame {
  gameId: string;
  reason: string;
  /** the players, when the game's start record is readable (to tell them it was aborted) */
  white?: Seat;
  black?: Seat;
}

/** An ended game as the journal keeps it until it is archived; `at` is its end, in the log's time base. */
export interface EndedLog {
  log: GameLog;
  result: GameResult;
  at: number;
}

export interface RecoveredJournal {
  /** games without an end record, in the journal's time base (older journals' games against the AI among them, as ordinary logs) */
  live: GameLog[];
  /** games with an end record and no archived record: the archive has yet to store them */
  unarchived: EndedLog[];
  /** games with a damaged record or a log that does not replay: reported and aborted */
  damaged: DamagedGame[];
  /** damaged records naming no game */
  unreadable: { line: number; reason: string }[];
  /** the game whose last record was cut off by a crash (never acknowledged, so dropped), if any */
  tornTail: { gameId: string | null } | null;
  /** the latest time the journal mentions: the node was alive until at least then */
  lastAliveAt: number;
}

interface Gathered {
  log: GameLog | null;
  result: GameResult | null;
  endedAt: number;
  archived: boolean;
  damage: string | null;
  /** whether a whole record names the game (a game named only by damaged records may be none: its id may be the damage) */
  named: boolean;
  /** the first damaged record naming it: line and reason */
  damagedLine: { line: number; reason: string } | null;
}

/**
 * The records of the journal's text: all of it up to the first zero byte. After them come the
 * zeros written ahead (journal.ts, PREALLOCATE_BYTES); whatever a write cut short by a crash left
 * among them was never acknowledged.
 */
export function recordsOf(text: string): string {
  const end = text.indexOf('\0');
  return end < 0 ? text : text.slice(0, end);
}

/** The journal's text, read back. Never throws on bad content: damage is reported in the result. */
export function readJournal(text: string): RecoveredJournal {
  const lines = recordsOf(text).split('\n');
  // A last piece without its newline is a write the crash cut short; it was never acknowledged.
  const tail = lines.pop() ?? '';
  const tornTail = tail.length > 0 ? { gameId: recordGameId(tail) } : null;
  const games = new Map<string, Gathered>();
  const aiGames = new Map<string, OldAiGame | null>(); // null: ended
  const unreadable: RecoveredJournal['unreadable'] = [];
  let lastAliveAt = Number.NEGATIVE_INFINITY;
  const gameOf = (id: string): Gathered => {
    let g = games.get(id);
    if (!g) games.set(id, (g = { log: null, result: null, endedAt: 0, archived: false, damage: null, named: false, damagedLine: null }));
    return g;
  };
  /** A whole record of the game; its place must follow the game's last one (a hole: a record missing, or another game's). */
  const recordOf = (id: string, n: number | undefined, line: number): Gathered => {
    const g = gameOf(id);
    g.named = true;
    const expected = g.log ? g.log.entries.length + 1 : null;
    if (n !== undefined && expected !== null && !g.result && n !== expected) {
      g.damage ??= `line ${line}: record ${n} of the game where ${expected} was due (a record is missing or belongs to another game)`;
    }
    return g;
  };
  lines.forEach((line, i) => {
    if (line.length === 0) return;
    const d = decodeLine(line);
    if (!d.ok) {
      if (d.gameId) {
        const g = gameOf(d.gameId);
        g.damage ??= `line ${i + 1}: ${d.reason}`;
        g.damagedLine ??= { line: i + 1, reason: d.reason };
      } else unreadable.push({ line: i + 1, reason: d.reason });
      return;
    }
    const r = d.record;
    switch (r.k) {
      case 'alive':
        lastAliveAt = Math.max(lastAliveAt, r.at);
        return;
      case 'start': {
        const g = recordOf(r.input.gameId, undefined, i + 1);
        if (g.log) g.damage ??= `line ${i + 1}: second start record`;
        else g.log = newGameLog(r.input);
        lastAliveAt = Math.max(lastAliveAt, r.input.startedAt);
        return;
      }
      case 'cmd': {
        const g = recordOf(r.g, r.n, i + 1);
        if (!g.log) g.damage ??= `line ${i + 1}: command before the game's start record`;
        else if (g.result) g.damage ??= `line ${i + 1}: command after the game's end`;
        else g.log.entries.push(r.e);
        lastAliveAt = Math.max(lastAliveAt, r.e.at);
        return;
      }
      case 'end': {
        const g = recordOf(r.g, r.n, i + 1);
        g.result = r.result;
        g.endedAt = r.at;
        lastAliveAt = Math.max(lastAliveAt, r.at);
        return;
      }
      case 'archived':
        recordOf(r.g, undefined, i + 1).archived = true;
        return;
      case 'ai':
        aiGames.set(r.g, { gameId: r.g, playerId: r.playerId, playerColor: r.playerColor, difficulty: r.difficulty, moves: [] });
        return;
      case 'aimove': {
        const ai = aiGames.get(r.g);
        if (ai) ai.moves.push(r.uci);
        else if (ai === undefined) recordOf(r.g, undefined, i + 1).damage ??= `line ${i + 1}: move before the AI game's start record`;
        return;
      }
      case 'aiend':
        aiGames.set(r.g, null);
        return;
    }
  });
  const out: RecoveredJournal = { live: [], unarchived: [], damaged: [], unreadable, tornTail, lastAliveAt };
  for (const [gameId, ai] of aiGames) {
    if (games.get(gameId)?.damage || !ai) continue; // reported below, or over
    const log = oldAiGameLog(ai, Number.isFinite(lastAliveAt) ? lastAliveAt : 0);
    const problem = replayProblem(log);
    if (problem) out.damaged.push({ gameId, reason: `game against the AI of an older journal ${problem}`, white: log.input.white, black: log.input.black });
    else out.live.push(log);
  }
  for (const [gameId, g] of games) {
    // named by damaged records only: the id read from them may be the damage; not a game to end
    if (!g.named && !aiGames.has(gameId) && g.damagedLine) {
      unreadable.push({ line: g.damagedLine.line, reason: `${g.damagedLine.reason} (it names ${gameId}, which no whole record names)` });
      continue;
    }
    // archived: the archive holds it, whatever the journal still has of it
    if (g.archived && g.result) continue;
    const damage = g.damage ?? (g.log ? replayProblem(g.log) : 'no start record');
    if (damage) {
      out.damaged.push({ gameId, reason: damage, ...(g.log ? { white: g.log.input.white, black: g.log.input.black } : {}) });
    } else if (g.log && g.result) {
      out.unarchived.push({ log: g.log, result: g.result, at: g.endedAt });
    } else if (g.log) {
      out.live.push(g.log);
    }
  }
  return out;
}

/**
 * A game against the AI from an older journal as an ordinary game log: the player's seat and the
 * engine's, no clock (each move within the idle limit, as those games had), its moves played
 * in turn at `at` (those records kept no times).
 */
export function oldAiGameLog(ai: OldAiGame, at: number): GameLog {
  const player: Seat = { id: ai.playerId, name: 'Player' };
  const engine = engineSeat(ai.gameId, ai.difficulty);
  const [white, black] = ai.playerColor === 'white' ? [player, engine] : [engine, player];
  const log = newGameLog({
    gameId: ai.gameId,
    white,
    black,
    startedAt: at,
    clockMs: DEFAULT_IDLE_MS,
    untimed: true,
    firstMoveDeadlineMs: DEFAULT_IDLE_MS,
  });
  ai.moves.forEach((uci, i) => log.entries.push(timedCommand({ type: 'MOVE', playerId: i % 2 === 0 ? white.id : black.id, move: uciToWireMove(uci) }, at)));
  return log;
}

/** The game a line speaks of, whole or damaged, if it names one. */
function recordGameId(line: string): string | null {
  const d = decodeLine(line);
  if (!d.ok) return d.gameId;
  const r = d.record;
  return r.k === 'start' ? r.input.gameId : r.k === 'alive' ? null : r.g;
}

/** Why a log cannot be replayed, or null when it can. */
function replayProblem(log: GameLog): string | null {
  try {
    replay(log);
    return null;
  } catch (err) {
    return `does not replay: ${(err as Error).message}`;
  }
}
