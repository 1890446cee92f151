/**
 * Group commit: what is recorded during a short window is written together, in one durable
 * write, and the functions waiting for it (afterCommit) run once that write is done, in the order
 * they were given. The window runs from a batch's first item (0: the end of that turn of the
 * event loop). While one batch is being written the next one gathers, so under load a batch
 * holds everything that arrived during the previous write. A failed write is retried (the waiting
 * functions keep waiting: nobody is told of what might be lost).
 */
export interface BatchWriter<T> {
  /** writes the batch durably; rejects to have the same batch tried again after `retryMs` */
  write(batch: T[]): Promise<void>;
  /** a write failed (first failure of a run), or worked again after failing */
  failed(err: unknown, batch: T[]): void;
  recovered(): void;
  /** a function waiting for a commit threw */
  callbackFailed(err: unknown): void;
}

export class GroupCommit<T> {
  /** false while the last write failed (it is being retried) */
  healthy = true;
  private gathering: T[] = [];
  private gatheringDone: (() => void)[] = [];
  /** when the gathering batch's first item came (performance.now()) */
  private gatheringSince = 0;
  /** the waiting functions of the batch being written; null when none is */
  private writingDone: (() => void)[] | null = null;
  /** cancels the gathering batch's scheduled write; null when none is scheduled */
  private cancelScheduled: (() => void) | null = null;
  /** those waiting in drain() */
  private idle: (() => void)[] = [];

  constructor(
    private readonly writer: BatchWriter<T>,
    private readonly retryMs: number,
    /** how long a batch gathers, from its first item, before it is written */
    private readonly windowMs = 0,
  ) {}

  add(item: T): void {
    if (this.gathering.length === 0) this.gatheringSince = performance.now();
    this.gathering.push(item);
    this.schedule();
  }

  /** true while something recorded is not yet written (afterCommit would wait) */
  get waiting(): boolean {
    return this.gathering.length > 0 || this.writingDone !== null;
  }

  afterCommit(fn: () => void): void {
    if (this.gathering.length > 0) this.gatheringDone.push(fn);
    else if (this.writingDone) this.writingDone.push(fn);
    else fn();
  }

  /** Writes what is gathered without waiting for its window; resolves once nothing is left. */
  async drain(): Promise<void> {
    if (!this.waiting) return;
    const idle = new Promise<void>((resolve) => this.idle.push(resolve));
    this.flushNow();
    await idle;
  }

  /**
   * The gathered batch is written once its window is over, at the end of the event loop's turn
   * at the earliest; while a batch is being written nothing is scheduled: its commit schedules
   * the next.
   */
  private schedule(): void {
    if (this.cancelScheduled || this.writingDone) return;
    const wait = this.gatheringSince + this.windowMs - performance.now();
    if (wait > 0) {
      const timer = setTimeout(this.scheduledFlush, Math.ceil(wait));
      this.cancelScheduled = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(this.scheduledFlush);
      this.cancelScheduled = () => clearImmediate(immediate);
    }
  }

  private readonly scheduledFlush = (): void => {
    this.cancelScheduled = null;
    this.flush();
  };

  private flushNow(): void {
    this.cancelScheduled?.();
    this.cancelScheduled = null;
    this.flush();
  }

  /** One write for everything gathered since the last one. */
  private flush(): void {
    if (this.gathering.length === 0 || this.writingDone) return;
    const batch = this.gathering;
    this.gathering = [];
    this.writingDone = this.gatheringDone;
    this.gatheringDone = [];
    void this.writeBatch(batch);
  }

  private async writeBatch(batch: T[]): Promise<void> {
    try {
      await this.writer.write(batch);
    } catch (err) {
      this.retryLater(err, batch);
      return;
    }
    this.committed();
  }

  private retryLater(err: unknown, batch: T[]): void {
    if (this.healthy) this.writer.failed(err, batch);
    this.healthy = false;
    setTimeout(() => void this.writeBatch(batch), this.retryMs);
  }

  /** Tells the batch's waiting functions, then writes the next batch (at once while drained). */
  private committed(): void {
    if (!this.healthy) this.writer.recovered();
    this.healthy = true;
    const done = this.writingDone ?? [];
    this.writingDone = null;
    for (const fn of done) this.runSafely(fn);
    if (this.gathering.length === 0) this.wakeIdle();
    else if (this.idle.length > 0) this.flushNow();
    else this.schedule();
  }

  private runSafely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.writer.callbackFailed(err);
    }
  }

  private wakeIdle(): void {
    const idle = this.idle;
    this.idle = [];
    for (const resolve of idle) resolve();
  }
}
