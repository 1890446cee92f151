/**
 * The game journal's default mode (server/game/journal.ts, GAME_JOURNAL_SYNC=interval): a batch
 * goes to the operating system in one plain write before anybody is told of it, and the fdatasync
 * runs off the move path, once per sync interval, only when something was written since the last
 * one. A failed sync makes the journal unhealthy (the games then refuse commands) until one works.
 * The interval runs on the test's clock; the syncs are node:fs's, counted by the test's disk.
 */
import { fdatasync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FastCounter, FastHistogram } from '../../server/http/metrics';
import { openGameJournal, type GameJournal, type JournalDisk } from '../../server/game/journal';
import { SYNC_INTERVAL_MS } from '../../server/config/server';
import { recordsOf } from '../../server/game/journalRecovery';

/** node:fs's fdatasync, counted, failing the next `failures` times; `synced()` resolves after the next one ends. */
function countedDisk() {
  const state = { started: 0, failures: 0, ended: [] as (() => void)[] };
  const disk: Pick<JournalDisk, 'fdatasync'> = {
    fdatasync(fd, done) {
      state.started++;
      const finish = (err: NodeJS.ErrnoException | null) => {
        done(err);
        for (const f of state.ended.splice(0)) f();
      };
      if (state.failures > 0) {
        state.failures--;
        setImmediate(() => finish(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
      } else {
        fdatasync(fd, finish);
      }
    },
  };
  const synced = () => new Promise<void>((resolve) => state.ended.push(resolve));
  return { state, disk, synced };
}

function openJournal(disk: Partial<JournalDisk>) {
  const syncs = new FastHistogram('syncs', 'test', [Infinity]);
  const metrics = { commitSeconds: new FastHistogram('commits', 'test', [Infinity]), bytesWritten: new FastCounter('bytes', 'test'), syncSeconds: syncs };
  const dataDir = mkdtempSync(join(tmpdir(), 'journal-sync-'));
  const { journal } = openGameJournal(dataDir, metrics, pino({ level: 'silent' }), { games: () => [] }, { disk });
  const file = join(dataDir, 'games', 'journal');
  return { journal, syncs, onDisk: () => recordsOf(readFileSync(file, 'utf8')) };
}

const committed = (journal: GameJournal) => new Promise<void>((resolve) => journal.afterCommit(resolve));

let open: GameJournal[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.map((j) => j.close()));
  open = [];
});

describe('game journal, interval mode (the default)', () => {
  it('tells of a batch once the operating system holds it, with no sync on the way; syncs it within the interval', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const d = countedDisk();
    const j = openJournal(d.disk);
    open.push(j.journal);
    j.journal.command('game_a', { type: 'WAKE', at: 1000 }, 1);
    j.journal.command('game_a', { type: 'WAKE', at: 1001 }, 2);
    let told = false;
    j.journal.afterCommit(() => {
      // what a player is told of is in the file (a crash of the process cannot take it back)
      expect(j.onDisk()).toContain('"at":1001');
      told = true;
    });
    await committed(j.journal);
    expect(told).toBe(true);
    expect(d.state.started).toBe(0);

    const synced = d.synced();
    await vi.advanceTimersByTimeAsync(SYNC_INTERVAL_MS);
    await synced;
    expect(d.state.started).toBe(1);
    expect(j.syncs.count).toBe(1);
    // nothing written since: no sync
    await vi.advanceTimersByTimeAsync(3 * SYNC_INTERVAL_MS);
    expect(d.state.started).toBe(1);
  });

  it('turns unhealthy when a sync fails, and healthy again once the next interval syncs', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const d = countedDisk();
    const j = openJournal(d.disk);
    open.push(j.journal);
    d.state.failures = 1;
    j.journal.command('game_a', { type: 'WAKE', at: 1000 }, 1);
    await committed(j.journal);
    expect(j.journal.healthy).toBe(true);

    let synced = d.synced();
    await vi.advanceTimersByTimeAsync(SYNC_INTERVAL_MS);
    await synced;
    expect(j.journal.healthy).toBe(false);
    // what the failed sync was to cover is synced again at the next interval
    synced = d.synced();
    await vi.advanceTimersByTimeAsync(SYNC_INTERVAL_MS);
    await synced;
    expect(d.state.started).toBe(2);
    expect(j.journal.healthy).toBe(true);
  });

  it('syncs at close what the last interval did not', async () => {
    const d = countedDisk();
    const j = openJournal(d.disk);
    j.journal.command('game_a', { type: 'WAKE', at: 1000 }, 1);
    await j.journal.close();
    expect(d.state.started).toBe(1);
    expect(j.onDisk()).toContain('"at":1000');
  });
});
