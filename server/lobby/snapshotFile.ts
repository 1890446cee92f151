/**
 * A small file rewritten whole with the latest snapshot of what it keeps. The changes of one turn
 * of the event loop, and those made while a write is under way, go in one write, off the event
 * loop. Each write replaces the file atomically (server/storage/replaceFile.ts): after a crash
 * (kill -9, a power loss) the file is the last complete snapshot, never a torn one.
 *
 * Each change is told whether the file holds it. A failed write refuses every change the file does
 * not hold yet (those it carried, and those made since), its owner having gone back to what the
 * file holds, so what the owner holds never differs from the file for longer than a write. The
 * next change is written with the next snapshot, as if nothing had failed.
 */
import { NODE_REPLACE_STEPS, replaceFile, type ReplaceSteps } from '../storage/replaceFile';

/** The file calls of a snapshot's write: node:fs's by default. Tests count them, or crash between them. */
export type SnapshotDisk = ReplaceSteps<Promise<void>>;

/** What the owner of a snapshot file is told of its writes, before the changes are. */
export interface SnapshotOwner {
  /** text to write: what the file keeps, as it is now */
  snapshot(): string;
  /** the file holds the snapshot taken last */
  written(): void;
  /** a write failed: the owner goes back to what the file holds (every change since is refused) */
  failed(err: Error): void;
}

/** A change waiting for the file to hold it. */
interface Unwritten {
  kept(): void;
  refused(err: Error): void;
}

export class SnapshotFile {
  /** the changes since the last snapshot was taken */
  private unwritten: Unwritten[] = [];
  private writing: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly owner: SnapshotOwner,
    private readonly disk: SnapshotDisk = NODE_REPLACE_STEPS,
  ) {}

  /**
   * What the file keeps changed: the snapshot is written once this turn of the event loop is over.
   * Resolves once the file holds the change; rejects with the write's error when it does not (the
   * owner told first, and gone back to what the file holds).
   */
  changed(): Promise<void> {
    const told = new Promise<void>((kept, refused) => this.unwritten.push({ kept, refused }));
    this.writing ??= this.writeWhileChanged();
    return told;
  }

  /** Resolves once every change so far is in the file, or refused. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.unwritten.length > 0) await (this.writing = this.writeWhileChanged());
  }

  private async writeWhileChanged(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.unwritten.length > 0) {
        const carried = this.unwritten;
        this.unwritten = [];
        try {
          await replaceFile(this.file, this.owner.snapshot(), this.disk);
        } catch (err) {
          this.refuseUnwritten(carried, err as Error);
          return;
        }
        this.owner.written();
        for (const change of carried) change.kept();
      }
    } finally {
      this.writing = null;
    }
  }

  /** The write carrying `carried` failed: they, and the changes made since, are refused. */
  private refuseUnwritten(carried: Unwritten[], err: Error): void {
    const refused = [...carried, ...this.unwritten];
    this.unwritten = [];
    this.owner.failed(err);
    for (const change of refused) change.refused(err);
  }
}
