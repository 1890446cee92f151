/**
 * A file replaced whole, atomically: the new contents are written to a temporary file beside it
 * (the file's name and `.tmp`), which is synced (fdatasync: its data and its size), renamed over
 * the file, and the directory synced (so the rename itself is on disk). After a crash (kill -9, a
 * power loss) at any point the file is either the old version or the new one, never a torn one:
 * a torn temporary file is never renamed, nothing reads it, and the next replacement overwrites it.
 *
 * Two faces with the same steps (ReplaceSteps): replaceFileSync, on the event loop (the game
 * journal's compaction, which the event loop waits for), and replaceFile, a promise whose calls
 * run on libuv's thread pool (the lobby's snapshot files).
 */
import { closeSync, fdatasyncSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The two steps of a replacement; `Done` is `void` for the synchronous face, `Promise<void>` for the other. */
export interface ReplaceSteps<Done> {
  /** writes `data` to `file` (created, or emptied first), syncs it (fdatasync), and closes it */
  writeSynced(file: string, data: string | Buffer): Done;
  /** renames `from` over `to`, then syncs their directory */
  replace(from: string, to: string): Done;
}

/** The write the synchronous face makes its temporary file with: node:fs's by default; tests give one that fails or stops short. */
export interface PositionalWrite {
  /** writes up to `length` bytes of `buffer` from `offset` at `position` of the file; returns how many it wrote */
  writeSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
}

/** Where a replacement of `file` writes first. */
function temporaryOf(file: string): string {
  return file + '.tmp';
}

/** Replaces `file` with `data` (see the top of this file), on the event loop; throws if a step failed (before the rename: the old file in place). */
export function replaceFileSync(file: string, data: string | Buffer, steps: ReplaceSteps<void> = nodeReplaceStepsSync()): void {
  const tmp = temporaryOf(file);
  steps.writeSynced(tmp, data);
  steps.replace(tmp, file);
}

/** Replaces `file` with `data` (see the top of this file), off the event loop; rejects if a step failed (before the rename: the old file in place). */
export async function replaceFile(file: string, data: string | Buffer, steps: ReplaceSteps<Promise<void>> = NODE_REPLACE_STEPS): Promise<void> {
  const tmp = temporaryOf(file);
  await steps.writeSynced(tmp, data);
  await steps.replace(tmp, file);
}

/** node:fs's synchronous calls, the temporary file written with `writes` (node:fs's writeSync by default). */
export function nodeReplaceStepsSync(writes: PositionalWrite = { writeSync }): ReplaceSteps<void> {
  return {
    writeSynced(file, data) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      withOpenedSync(file, 'w', (fd) => {
        for (let written = 0; written < bytes.length; ) written += writes.writeSync(fd, bytes, written, bytes.length - written, written);
        fdatasyncSync(fd);
      });
    },
    replace(from, to) {
      renameSync(from, to);
      withOpenedSync(dirname(to), 'r', fsyncSync);
    },
  };
}

/** node:fs's calls, on libuv's thread pool. */
export const NODE_REPLACE_STEPS: ReplaceSteps<Promise<void>> = {
  writeSynced: (file, data) =>
    withOpened(file, 'w', async (fh) => {
      await fh.writeFile(data);
      await fh.datasync();
    }),
  async replace(from, to) {
    await rename(from, to);
    await withOpened(dirname(to), 'r', (dir) => dir.sync());
  },
};

/** Runs `use` on the file or directory opened with `flags`, and closes it. */
function withOpenedSync(path: string, flags: string, use: (fd: number) => void): void {
  const fd = openSync(path, flags);
  try {
    use(fd);
  } finally {
    closeSync(fd);
  }
}

/** Runs `use` on the file or directory opened with `flags`, and closes it. */
async function withOpened(path: string, flags: string, use: (fh: FileHandle) => Promise<void>): Promise<void> {
  const fh = await open(path, flags);
  try {
    await use(fh);
  } finally {
    await fh.close();
  }
}
