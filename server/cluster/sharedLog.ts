/**
 * The games' durable store when several nodes share the site: every game's log in one
 * PostgreSQL table that any node can read when it takes a game over. It is written like the
 * single node's journal, with group commit: the rows gathered during one turn of the event loop
 * go in one INSERT, and what the games tell the players about them waits (afterCommit) until
 * that INSERT has committed. While one batch is being written the next one gathers.
 *
 * A row's `seq` is the entry's place in the game's log (0 = the game's input), so a node that
 * lost a game can never add to it: its row collides with the new owner's and is refused
 * (fencing). The node is told which games it lost that way and drops them.
 *
 * Games against the AI are ordinary games (one seat the engine's) and kept the same way. Logs
 * written before that hold a game against the AI as the journal's old AI records (the start, each
 * move in UCI, the end): a node reads such a log as an ordinary one (oldAiGameLog).
 *
 * Times in a log are performance.now() of the node that wrote the row; each row keeps that
 * node's time origin (wall-clock ms), so a node taking the game over moves every time into its
 * own time base.
 */
import { JOURNAL_SYNC, type JournalSync } from '../config/server';
import type { Logger } from 'pino';
import { newGameLog, shiftLog, type GameInput, type GameLog, type GameResult, type TimedCommand } from '../../machines/game';
import type { GameRecorder } from '../game/journal';
import type { JournalRecord, OldAiGame } from '../game/journalRecords';
import { oldAiGameLog } from '../game/journalRecovery';
import { GroupCommit } from '../game/groupCommit';
import type { Queryable } from '../accounts/db';
import type { FastCounter, FastHistogram } from '../http/metrics';

/** the advisory lock under which a starting node creates the table */
export const GAME_LOG_LOCK_KEY = 7_412_001;

/**
 * `sum`: a checksum of the row's game id, place and body (ROW_SUM), so that a row edited or moved
 * to another game is told from a good one (null in rows written before it existed).
 */
export const GAME_LOG_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS game_log (
  game_id text NOT NULL,
  seq integer NOT NULL,
  origin double precision NOT NULL,
  body jsonb NOT NULL,
  sum text,
  PRIMARY KEY (game_id, seq)
);
ALTER TABLE game_log ADD COLUMN IF NOT EXISTS sum text`;

/** A row's checksum, over its game id, its place in the game and its body as PostgreSQL prints it, in SQL (of a row aliased \`r\`). */
const ROW_SUM = `md5(r.game_id || ':' || r.seq || ':' || r.body::text)`;

/**
 * One batch's rows, committed with the transaction's synchronous_commit set to $5 (the level, see
 * SYNCHRONOUS_COMMIT); answers how many went in (one row back, whatever the batch's size).
 */
const INSERT_SQL = `
WITH level AS (SELECT set_config('synchronous_commit', $5, true)),
added AS (
  INSERT INTO game_log (game_id, seq, origin, body, sum)
  SELECT r.game_id, r.seq, r.origin, r.body, ${ROW_SUM} FROM unnest($1::text[], $2::int[], $3::float8[], $4::jsonb[]) AS r(game_id, seq, origin, body), level
  ON CONFLICT DO NOTHING
  RETURNING 1
)
SELECT count(*)::int AS added FROM added`;

/**
 * The shared log's two levels, as the node's journal's (GAME_JOURNAL_SYNC), per transaction:
 * `interval`: synchronous_commit off, the commit answers once its WAL is in PostgreSQL's memory
 * (visible to every node at once, so a node's kill -9 loses nothing told; a crash of PostgreSQL's
 * server loses at most 3 x wal_writer_delay, 600 ms by default); `always`: on, the commit answers
 * once its WAL is flushed (and, with synchronous standbys, replicated).
 */
const SYNCHRONOUS_COMMIT: Record<JournalSync, 'off' | 'on'> = { interval: 'off', always: 'on' };

/** Of a batch that did not all go in: the games whose rows another writer holds (other rows than ours). */
const REFUSED_SQL = `
SELECT DISTINCT g.game_id FROM unnest($1::text[], $2::int[], $4::jsonb[]) AS g(game_id, seq, body)
JOIN game_log l ON l.game_id = g.game_id AND l.seq = g.seq
WHERE l.origin <> $3 OR l.body <> g.body`;

const RETRY_AFTER_MS = 1000;

interface Row {
  game: string;
  seq: number;
  body: string;
}

export interface SharedLogMetrics {
  commitSeconds: FastHistogram;
  bytesWritten: FastCounter;
}

export class SharedGameLog implements GameRecorder {
  private readonly commits: GroupCommit<Row>;
  /** the next seq of each live game this node writes */
  private readonly nextSeq = new Map<string, number>();
  private readonly origin = performance.timeOrigin;

  constructor(
    private readonly db: Queryable,
    private readonly metrics: SharedLogMetrics,
    private readonly log: Logger,
    /** games whose rows were refused: another node owns them now */
    private readonly onFenced: (gameIds: string[]) => void,
    /** the level of its commits (default JOURNAL_SYNC) */
    private readonly sync: JournalSync = JOURNAL_SYNC,
  ) {
    this.commits = new GroupCommit<Row>(
      {
        write: (rows) => this.insert(rows),
        failed: (err, rows) => this.log.error({ err, rows: rows.length }, 'game log write failed; moves wait until it succeeds'),
        recovered: () => this.log.info('game log writes again'),
        callbackFailed: (err) => this.log.error({ err }, 'sending after a game log commit failed'),
      },
      RETRY_AFTER_MS,
    );
  }

  /** false while the last batch failed (it is retried); /healthz reports it */
  get healthy(): boolean {
    return this.commits.healthy;
  }

  started(input: GameInput): void {
    this.nextSeq.set(input.gameId, 0);
    this.add(input.gameId, { input });
  }

  /** A game taken over: its log holds `entries` commands (or AI moves), the next one is written after them. */
  adopt(gameId: string, entries: number): void {
    this.nextSeq.set(gameId, entries + 1);
  }

  /** How many rows of the game this node has written or is writing (its next seq); undefined: not a game of this node. */
  writtenOf(gameId: string): number | undefined {
    return this.nextSeq.get(gameId);
  }

  /** A game this node no longer plays. */
  forget(gameId: string): void {
    this.nextSeq.delete(gameId);
  }

  command(gameId: string, entry: TimedCommand): void {
    this.add(gameId, entry);
  }

  ended(log: GameLog, at: number, result: GameResult): void {
    this.add(log.input.gameId, { end: result, at });
    this.nextSeq.delete(log.input.gameId);
  }

  /** The archive's games row marks an archived game here: the ended games of the log without one are archived (findUnarchived). */
  archived(): void {}

  get waiting(): boolean {
    return this.commits.waiting;
  }

  afterCommit(fn: () => void): void {
    this.commits.afterCommit(fn);
  }

  /** Resolves once nothing gathered or being written is left. */
  drain(): Promise<void> {
    return this.commits.drain();
  }

  private add(game: string, body: unknown): void {
    const seq = this.nextSeq.get(game);
    if (seq === undefined) return; // not ours (dropped)
    this.nextSeq.set(game, seq + 1);
    this.commits.add({ game, seq, body: JSON.stringify(body) });
  }

  /** One INSERT for the batch; rows another node's rows already hold are refused and reported. */
  private async insert(rows: Row[]): Promise<void> {
    const began = performance.now();
    const games = rows.map((r) => r.game);
    const seqs = rows.map((r) => r.seq);
    const [{ added }] = await this.db.query<{ added: number }>(INSERT_SQL, [games, seqs, rows.map(() => this.origin), rows.map((r) => r.body), SYNCHRONOUS_COMMIT[this.sync]]);
    this.metrics.commitSeconds.observe((performance.now() - began) / 1000);
    this.metrics.bytesWritten.add(rows.reduce((n, r) => n + r.body.length, 0));
    if (added < rows.length) {
      const refused = await this.db.query<{ game_id: string }>(REFUSED_SQL, [games, seqs, this.origin, rows.map((r) => r.body)]);
      this.reportFenced(refused.map((r) => r.game_id));
    }
  }

  private reportFenced(lost: string[]): void {
    for (const g of lost) this.nextSeq.delete(g);
    this.log.error({ games: lost }, 'game log rows refused: another node owns these games now; dropping them here');
    this.onFenced(lost);
  }
}

/** A game whose log cannot be read back; its players, when its first row is readable. */
export class DamagedLogError extends Error {
  constructor(
    readonly gameId: string,
    reason: string,
    readonly players?: { white: GameInput['white']; black: GameInput['black'] },
  ) {
    super(`game ${gameId}: ${reason}`);
  }
}

/** What a node taking a game over reads: its log in this process's time base, and whether it ended (and when, in the same base). */
export interface LoadedGame {
  log: GameLog;
  result: GameResult | null;
  endedAt?: number;
}

export type LoadedLog = LoadedGame;

/**
 * The log of `gameId` (a multiplayer game) moved into this process's time base, with the time the game was not
 * played (`awayMs`) given back: the clock that was running goes on from where it stood.
 * Null when the game has no rows; throws when the rows do not make a log.
 */
export async function loadGameLog(db: Queryable, gameId: string, awayMs: number): Promise<LoadedGame | null> {
  const [loaded] = await loadGameLogs(db, [gameId], awayMs);
  if (loaded instanceof Error) throw loaded;
  return loaded;
}

/** A row that ends its game (a game's `end`; in logs of older games against the AI, `aiend`), in SQL. */
const ENDS_GAME_SQL = `(body ? 'end' OR body->>'k' = 'aiend')`;

/**
 * Whether the game's log holds its end. A node asks it of a game played elsewhere whose end its
 * owner could not record in Redis (it lost Redis as the game ended): the log is where the end is
 * written first. One row looked up by the table's key, not the log read: it is asked each time a
 * player of a game played elsewhere is refused for it.
 */
export async function loggedEnd(db: Queryable, gameId: string): Promise<boolean> {
  const [row] = await db.query<{ ended: boolean }>(`SELECT EXISTS (SELECT 1 FROM game_log WHERE game_id = $1 AND ${ENDS_GAME_SQL}) AS ended`, [gameId]);
  return row?.ended === true;
}

/** How many rows each game's log holds (its last seq + 1; a game with none is left out). */
export async function loggedRows(db: Queryable, gameIds: string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ game_id: string; rows: number }>('SELECT game_id, max(seq) + 1 AS rows FROM game_log WHERE game_id = ANY($1) GROUP BY game_id', [gameIds]);
  return new Map(rows.map((r) => [r.game_id, Number(r.rows)]));
}

/**
 * Games whose log has no end (live, or left by a node that died), each with the wall-clock ms of
 * its last row: a node that finds Redis emptied looks among them for games nobody owns.
 */
export async function unfinishedGames(db: Queryable): Promise<{ gameId: string; lastAt: number }[]> {
  const rows = await db.query<{ game_id: string; last_at: number }>(`
SELECT r.game_id, max(r.origin + COALESCE((r.body->>'at')::float8, (r.body->'input'->>'startedAt')::float8, 0)) AS last_at
FROM game_log r
WHERE NOT EXISTS (SELECT 1 FROM game_log e WHERE e.game_id = r.game_id AND ${ENDS_GAME_SQL})
GROUP BY r.game_id`);
  return rows.map((r) => ({ gameId: r.game_id, lastAt: Number(r.last_at) }));
}

type LogRow = {
  game_id: string;
  seq: number;
  origin: number;
  body: unknown;
  /** the row matches its checksum (null: a row older than the checksum) */
  intact: boolean | null;
};

/**
 * The logs of several games in one query (a node taking many games over), each as
 * loadGameLog gives it, or the DamagedLogError of a
 * game whose rows do not make a log.
 */
export async function loadGameLogs(db: Queryable, gameIds: string[], awayMs: number): Promise<(LoadedLog | null | DamagedLogError)[]> {
  const rows = await db.query<LogRow>(
    `SELECT r.game_id, r.seq, r.origin, r.body, r.sum = ${ROW_SUM} AS intact FROM game_log r WHERE r.game_id = ANY($1) ORDER BY r.game_id, r.seq`,
    [gameIds],
  );
  const byGame = new Map<string, LogRow[]>();
  for (const row of rows) {
    let mine = byGame.get(row.game_id);
    if (!mine) byGame.set(row.game_id, (mine = []));
    mine.push(row);
  }
  return gameIds.map((id) => {
    try {
      return logFromRows(id, byGame.get(id) ?? [], awayMs);
    } catch (err) {
      return err instanceof DamagedLogError ? err : new DamagedLogError(id, (err as Error).message);
    }
  });
}

function logFromRows(gameId: string, rows: LogRow[], awayMs: number): LoadedLog | null {
  if (rows.length === 0) return null;
  const bad = rows.find((r) => r.intact === false);
  if (bad) {
    const first = rows[0].intact === false ? null : rows[0].body;
    const reason = `row ${bad.seq} does not match its checksum (edited, or another game's)`;
    throw new DamagedLogError(gameId, reason, isInputBody(first) ? { white: first.input.white, black: first.input.black } : undefined);
  }
  if (isOldAiRecord(rows[0].body)) return oldAiGameFromRows(gameId, rows, awayMs);
  const here = performance.timeOrigin;
  // each row's times into this process's base: (time + writer's origin) - this origin
  const toHere = (t: number, origin: number) => t + Number(origin) - here;
  const first = rows[0];
  if (first.seq !== 0 || !isInputBody(first.body)) throw new DamagedLogError(gameId, 'the log does not begin with its input');
  const input: GameInput = { ...first.body.input, startedAt: toHere(first.body.input.startedAt, first.origin) };
  const players = { white: input.white, black: input.black };
  const entries: TimedCommand[] = [];
  let result: GameResult | null = null;
  let endedAt: number | undefined;
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i];
    if (row.seq !== i) throw new DamagedLogError(gameId, `row ${i} is missing from the log`, players);
    const body = row.body as (TimedCommand & { end?: undefined }) | { end: GameResult; at: number };
    if (body.end) {
      result = body.end;
      endedAt = toHere(body.at, row.origin) + awayMs;
      break;
    }
    entries.push({ ...(body as TimedCommand), at: toHere((body as TimedCommand).at, row.origin) });
  }
  return { log: shiftLog({ ...newGameLog(input), entries }, awayMs), result, ...(endedAt !== undefined ? { endedAt } : {}) };
}

function isInputBody(body: unknown): body is { input: GameInput } {
  return typeof body === 'object' && body !== null && 'input' in body;
}

type OldAiRecord = Extract<JournalRecord, { k: 'ai' | 'aimove' | 'aiend' }>;

function isOldAiRecord(body: unknown): body is OldAiRecord {
  const k = typeof body === 'object' && body !== null && 'k' in body ? body.k : undefined;
  return k === 'ai' || k === 'aimove' || k === 'aiend';
}

/**
 * A game against the AI as logs written before such games were ordinary kept it (its start, its
 * moves in UCI, maybe its end), read as an ordinary game log: a live one goes on from now (its
 * rows hold no times). One that ended was archived at its end: there is nothing to do for it.
 */
function oldAiGameFromRows(gameId: string, rows: LogRow[], awayMs: number): LoadedGame | null {
  const first = rows[0].body;
  if (rows[0].seq !== 0 || !isOldAiRecord(first) || first.k !== 'ai') throw new DamagedLogError(gameId, 'the log does not begin with its input');
  const ai: OldAiGame = { gameId, playerId: first.playerId, playerColor: first.playerColor, difficulty: first.difficulty, moves: [] };
  for (let i = 1; i < rows.length; i++) {
    const { seq, body } = rows[i];
    if (seq !== i) throw new DamagedLogError(gameId, `row ${i} is missing from the log`);
    if (!isOldAiRecord(body) || body.k === 'ai') throw new DamagedLogError(gameId, `row ${i} is not a move of the game`);
    if (body.k === 'aiend') return null;
    ai.moves.push(body.uci);
  }
  return { log: oldAiGameLog(ai, performance.now() - awayMs), result: null };
}
