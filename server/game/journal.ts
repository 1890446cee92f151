/**
 * The node's game journal: every live game's log (its start, each timed command, its end) in
 * one file written front to back, DATA_DIR/games/journal, with group commit (groupCommit.ts),
 * into space filled with zeros ahead of the records (see PREALLOCATE_BYTES). What the games tell
 * the players about a batch of records waits (afterCommit) until the batch is written. How far
 * "written" goes is the sync mode (JournalSync, GAME_JOURNAL_SYNC):
 * - `interval` (the default): the records gathered in one turn of the event loop go to the
 *   operating system in one plain write (the page cache) before anybody is told of them, so a
 *   crash of the process loses nothing any player saw; an fdatasync runs off the move path every
 *   sync interval, so a crash of the machine loses at most that long.
 * - `always`: records gathered for the commit window go to the file in one synced write
 *   (O_DSYNC: it returns once the data is on disk, as a write and an fdatasync would) before
 *   anybody is told of them, so no player is ever told of a move the disk does not hold.
 * While one batch is being written the next one gathers. At start the journal is read back, its live games
 * are moved into the new process's time base, and it is compacted: an ended game stays in it
 * until the archive has committed its row and rating (an `archived` record; the journal is the
 * archive's outbox), damaged ones are reported,
 * and a fresh journal holds only the live games. docs/operations.md (Durability) says why a
 * journal file and how it behaves.
 */
import { COMMIT_WINDOW_MS, JOURNAL_SYNC, SYNC_INTERVAL_MS, type JournalSync } from '../config/server';

export type { JournalSync };
import { constants, fstatSync, statSync, closeSync, fdatasync, mkdirSync, openSync, readFileSync, renameSync, write, writeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { shiftLog, type GameInput, type GameLog, type GameResult, type TimedCommand } from '../../machines/game';
import type { FastCounter, FastHistogram } from '../http/metrics';
import { nodeReplaceStepsSync, replaceFileSync } from '../storage/replaceFile';
import { GroupCommit } from './groupCommit';
import { encodeRecord, type JournalRecord } from './journalRecords';
import { readJournal, type DamagedGame, type EndedLog } from './journalRecovery';

/** What the games tell their durable store; `afterCommit` runs a function once all told so far is on disk. */
export interface GameRecorder {
  started(input: GameInput): void;
  /** `seq`: the entry's place in the game's log (1 for its first command; 0 is its start) */
  command(gameId: string, entry: TimedCommand, seq: number): void;
  /** the game's whole log (its end's place in it follows its last entry); kept until `archived` */
  ended(log: GameLog, at: number, result: GameResult): void;
  /** the ended game's archive row (and rating) is committed: the store may forget it */
  archived(gameId: string): void;
  afterCommit(fn: () => void): void;
  /** true while something recorded is not yet on disk (afterCommit would wait) */
  readonly waiting: boolean;
  /** false while the store cannot write (a full or failing disk, a database away): the games refuse commands meanwhile */
  readonly healthy: boolean;
}

/** What the journal's compaction rewrites: every live game's log. */
export interface LiveLogs {
  games(): Iterable<GameLog>;
}

/** The recorder of a server without durable games: everything is "committed" at once. */
export const NO_RECORDER: GameRecorder = {
  started() {},
  command() {},
  ended() {},
  archived() {},
  afterCommit: (fn) => fn(),
  waiting: false,
  healthy: true,
};

export interface JournalMetrics {
  commitSeconds: FastHistogram;
  bytesWritten: FastCounter;
  /** the interval mode's fdatasync, each */
  syncSeconds: FastHistogram;
}

/** How often a node with live games writes a sign of life (the most time away it may give back too much). */
export const ALIVE_EVERY_MS = 1000;
/** The journal is compacted (rewritten with the live games only) once it has grown past this. */
export const COMPACT_AT_BYTES = 64 * 1024 * 1024;
const RETRY_AFTER_MS = 1000;

/**
 * The journal's file is kept longer than its records, by up to this many zero bytes written ahead
 * of them. A synced write into space the file already has on disk changes none of the file's
 * metadata (its size, its blocks), so the sync writes the data alone; a synced append must also
 * write the file's new size. PostgreSQL fills its WAL files with zeros ahead of use for the same
 * reason. `npm run bench:journal` measures both: a 3 KB synced write took 302 µs and 111 µs of
 * system time as an append, 184 µs and 62 µs over zeros already on disk (BENCHMARKS.md, "The
 * journal's levels and a restart"). A batch that does not fit carries
 * the next stretch of zeros in its own write. The records end at the first zero byte: a record
 * never holds one (its JSON escapes it).
 */
export const PREALLOCATE_BYTES = 1024 * 1024;

/** How the journal writes a batch at a position of its file: node:fs's `write`, with the arguments it uses. */
export type JournalWrite = (
  fd: number,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
  done: (err: NodeJS.ErrnoException | null, written: number) => void,
) => void;

/**
 * The file calls of the journal's batches: node:fs's by default. Tests give calls that fail,
 * stop short, or forget what was not synced (a power loss).
 */
export interface JournalDisk {
  /** the `always` mode's write (the file is opened with O_DSYNC), on libuv's thread pool */
  write: JournalWrite;
  /** the `interval` mode's write into the page cache, on the event loop; returns how much it wrote */
  writeSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  /** the `interval` mode's sync, off the move path */
  fdatasync(fd: number, done: (err: NodeJS.ErrnoException | null) => void): void;
}

const NODE_DISK: JournalDisk = { write, writeSync, fdatasync };

/** How the journal writes: when it is compacted, how far a batch goes before the players are told, and with what. */
export interface JournalOptions {
  /** default COMPACT_AT_BYTES (tests make it small) */
  compactAtBytes?: number;
  /** default JOURNAL_SYNC */
  sync?: JournalSync;
  /** the `interval` mode's sync interval, ms; default SYNC_INTERVAL_MS */
  syncIntervalMs?: number;
  /** the `always` mode's commit window; default COMMIT_WINDOW_MS */
  commitWindowMs?: number;
  /** default node:fs's calls */
  disk?: Partial<JournalDisk>;
  /** false when the journal on disk is not freshly compacted (openGameJournal could not): see mustCompact */
  compacted?: boolean;
}

/** The batch being written, and how far: a failed write's retry goes on from where it stopped. */
interface BatchWrite {
  batch: string[];
  /** the batch's records, then zeros when the file needs more room (PREALLOCATE_BYTES) */
  bytes: Buffer;
  /** how many of `bytes` are records */
  records: number;
  /** where in the file `bytes` go: the end of the records before them */
  at: number;
  written: number;
  /** when its first attempt began (performance.now()), for commitSeconds */
  began: number;
}

export class GameJournal implements GameRecorder {
  private readonly commits: GroupCommit<string>;
  private writing: BatchWrite | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;
  private readonly aliveTimer: NodeJS.Timeout;
  /** ended games not yet archived: compaction keeps them (the archive's outbox) */
  private readonly unarchived = new Map<string, EndedLog>();
  private fd: number;
  /** the journal's records' size (bytes), and the size past which it is compacted */
  private size: number;
  private compactAt: number;
  /** the file's size: its records, then zeros written ahead of them */
  private fileSize: number;
  private readonly disk: JournalDisk;
  private readonly sync: JournalSync;
  /** the interval mode's: how much of the records is synced, whether a sync is under way, and whether the last one worked */
  private syncedSize: number;
  private syncing = false;
  private syncHealthy = true;
  private readonly syncTimer: NodeJS.Timeout | null;
  /** the start could not compact the journal (a full disk): nothing is written before a compaction works */
  private mustCompact: boolean;

  constructor(
    private readonly dir: string,
    private readonly metrics: JournalMetrics,
    private readonly log: Logger,
    private readonly liveLogs: LiveLogs,
    options: JournalOptions = {},
  ) {
    this.sync = options.sync ?? JOURNAL_SYNC;
    // a journal just compacted (openGameJournal), so synced: records only, no zeros yet
    this.fd = openForWriting(journalFile(dir), this.sync);
    this.size = fstatSync(this.fd).size;
    this.syncedSize = this.size;
    this.fileSize = this.size;
    this.compactAt = options.compactAtBytes ?? COMPACT_AT_BYTES;
    this.disk = { ...NODE_DISK, ...options.disk };
    this.mustCompact = options.compacted === false;
    this.commits = new GroupCommit<string>(
      {
        write: (batch) => this.write(batch),
        failed: (err) => this.log.error({ err, bytes: this.writing?.bytes.length, offset: this.writing?.written }, 'game journal write failed; moves wait until it succeeds'),
        recovered: () => this.log.info('game journal writes again'),
        callbackFailed: (err) => this.log.error({ err }, 'sending after a journal commit failed'),
      },
      RETRY_AFTER_MS,
      this.sync === 'always' ? (options.commitWindowMs ?? COMMIT_WINDOW_MS) : 0,
    );
    this.syncTimer = this.sync === 'interval' ? setInterval(() => this.syncWritten(), options.syncIntervalMs ?? SYNC_INTERVAL_MS) : null;
    this.syncTimer?.unref();
    this.aliveTimer = setInterval(() => {
      if (!isEmpty(this.liveLogs.games())) this.add({ k: 'alive', at: performance.now() });
    }, ALIVE_EVERY_MS);
    this.aliveTimer.unref();
    // a first batch, so that the compaction the start could not do is tried (again every second) at once
    if (this.mustCompact) this.add({ k: 'alive', at: performance.now() });
  }

  /** false while the last write or sync failed (it is retried); /healthz reports it, and the games refuse commands meanwhile */
  get healthy(): boolean {
    return this.commits.healthy && this.syncHealthy && !this.mustCompact;
  }

  started(input: GameInput): void {
    this.add({ k: 'start', input });
  }

  command(gameId: string, entry: TimedCommand, seq: number): void {
    this.add({ k: 'cmd', g: gameId, n: seq, e: entry });
  }

  ended(log: GameLog, at: number, result: GameResult): void {
    this.unarchived.set(log.input.gameId, { log, result, at });
    this.add({ k: 'end', g: log.input.gameId, n: log.entries.length + 1, at, result });
  }

  /** An ended game from the journal read at start, still to archive: kept by compactions until archived. */
  keepUnarchived(ended: EndedLog): void {
    this.unarchived.set(ended.log.input.gameId, ended);
  }

  archived(gameId: string): void {
    if (!this.unarchived.delete(gameId)) return;
    this.add({ k: 'archived', g: gameId });
  }

  get waiting(): boolean {
    return this.commits.waiting;
  }


  afterCommit(fn: () => void): void {
    this.commits.afterCommit(fn);
  }

  private add(record: JournalRecord): void {
    if (this.closed) return;
    this.commits.add(encodeRecord(record));
  }

  /**
   * A batch's first attempt compacts the journal instead when it has grown past its size (the
   * live logs hold the batch's records too); otherwise, and on a retry, the batch is written.
   */
  private write(batch: string[]): Promise<void> {
    if (this.mustCompact) {
      // the journal on disk is the last process's (its start could not compact it): nothing goes after it
      const failed = this.compact();
      return failed ? Promise.reject(failed) : Promise.resolve();
    }
    if (this.writing?.batch !== batch) {
      if (this.size >= this.compactAt && this.compact() === null) return Promise.resolve();
      const records = Buffer.from(batch.join(''));
      const bytes = this.size + records.length <= this.fileSize ? records : followedByZeros(records);
      this.writing = { batch, bytes, records: records.length, at: this.size, written: 0, began: performance.now() };
    }
    return this.writeBatch(this.writing);
  }

  /** The batch into the file: synced (`always`), or into the page cache at once (`interval`). */
  private writeBatch(a: BatchWrite): Promise<void> {
    if (this.sync === 'always') return new Promise((resolve, reject) => this.writeFrom(a, resolve, reject));
    try {
      while (a.written < a.bytes.length) a.written += this.disk.writeSync(this.fd, a.bytes, a.written, a.bytes.length - a.written, a.at + a.written);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    this.wroteBatch(a);
    return Promise.resolve();
  }

  /**
   * The interval mode's sync of what is written, off the move path (on libuv's thread pool); one
   * at a time. A failed sync is logged and turns the journal unhealthy until one works again.
   */
  private syncWritten(): void {
    if (this.syncing || this.syncedSize >= this.size) return;
    const fd = this.fd;
    const upTo = this.size;
    const began = performance.now();
    this.syncing = true;
    this.disk.fdatasync(fd, (err) => {
      this.syncing = false;
      // a compaction in the meantime replaced the file by a synced one
      if (fd !== this.fd) return;
      if (err) {
        if (this.syncHealthy) this.log.error({ err }, 'game journal sync failed; games wait until it works again');
        this.syncHealthy = false;
        return;
      }
      if (!this.syncHealthy) this.log.info('game journal syncs again');
      this.syncHealthy = true;
      this.syncedSize = Math.max(this.syncedSize, upTo);
      this.metrics.syncSeconds.observe((performance.now() - began) / 1000);
    });
  }

  /**
   * The batch goes out in one write on libuv's thread pool; the journal is opened with O_DSYNC,
   * so the write returns once its data is on disk, as a write and an fdatasync would, in one trip
   * to the pool instead of two (each trip costs about as much CPU as the sync itself). Where the
   * platform has no O_DSYNC, an fdatasync follows the write.
   */
  private writeFrom(a: BatchWrite, done: () => void, failed: (err: Error) => void): void {
    if (a.written < a.bytes.length) {
      this.disk.write(this.fd, a.bytes, a.written, a.bytes.length - a.written, a.at + a.written, (err, written) => {
        if (err) return failed(err);
        a.written += written;
        this.writeFrom(a, done, failed);
      });
    } else if (SYNCED_WRITES) {
      this.wroteBatch(a);
      done();
    } else {
      this.disk.fdatasync(this.fd, (err) => (err ? failed(err) : (this.wroteBatch(a), done())));
    }
  }

  private wroteBatch(a: BatchWrite): void {
    this.writing = null;
    this.metrics.commitSeconds.observe((performance.now() - a.began) / 1000);
    this.metrics.bytesWritten.add(a.records);
    this.size += a.records;
    this.fileSize = Math.max(this.fileSize, a.at + a.bytes.length);
  }

  /**
   * Rewrites the journal with the live games' logs only (they hold everything gathered so far),
   * and the ended games not yet archived. Synchronous, between two batches. The error when it
   * could not be done (logged): the batch is then written as usual, and the next attempt waits
   * for the journal to double; or, when the start could not compact (mustCompact), the batch
   * waits and is tried again, the journal unhealthy meanwhile.
   */
  private compact(): Error | null {
    const began = performance.now();
    try {
      const size = writeCompacted(this.dir, [...this.liveLogs.games()], [...this.unarchived.values()], performance.now(), this.disk);
      closeSync(this.fd);
      this.fd = openForWriting(journalFile(this.dir), this.sync);
      this.log.info({ before: this.size, after: size, ms: Math.round(performance.now() - began) }, 'game journal compacted');
      this.size = size;
      this.syncedSize = size;
      this.fileSize = size;
      this.compactAt = Math.max(this.compactAt, 2 * size);
      if (this.mustCompact) this.log.info('game journal compacted after its start could not: games go on');
      this.mustCompact = false;
      return null;
    } catch (err) {
      if (this.mustCompact) return err as Error;
      this.log.error({ err }, 'game journal compaction failed; writing as before');
      this.compactAt *= 2;
      return err as Error;
    }
  }

  /** Writes everything recorded and a last sign of life, syncs it, and closes the file. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.aliveTimer);
    if (this.syncTimer) clearInterval(this.syncTimer);
    await this.commits.drain();
    this.add({ k: 'alive', at: performance.now() });
    this.closed = true;
    await this.commits.drain();
    if (this.sync === 'interval') {
      await new Promise<void>((resolve) =>
        this.disk.fdatasync(this.fd, (err) => {
          if (err) this.log.error({ err }, 'game journal sync at shutdown failed');
          resolve();
        }),
      );
    }
    closeSync(this.fd);
  }
}

export interface OpenedJournal {
  journal: GameJournal;
  /** live games to resume, already in this process's time base */
  live: GameLog[];
  /** ended games the archive has yet to store, in this process's time base */
  unarchived: EndedLog[];
  damaged: DamagedGame[];
  /** how long the node was away: from the journal's last write (its file's time) until it was opened again, ms (for the log) */
  awayMs: number;
}

/**
 * Opens the journal in `dataDir`/games: reads it back, compacts it (see the top of this file),
 * and returns the writer with the games to resume. Logs one line per damaged game or record.
 */
export function openGameJournal(
  dataDir: string,
  metrics: JournalMetrics,
  log: Logger,
  liveLogs: LiveLogs,
  options: JournalOptions = {},
): OpenedJournal {
  const dir = join(dataDir, 'games');
  mkdirSync(dir, { recursive: true });
  const file = journalFile(dir);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lastWrite = existsSync(file) ? statSync(file).mtimeMs : Date.now();
  const found = readJournal(text);
  for (const d of found.damaged) log.error({ gameId: d.gameId, reason: d.reason }, 'game log damaged; the game is aborted');
  for (const u of found.unreadable) log.error({ line: u.line, reason: u.reason }, 'game journal record unreadable; skipped');
  if (found.tornTail) log.warn({ gameId: found.tornTail.gameId }, 'game journal ends in a record cut short by a crash; it was never acknowledged and is dropped');
  if (found.damaged.length > 0 || found.unreadable.length > 0) {
    const kept = join(dir, `journal-${new Date().toISOString().replace(/[:.]/g, '-')}.damaged`);
    renameSync(file, kept);
    log.warn({ file: kept }, 'the damaged journal is kept for inspection');
  }
  // the logs' times are the old process's performance.now(): moved so that its last sign of life
  // is now, which gives the time away back to every clock
  const now = performance.now();
  const shiftMs = Number.isFinite(found.lastAliveAt) ? now - found.lastAliveAt : 0;
  const live = found.live.map((l) => shiftLog(l, shiftMs));
  const unarchived = found.unarchived.map((e) => ({ ...e, log: shiftLog(e.log, shiftMs), at: e.at + shiftMs }));
  let compacted = true;
  try {
    writeCompacted(dir, live, unarchived, now, { ...NODE_DISK, ...options.disk });
  } catch (err) {
    // a full disk: the server starts anyway, its games refuse commands until the journal can be compacted
    log.error({ err }, 'game journal could not be compacted at start; games wait until it can be');
    compacted = false;
  }
  const journal = new GameJournal(dir, metrics, log, liveLogs, { ...options, compacted });
  for (const e of unarchived) journal.keepUnarchived(e);
  return { journal, live, unarchived, damaged: found.damaged, awayMs: Math.max(0, Date.now() - lastWrite) };
}

function journalFile(dir: string): string {
  return join(dir, 'journal');
}

/** Whether writes can be opened to return only once their data is on disk (O_DSYNC: Linux, macOS). */
const SYNCED_WRITES = typeof constants.O_DSYNC === 'number';

/** The journal, opened for writes at positions (no O_APPEND: they go over the zeros ahead); in the `always` mode with O_DSYNC where there is one (see writeFrom). */
function openForWriting(file: string, sync: JournalSync): number {
  const flags = constants.O_WRONLY | constants.O_CREAT;
  return openSync(file, sync === 'always' && SYNCED_WRITES ? flags | constants.O_DSYNC : flags, 0o666);
}

/** A batch past the zeros made ahead, with the next stretch of them after its records. */
function followedByZeros(records: Buffer): Buffer {
  const bytes = Buffer.alloc(records.length + PREALLOCATE_BYTES);
  records.copy(bytes);
  return bytes;
}

function isEmpty(items: Iterable<unknown>): boolean {
  for (const _ of items) return false;
  return true;
}

/** A fresh journal with the live games and the ended ones not yet archived only, replacing the old one atomically; returns its size. */
function writeCompacted(dir: string, live: GameLog[], unarchived: EndedLog[], now: number, disk: JournalDisk): number {
  const file = journalFile(dir);
  const records: JournalRecord[] = [{ k: 'alive', at: now }];
  const logRecords = (l: GameLog) => {
    records.push({ k: 'start', input: l.input });
    l.entries.forEach((e, i) => records.push({ k: 'cmd', g: l.input.gameId, n: i + 1, e }));
  };
  for (const l of live) logRecords(l);
  for (const e of unarchived) {
    logRecords(e.log);
    records.push({ k: 'end', g: e.log.input.gameId, n: e.log.entries.length + 1, at: e.at, result: e.result });
  }
  const text = Buffer.from(records.map(encodeRecord).join(''));
  replaceFileSync(file, text, nodeReplaceStepsSync(disk));
  return text.length;
}
