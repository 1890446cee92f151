/**
 * A file replaced whole (server/storage/replaceFile.ts), through each of its two faces: the new
 * contents replace the old ones, and no temporary file is left; a replacement whose temporary file
 * could not be written whole (the disk full midway) fails and leaves the old file as it was, and
 * the next replacement goes over the torn temporary file. Real files in a temporary directory;
 * the write of the temporary file is made to stop short or fail.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_REPLACE_STEPS, nodeReplaceStepsSync, replaceFile, replaceFileSync, type PositionalWrite } from '../../server/storage/replaceFile';

let dir = '';
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
/** A file holding `old`, in a fresh directory. */
function oldFile(old: string): string {
  dir = mkdtempSync(join(tmpdir(), 'replace-file-'));
  const file = join(dir, 'kept.json');
  writeFileSync(file, old);
  return file;
}

const fullDisk = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** node:fs's write, writing at most `most` bytes a call, and failing once `failAt` bytes are written. */
function limitedWrites(most: number, failAt = Infinity): PositionalWrite {
  return {
    writeSync(fd, buffer, offset, length, position) {
      if (offset >= failAt) throw fullDisk();
      return writeSync(fd, buffer, offset, Math.min(length, most), position);
    },
  };
}

const NEW = JSON.stringify({ challenges: Array.from({ length: 50 }, (_, i) => `c${i}`) });
/** how much of NEW a torn temporary file holds */
const HALF = Math.floor(NEW.length / 2);

/** Each face: a plain replacement, and one whose temporary file is written in part before the disk is full. */
const FACES = [
  {
    face: 'synchronous',
    replace: async (file: string, data: string) => replaceFileSync(file, data),
    replaceTorn: async (file: string, data: string) => replaceFileSync(file, data, nodeReplaceStepsSync(limitedWrites(HALF, HALF))),
  },
  {
    face: 'asynchronous',
    replace: (file: string, data: string) => replaceFile(file, data),
    replaceTorn: (file: string, data: string) =>
      replaceFile(file, data, {
        ...NODE_REPLACE_STEPS,
        writeSynced: async (tmp, text) => {
          writeFileSync(tmp, text.slice(0, HALF));
          throw fullDisk();
        },
      }),
  },
];

describe.each(FACES)('a file replaced whole ($face)', ({ replace, replaceTorn }) => {
  it('holds the new contents, with no temporary file left beside it', async () => {
    const file = oldFile('old');
    await replace(file, NEW);
    expect(readFileSync(file, 'utf8')).toBe(NEW);
    expect(existsSync(file + '.tmp')).toBe(false);
  });

  it('keeps the old contents when the temporary file could not be written whole, and the next replacement goes over it', async () => {
    const file = oldFile('old');
    await expect(replaceTorn(file, NEW)).rejects.toThrow('ENOSPC');
    expect(readFileSync(file + '.tmp', 'utf8')).toBe(NEW.slice(0, HALF));
    expect(readFileSync(file, 'utf8')).toBe('old');
    await replace(file, NEW);
    expect(readFileSync(file, 'utf8')).toBe(NEW);
  });
});

describe('a file replaced whole (synchronous), its writes stopping short', () => {
  it('writes on from where each write stopped, so the file is whole', () => {
    const file = oldFile('old');
    replaceFileSync(file, NEW, nodeReplaceStepsSync(limitedWrites(7)));
    expect(readFileSync(file, 'utf8')).toBe(NEW);
  });
});
