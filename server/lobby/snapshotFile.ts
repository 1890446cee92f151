/**
 * A small file rewritten whole with the latest snapshot of what it keeps. The changes of one turn
 * of the event loop, and those made while a write is under way, go in one write, off the event
 * loop. Each write replaces the file atomically (server/storage/replaceFile.ts): after a crash
 * (kill -9, a power loss) the file is the last complete snapshot, never a torn one.
 */
import { NODE_REPLACE_STEPS, replaceFile, type ReplaceSteps } from '../storage/replaceFile';

/** The file calls of a snapshot's write: node:fs's by default. Tests count them, or crash between them. */
export type SnapshotDisk = ReplaceSteps<Promise<void>>;

export class SnapshotFile {
  private dirty = false;
  private writing: Promise<void> | null = null;

  /**
   * `snapshot` gives the text to write as things are at the time of the write; a failed write is
   * told to `onError`, and the snapshot is written again on the next change or flush.
   */
  constructor(
    private readonly file: string,
    private readonly snapshot: () => string,
    private readonly onError: (err: Error) => void,
    private readonly disk: SnapshotDisk = NODE_REPLACE_STEPS,
  ) {}

  /** What the file keeps changed: the snapshot is written once this turn of the event loop is over. */
  changed(): void {
    this.dirty = true;
    this.writing ??= this.writeWhileChanged();
  }

  /** Resolves once the latest snapshot is written (or its write failed, and was told to onError). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.dirty) await (this.writing = this.writeWhileChanged());
  }

  private async writeWhileChanged(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.dirty) {
        this.dirty = false;
        await replaceFile(this.file, this.snapshot(), this.disk);
      }
    } catch (err) {
      this.dirty = true;
      this.onError(err as Error);
    } finally {
      this.writing = null;
    }
  }
}
