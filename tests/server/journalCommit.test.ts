/**
 * The game journal's group commit in its strict mode (server/game/journal.ts,
 * GAME_JOURNAL_SYNC=always): a batch gathers for its commit window and then goes to disk in one
 * write and one sync, shared by every command of the window; nobody hears of a command before the
 * batch holding it is on disk. The window runs on the test's clock.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TimedCommand } from '../../machines/game';
import { FastCounter, FastHistogram } from '../../server/http/metrics';
import { PREALLOCATE_BYTES, openGameJournal, type GameJournal } from '../../server/game/journal';
import { recordsOf } from '../../server/game/journalRecovery';

const NO_LIVE_GAMES = { games: () => [], aiGames: () => [] };

function openJournal(commitWindowMs: number) {
  const commits = new FastHistogram('commits', 'test', [Infinity]);
  const bytes = new FastCounter('bytes', 'test');
  const dataDir = mkdtempSync(join(tmpdir(), 'journal-commit-'));
  const metrics = { commitSeconds: commits, bytesWritten: bytes, syncSeconds: new FastHistogram('syncs', 'test', [Infinity]) };
  const { journal } = openGameJournal(dataDir, metrics, pino({ level: 'silent' }), NO_LIVE_GAMES, { sync: 'always', commitWindowMs });
  const file = join(dataDir, 'games', 'journal');
  return { journal, syncs: () => commits.count, onDisk: () => recordsOf(readFileSync(file, 'utf8')), fileSize: () => statSync(file).size };
}

const wake = (n: number): TimedCommand => ({ type: 'WAKE', at: 1000 + n });

/** The end of this turn of the event loop (records of later turns are "later moves"). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves once everything recorded so far is on disk. */
const committed = (journal: GameJournal) => new Promise<void>((resolve) => journal.afterCommit(resolve));

let open: GameJournal[] = [];
afterEach(async () => {
  await Promise.all(open.map((j) => j.close()));
  open = [];
  vi.useRealTimers();
});

describe('game journal group commit (always)', () => {
  it('shares one write and sync among the commands of a window, and tells of none before it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const j = openJournal(2);
    open.push(j.journal);
    const before = j.onDisk();
    const told: number[] = [];
    for (let n = 0; n < 5; n++) {
      j.journal.command('game_a', wake(n), n + 1);
      j.journal.afterCommit(() => {
        // what a player is told of is on disk already
        expect(j.onDisk()).toContain(`"at":${1000 + n}`);
        told.push(n);
      });
      await nextTurn();
    }
    expect(j.journal.waiting).toBe(true);
    expect(told).toEqual([]);
    expect(j.onDisk()).toBe(before);

    const done = committed(j.journal);
    await vi.advanceTimersByTimeAsync(2);
    await done;
    expect(told).toEqual([0, 1, 2, 3, 4]);
    expect(j.syncs()).toBe(1);
    expect(j.journal.waiting).toBe(false);
  });

  it('with a window of 0 writes what one turn gathered at the end of that turn', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const j = openJournal(0);
    open.push(j.journal);
    j.journal.command('game_a', wake(0), 1);
    j.journal.command('game_a', wake(1), 2);
    await committed(j.journal);
    expect(j.syncs()).toBe(1);
    expect(j.onDisk()).toContain('"at":1001');
  });

  it('gathers the next batch while one is being synced, and writes it after its own window', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const j = openJournal(2);
    open.push(j.journal);
    j.journal.command('game_a', wake(0), 1);
    const first = committed(j.journal);
    await vi.advanceTimersByTimeAsync(2);
    // the first batch is being written: what comes now waits for the next
    j.journal.command('game_a', wake(1), 2);
    const second = committed(j.journal);
    await first;
    expect(j.onDisk()).not.toContain('"at":1001');
    await vi.advanceTimersByTimeAsync(2);
    await second;
    expect(j.onDisk()).toContain('"at":1001');
    expect(j.syncs()).toBe(2);
  });

  it('at close writes what is gathered without waiting for its window, tells its players, and ends with a sign of life', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const j = openJournal(2);
    j.journal.command('game_a', wake(0), 1);
    let told = false;
    j.journal.afterCommit(() => (told = true));
    await j.journal.close();
    expect(told).toBe(true);
    const lines = j.onDisk().trim().split('\n');
    expect(lines.at(-2)).toContain('"at":1000');
    expect(lines.at(-1)).toContain('"k":"alive"');
    j.journal.command('game_a', wake(1), 2);
    expect(j.journal.waiting).toBe(false);
    expect(j.onDisk()).not.toContain('"at":1001');
  });

  it('writes its records into zeros made ahead of them: the file grows a stretch at a time, not at every commit', async () => {
    const j = openJournal(0);
    open.push(j.journal);
    const start = j.fileSize();
    expect(Buffer.byteLength(j.onDisk())).toBe(start); // a journal just compacted holds records only
    j.journal.command('game_a', wake(0), 1);
    await committed(j.journal);
    const records = Buffer.byteLength(j.onDisk());
    expect(j.fileSize()).toBe(records + PREALLOCATE_BYTES); // the batch that did not fit brought the next stretch
    for (let n = 1; n <= 20; n++) {
      j.journal.command('game_a', wake(n), n + 1);
      await committed(j.journal);
    }
    expect(j.syncs()).toBe(21);
    expect(j.fileSize()).toBe(records + PREALLOCATE_BYTES); // the next 20 commits wrote into it
    expect(j.onDisk().trim().split('\n').slice(-21).map((l) => /"at":(\d+)/.exec(l)?.[1])).toEqual(Array.from({ length: 21 }, (_, n) => String(1000 + n)));
  });
});
