/**
 * A small file rewritten whole with the latest snapshot of what it keeps. The changes of one turn
 * of the event loop, and those made while a write is under way, go in one write, off the event
 * loop. Each write goes to a temporary file, which is synced, then renamed over the file, and the
 * directory synced: after a crash (kill -9, a power loss) the file is the last complete snapshot,
 * never a torn one; a torn temporary file is never read and is overwritten by the next write.
 */
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The file calls of a snapshot's write: node:fs's by default. Tests count them, or crash between them. */
export interface SnapshotDisk {
  /** writes `text` to `file` (created, or emptied first) and syncs it */
  writeSynced(file: string, text: string): Promise<void>;
  /** renames `from` over `to`, then syncs their directory */
  replace(from: string, to: string): Promise<void>;
}

/** Runs `use` on the file or directory opened with `flags`, and closes it. */
async function withOpened(path: string, flags: string, use: (fh: Awaited<ReturnType<typeof open>>) => Promise<void>): Promise<void> {
  const fh = await open(path, flags);
  try {
    await use(fh);
  } finally {
    await fh.close();
  }
}

export const NODE_SNAPSHOT_DISK: SnapshotDisk = {
  writeSynced: (file, text) =>
    withOpened(file, 'w', async (fh) => {
      await fh.writeFile(text);
      await fh.sync();
    }),
  async replace(from, to) {
    await rename(from, to);
    await withOpened(dirname(to), 'r', (dir) => dir.sync());
  },
};

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
    private readonly disk: SnapshotDisk = NODE_SNAPSHOT_DISK,
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
        const tmp = this.file + '.tmp';
        await this.disk.writeSynced(tmp, this.snapshot());
        await this.disk.replace(tmp, this.file);
      }
    } catch (err) {
      this.dirty = true;
      this.onError(err as Error);
    } finally {
      this.writing = null;
    }
  }
}
