/**
 * The challenges' file on one node (server/lobby/snapshotFile.ts): the changes of one turn of the
 * event loop are one write, those made during a write one more; a crash before the rename leaves
 * the last complete version, which the next start reads; a failed write is logged, refuses the
 * changes the file does not hold, and puts the challenges back as it holds them. Real files in a
 * temporary directory; the file calls are counted, held or made to fail.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Challenge } from '../../machines/protocol/messages';
import { FileChallenges, challengesFile } from '../../server/lobby/records';
import type { SnapshotDisk } from '../../server/lobby/snapshotFile';
import { NODE_REPLACE_STEPS } from '../../server/storage/replaceFile';
import { capturedLog } from '../support/capturedLog';

const QUIET = pino({ level: 'silent' });
const challenge = (id: string): Challenge => ({ id, by: { id: 'ann', name: 'ann', guest: false }, timeControl: { initial: 600, increment: 5 }, rated: false, color: 'white', status: 'created', createdAt: 1 });
const ids = (cs: readonly { id: string }[]) => cs.map((c) => c.id).sort();

let dir = '';
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
const freshDir = () => (dir = mkdtempSync(join(tmpdir(), 'challenge-file-')));

/** What a restart reads back from the directory. */
const readBack = () => new FileChallenges(dir, 0, QUIET).all();

/** node:fs's calls, counted. */
function countedDisk(): SnapshotDisk & { writes: number } {
  const disk = {
    writes: 0,
    writeSynced: (file: string, text: string) => (disk.writes++, NODE_REPLACE_STEPS.writeSynced(file, text)),
    replace: NODE_REPLACE_STEPS.replace,
  };
  return disk;
}

describe('the challenges file', () => {
  it('writes the changes of one turn of the event loop once, and a restart reads them back', async () => {
    freshDir();
    const disk = countedDisk();
    const recs = new FileChallenges(dir, 0, QUIET, disk);
    for (let i = 0; i < 100; i++) void recs.put(challenge(`c${i}`));
    for (let i = 0; i < 10; i++) void recs.take(`c${i}`);
    await recs.flush();
    expect(disk.writes).toBe(1);
    expect(ids(await readBack())).toEqual(ids(await recs.all()));
    expect(await readBack()).toHaveLength(90);
  });

  it('writes the changes made while a write is under way in one more write, which a flush waits for', async () => {
    freshDir();
    const disk = countedDisk();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const recs = new FileChallenges(dir, 0, QUIET, {
      ...disk,
      writeSynced: async (file, text) => {
        if (disk.writes === 0) await held;
        return disk.writeSynced(file, text);
      },
    });
    void recs.put(challenge('first'));
    await new Promise((resolve) => setImmediate(resolve)); // the first write has begun, and waits
    for (let i = 0; i < 5; i++) {
      void recs.put(challenge(`later${i}`));
      await new Promise((resolve) => setImmediate(resolve));
    }
    // a flush (the server's, as it closes) waits for them
    let flushed = false;
    const flushing = recs.flush().then(() => (flushed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toBe(false);
    release();
    await flushing;
    expect(disk.writes).toBe(2);
    expect(await readBack()).toHaveLength(6);
  });

  it('after a crash during a write (the temporary file torn, never renamed), a restart reads the last complete version', async () => {
    freshDir();
    let crashed = false;
    const recs = new FileChallenges(dir, 0, QUIET, {
      ...NODE_REPLACE_STEPS,
      writeSynced: async (file, text) => {
        if (!crashed) return NODE_REPLACE_STEPS.writeSynced(file, text);
        writeFileSync(file, text.slice(0, text.length / 2)); // half of it, then the process is gone
        return new Promise<void>(() => {});
      },
    });
    await recs.put(challenge('kept'));
    await recs.flush();
    crashed = true;
    void recs.put(challenge('lost'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(challengesFile(dir) + '.tmp', 'utf8')).not.toBe('');
    expect(ids(await readBack())).toEqual(['kept']);
    // and the next write goes over the torn temporary file
    const again = new FileChallenges(dir, 0, QUIET);
    await again.put(challenge('next'));
    await again.flush();
    expect(ids(await readBack())).toEqual(['kept', 'next']);
  });

  it('refuses the changes a failed write carried and those made during it, logged once, the challenges back as the file holds them; the next change is kept', async () => {
    freshDir();
    const { logger, lines } = capturedLog({ base: null, timestamp: false });
    let fail = false;
    let release = () => {};
    const recs = new FileChallenges(dir, 0, logger, {
      ...NODE_REPLACE_STEPS,
      writeSynced: async (file, text) => {
        if (!fail) return NODE_REPLACE_STEPS.writeSynced(file, text);
        await new Promise<void>((resolve) => (release = resolve));
        throw new Error('ENOSPC: no space left on device');
      },
    });
    const seenAt = { at: 5, node: '' };
    await recs.seen(['kept'], seenAt);
    await recs.put(challenge('kept'));

    fail = true;
    const taking = recs.take('kept');
    const putting = recs.put(challenge('refused'));
    await new Promise((resolve) => setImmediate(resolve)); // the write carrying both has begun
    const during = recs.put(challenge('during'));
    release();
    await expect(taking).rejects.toThrow('ENOSPC');
    await expect(putting).rejects.toThrow('ENOSPC');
    await expect(during).rejects.toThrow('ENOSPC');
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'challenges not written to their file; the changes not in it are undone and refused', err: 'ENOSPC: no space left on device' })]);
    // memory is what the file holds, the challenge taken back with its creator's seen entry
    expect(ids(await recs.all())).toEqual(['kept']);
    expect((await recs.lastSeen()).get('kept')).toEqual(seenAt);
    expect(ids(await readBack())).toEqual(['kept']);
    await recs.flush();

    fail = false;
    await recs.put(challenge('next'));
    expect(ids(await readBack())).toEqual(['kept', 'next']);
    expect(await recs.take('kept')).toEqual(challenge('kept'));
    expect(ids(await readBack())).toEqual(['next']);
  });
});
