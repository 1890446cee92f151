/**
 * Group commit: what is recorded during one turn of the event loop is written together, in one
 * durable write, and the functions waiting for it (afterCommit) run once that write is done.
 * While one batch is being written the next one gathers, so under load a batch holds everything
 * that arrived during the previous write. A failed write is retried (the waiting functions keep
 * waiting: nobody is told of what might be lost).
 */
export interface BatchWriter<T> {
  /** writes the batch durably; rejects to have it tried again after `retryMs` */
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
  /** the waiting functions of the batch being written; null when none is */
  private writingDone: (() => void)[] | null = null;
  private scheduled = false;
  private idle: (() => void) | null = null;

  constructor(
    private readonly writer: BatchWriter<T>,
    private readonly retryMs: number,
  ) {}

  add(item: T): void {
    this.gathering.push(item);
    if (!this.scheduled && !this.writingDone) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
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

  /** Resolves once nothing gathered or being written is left. */
  async drain(): Promise<void> {
    if (!this.waiting) return;
    await new Promise<void>((resolve) => (this.idle = resolve));
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    if (this.gathering.length === 0 || this.writingDone) return;
    const batch = this.gathering;
    this.gathering = [];
    this.writingDone = this.gatheringDone;
    this.gatheringDone = [];
    void this.writeBatch(batch);
  };

  private async writeBatch(batch: T[]): Promise<void> {
    try {
      await this.writer.write(batch);
    } catch (err) {
      if (this.healthy) this.writer.failed(err, batch);
      this.healthy = false;
      setTimeout(() => void this.writeBatch(batch), this.retryMs);
      return;
    }
    if (!this.healthy) this.writer.recovered();
    this.healthy = true;
    const done = this.writingDone ?? [];
    this.writingDone = null;
    for (const fn of done) {
      try {
        fn();
      } catch (err) {
        this.writer.callbackFailed(err);
      }
    }
    if (this.gathering.length > 0) this.flush();
    else if (this.idle) {
      const idle = this.idle;
      this.idle = null;
      idle();
    }
  }
}
