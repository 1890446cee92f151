/**
 * A pool of at most `size` Stockfish processes with a FIFO queue.
 *
 * - Engines start on demand: one at creation (to prove the engine starts at all), more while
 *   searches wait and the pool is below `size`. Each runs one search at a time; further
 *   requests wait in the queue. An engine idle for `idleStopMs` is stopped, so a server with no
 *   AI games holds no engine processes (each is 50-110 MB resident).
 * - Every search is bounded twice: by the engine (`go depth … movetime …`) and by a
 *   watchdog (movetime + `watchdogGraceMs`). A hung engine is killed when the watchdog fires.
 * - An engine that exits or is killed fails only the search it was running (EngineError
 *   'crash' / 'timeout'); its slot restarts the process and serves the queue again.
 * - A request that waits longer than `queueTimeoutMs` for a free engine fails with
 *   'unavailable', so a game never waits forever when engines cannot start.
 */
import type { Logger } from 'pino';
import type { EngineSpec } from './locate';
import { ENGINE_START_TIMEOUT_MS, EngineError, UciProcess, searchAborted, type SearchRequest, type SearchResult } from './uci-process';

export interface EnginePoolOptions {
  spec: EngineSpec;
  size: number;
  logger: Logger;
  /** extra time allowed beyond the movetime before an engine counts as hung */
  watchdogGraceMs?: number;
  /** how long a request may wait for a free engine */
  queueTimeoutMs?: number;
  /** engine start-up timeout */
  startTimeoutMs?: number;
  /** an engine with no search for this long is stopped (default 60 s; Infinity: never) */
  idleStopMs?: number;
}

/** How long an engine may sit idle before it is stopped, unless the pool is told otherwise. */
export const DEFAULT_ENGINE_IDLE_STOP_MS = 60_000;

export interface PoolStats {
  engines: number;
  busy: number;
  queue: number;
  restarts: number;
}

interface Job {
  req: SearchRequest;
  resolve: (r: SearchResult) => void;
  reject: (e: EngineError) => void;
  queueTimer: NodeJS.Timeout;
  tag?: string;
  signal?: AbortSignal;
  /** listens on `signal` while the job waits: takes it off the queue and rejects it */
  giveUp: () => void;
}

interface Slot {
  id: number;
  proc: UciProcess | null;
  starting: Promise<void> | null;
  job: Job | null;
  failures: number;
  /** no start attempt before this performance.now() (backoff after failed starts) */
  retryAt: number;
  idleTimer: NodeJS.Timeout | null;
}

export class EnginePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;
  private restarts = 0;
  private readonly watchdogGraceMs: number;
  private readonly queueTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly idleStopMs: number;

  private constructor(private readonly opts: EnginePoolOptions) {
    this.watchdogGraceMs = opts.watchdogGraceMs ?? 5_000;
    this.queueTimeoutMs = opts.queueTimeoutMs ?? 60_000;
    this.startTimeoutMs = opts.startTimeoutMs ?? ENGINE_START_TIMEOUT_MS;
    this.idleStopMs = opts.idleStopMs ?? DEFAULT_ENGINE_IDLE_STOP_MS;
  }

  /** Starts one engine, which proves the engine can start; fails clearly if it cannot (bad path, broken build). */
  static async create(opts: EnginePoolOptions): Promise<EnginePool> {
    const pool = new EnginePool(opts);
    const size = Math.max(1, Math.floor(opts.size));
    for (let i = 0; i < size; i++) pool.slots.push({ id: i, proc: null, starting: null, job: null, failures: 0, retryAt: 0, idleTimer: null });
    try {
      await pool.startSlot(pool.slots[0]);
    } catch (err) {
      await pool.close();
      throw err;
    }
    opts.logger.info({ engine: opts.spec.label, kind: opts.spec.kind, size, idleStopMs: pool.idleStopMs }, 'engine pool started (engines start on demand)');
    return pool;
  }

  private startSlot(slot: Slot): Promise<void> {
    if (slot.starting) return slot.starting;
    if (slot.proc) return Promise.resolve(); // started on demand meanwhile
    slot.starting = (async () => {
      const proc = await UciProcess.start(this.opts.spec, this.startTimeoutMs);
      if (this.closed) {
        proc.kill();
        return;
      }
      slot.proc = proc;
      slot.failures = 0;
      void proc.exitPromise.then(() => this.onExit(slot, proc));
    })().finally(() => {
      slot.starting = null;
    });
    return slot.starting.then(() => {
      this.pump();
      if (!slot.job) this.stopWhenIdle(slot);
    });
  }

  /** Starts a slot's engine for the searches waiting; a failed start is retried later, with backoff. */
  private startOnDemand(slot: Slot): void {
    this.startSlot(slot).catch((e: unknown) => {
      slot.failures++;
      slot.retryAt = performance.now() + Math.min(5_000, 100 * 2 ** slot.failures);
      this.opts.logger.error({ slot: slot.id, err: (e as Error).message }, 'engine failed to start');
      setTimeout(() => this.pump(), slot.retryAt - performance.now()).unref();
    });
  }

  /** Stops the slot's engine once it has had no search for idleStopMs. */
  private stopWhenIdle(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    if (!Number.isFinite(this.idleStopMs) || this.closed) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = null;
      const proc = slot.proc;
      if (!proc || slot.job || slot.starting) return;
      slot.proc = null; // before it exits, so that its exit is not taken for a crash
      this.opts.logger.debug({ slot: slot.id, pid: proc.pid }, 'engine stopped: idle');
      void proc.quit();
    }, this.idleStopMs);
    slot.idleTimer.unref();
  }

  /** Restarts a slot after a crash, with backoff while it keeps failing to start. */
  private restartSlot(slot: Slot): void {
    if (this.closed || slot.starting) return;
    this.restarts++;
    const delay = Math.min(5_000, slot.failures === 0 ? 0 : 100 * 2 ** slot.failures);
    setTimeout(() => {
      if (this.closed) return;
      this.startSlot(slot).catch((e: unknown) => {
        slot.failures++;
        this.opts.logger.error({ slot: slot.id, err: (e as Error).message }, 'engine restart failed');
        this.restartSlot(slot);
      });
    }, delay).unref();
  }

  private onExit(slot: Slot, proc: UciProcess): void {
    if (slot.proc !== proc) return;
    slot.proc = null;
    if (this.closed) return;
    this.opts.logger.warn({ slot: slot.id, pid: proc.pid, exit: proc.exitDescription, tag: slot.job?.tag }, 'engine process exited; restarting');
    // The running search (if any) is failed by UciProcess.search itself (exit rejects waits).
    this.restartSlot(slot);
  }

  /**
   * Queues a search. `tag` (e.g. the game id) is only used in logs and `pidFor()`. When `signal`
   * fires (the game that asked is over) the search is given up: taken off the queue if it waits,
   * stopped if it runs, so its engine serves the next search at once. Either way the promise
   * rejects with code 'aborted'.
   */
  search(req: SearchRequest, tag?: string, signal?: AbortSignal): Promise<SearchResult> {
    if (this.closed) return Promise.reject(new EngineError('closed', 'engine pool is closed'));
    if (signal?.aborted) return Promise.reject(searchAborted());
    return new Promise<SearchResult>((resolve, reject) => {
      const job: Job = {
        req,
        resolve,
        reject,
        tag,
        signal,
        queueTimer: setTimeout(() => {
          if (this.unqueue(job)) reject(new EngineError('unavailable', `no engine became free within ${this.queueTimeoutMs} ms`));
        }, this.queueTimeoutMs),
        // a running search is stopped by its engine (UciProcess.search); a waiting one leaves here
        giveUp: () => {
          if (this.unqueue(job)) reject(searchAborted());
        },
      };
      signal?.addEventListener('abort', job.giveUp, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Takes a job off the queue: true if it was waiting there. */
  private unqueue(job: Job): boolean {
    const i = this.queue.indexOf(job);
    if (i < 0) return false;
    this.queue.splice(i, 1);
    this.stopWaiting(job);
    return true;
  }

  /** A job has left the queue: its queue time-out and its abort listener are done with. */
  private stopWaiting(job: Job): void {
    clearTimeout(job.queueTimer);
    job.signal?.removeEventListener('abort', job.giveUp);
  }

  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.proc || !slot.proc.alive || slot.job || slot.starting) continue;
      const job = this.queue.shift()!;
      this.stopWaiting(job);
      this.run(slot, slot.proc, job);
    }
    // searches still waiting: start engines for them, up to the pool's size
    let needed = this.queue.length - this.slots.filter((s) => s.starting).length;
    const now = performance.now();
    for (const slot of this.slots) {
      if (needed <= 0) return;
      if (slot.proc || slot.starting || slot.retryAt > now) continue;
      needed--;
      this.startOnDemand(slot);
    }
  }

  private run(slot: Slot, proc: UciProcess, job: Job): void {
    slot.job = job;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const timeoutMs = job.req.movetimeMs + this.watchdogGraceMs;
    proc
      .search(job.req, timeoutMs, job.signal)
      .then(
        (res) => job.resolve(res),
        (err: unknown) => {
          const e = err instanceof EngineError ? err : new EngineError('crash', String(err));
          if (e.code === 'timeout' || e.code === 'bad_output') {
            // A hung or confused engine is not trusted with another search.
            this.opts.logger.warn({ slot: slot.id, pid: proc.pid, tag: job.tag, err: e.message }, 'killing engine');
            proc.kill();
          }
          job.reject(e);
        },
      )
      .finally(() => {
        slot.job = null;
        this.pump();
        if (!slot.job && slot.proc === proc) this.stopWhenIdle(slot);
      });
  }

  /** Process ids of the live engines (for operations and tests). */
  pids(): number[] {
    return this.slots.map((s) => s.proc?.pid).filter((p): p is number => typeof p === 'number');
  }

  /** pid of the engine currently searching for `tag`, if any. */
  pidFor(tag: string): number | undefined {
    return this.slots.find((s) => s.job?.tag === tag)?.proc?.pid;
  }

  stats(): PoolStats {
    return {
      engines: this.slots.filter((s) => s.proc?.alive).length,
      busy: this.slots.filter((s) => s.job).length,
      queue: this.queue.length,
      restarts: this.restarts,
    };
  }

  get size(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      this.stopWaiting(job);
      job.reject(new EngineError('closed', 'engine pool is closed'));
    }
    await Promise.all(
      this.slots.map(async (s) => {
        if (s.idleTimer) clearTimeout(s.idleTimer);
        await s.starting?.catch(() => {});
        await s.proc?.quit();
        s.proc = null;
      }),
    );
  }
}
