/**
 * The game journal (server/game/journal.ts) when its write fails: the batch is tried again from
 * where the failed write stopped (writing it whole again would repeat records on disk), nobody
 * is told of it until it is on disk, and health comes back with the write. The disk's faults
 * come from the journal's write function, which the test gives it (node:fs's `write`, or a fault
 * the test plans); the retry runs on the test's clock.
 */
import { mkdtempSync, readFileSync, write } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { FastCounter, FastHistogram } from '../../server/http/metrics';
import { openGameJournal, type JournalWrite } from '../../server/game/journal';
import { encodeRecord } from '../../server/game/journalRecords';
import { recordsOf } from '../../server/game/journalRecovery';

/** What the next writes do: write only so many bytes of what they are given, or fail; then write as usual. */
const disk = { plan: [] as (number | 'fail')[], failed: () => {} };

const plannedWrite: JournalWrite = (fd, buffer, offset, length, position, done) => {
  const step = disk.plan.shift();
  if (step === 'fail') {
    setImmediate(() => {
      done(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }), 0);
      disk.failed();
    });
  } else {
    write(fd, buffer, offset, step === undefined ? length : Math.min(step, length), position, done);
  }
};

describe('game journal write failures', () => {
  it('retries from where the failed write stopped, telling nobody until the batch is on disk', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const commits = new FastHistogram('commits', 'test', [Infinity]);
    const bytes = new FastCounter('bytes', 'test');
    const dataDir = mkdtempSync(join(tmpdir(), 'journal-retry-'));
    const metrics = { commitSeconds: commits, bytesWritten: bytes, syncSeconds: new FastHistogram('syncs', 'test', [Infinity]) };
    const { journal } = openGameJournal(dataDir, metrics, pino({ level: 'silent' }), { games: () => [] }, { sync: 'always', commitWindowMs: 0, disk: { write: plannedWrite } });
    const onDisk = () => recordsOf(readFileSync(join(dataDir, 'games', 'journal'), 'utf8'));
    const before = onDisk();
    const records = [0, 1].map((n) => encodeRecord({ k: 'cmd', g: 'game_a', n: n + 1, e: { type: 'WAKE', at: 1000 + n } })).join('');

    const half = Math.ceil(records.length / 2);
    disk.plan = [half, 'fail'];
    const failed = new Promise<void>((resolve) => (disk.failed = resolve));
    journal.command('game_a', { type: 'WAKE', at: 1000 }, 1);
    journal.command('game_a', { type: 'WAKE', at: 1001 }, 2);
    let told = false;
    const committed = new Promise<void>((resolve) => journal.afterCommit(resolve)).then(() => (told = true));
    await failed;
    await vi.advanceTimersByTimeAsync(0);
    expect(journal.healthy).toBe(false);
    expect(told).toBe(false);
    expect(onDisk()).toBe(before + records.slice(0, half));

    await vi.advanceTimersByTimeAsync(1000);
    await committed;
    expect(onDisk()).toBe(before + records);
    expect(journal.healthy).toBe(true);
    expect(bytes.total).toBe(Buffer.byteLength(records));
    await journal.close();
  });
});
