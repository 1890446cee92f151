/**
 * Group commit (server/game/groupCommit.ts) with a writer whose writes finish when the test says
 * so, on the test's clock: what shares a write, when a batch goes, who is told and in what order.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit, type BatchWriter } from '../../server/game/groupCommit';

/** A writer that keeps every write it is asked for open until `finish` or `fail`. */
function heldWriter() {
  const batches: number[][] = [];
  const open: { resolve: () => void; reject: (err: Error) => void }[] = [];
  const events: string[] = [];
  const writer: BatchWriter<number> = {
    write(batch) {
      batches.push([...batch]);
      return new Promise((resolve, reject) => open.push({ resolve, reject }));
    },
    failed: (err) => events.push(`failed: ${String(err)}`),
    recovered: () => events.push('recovered'),
    callbackFailed: (err) => events.push(`callback failed: ${String(err)}`),
  };
  const next = () => {
    const write = open.shift();
    if (!write) throw new Error('no write is open');
    return write;
  };
  return {
    writer,
    batches,
    events,
    finish: async () => {
      next().resolve();
      await settled();
    },
    fail: async (message: string) => {
      next().reject(new Error(message));
      await settled();
    },
  };
}

/** Lets the promise jobs queued so far (and those they queue) run. */
async function settled(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('group commit', () => {
  it('shares one write among the items of a window, which runs from the batch’s first item', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000, 2);
    commits.add(1);
    await advance(1);
    commits.add(2);
    commits.add(3);
    await advance(0);
    expect(w.batches).toEqual([]);
    await advance(1);
    expect(w.batches).toEqual([[1, 2, 3]]);
  });

  it('with a window of 0 writes what one turn gathered at the end of that turn', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000);
    commits.add(1);
    commits.add(2);
    expect(w.batches).toEqual([]);
    await advance(0);
    expect(w.batches).toEqual([[1, 2]]);
  });

  it('puts what arrives during a write into the next batch, written after that commit and its own window', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000, 2);
    commits.add(1);
    await advance(2);
    commits.add(2); // its window ends 2 ms from now
    await advance(1);
    commits.add(3);
    await w.finish();
    expect(w.batches).toEqual([[1]]);
    await advance(1);
    expect(w.batches).toEqual([[1], [2, 3]]);
  });

  it('writes a batch whose window passed during the previous write right after that commit', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000, 2);
    commits.add(1);
    await advance(2);
    commits.add(2);
    await advance(10);
    expect(w.batches).toEqual([[1]]);
    await w.finish();
    await advance(0);
    expect(w.batches).toEqual([[1], [2]]);
  });

  it('tells the waiting functions in order, each only once its batch is written', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000, 2);
    const told: string[] = [];
    commits.afterCommit(() => told.push('nothing waiting'));
    commits.add(1);
    commits.afterCommit(() => told.push('a'));
    commits.add(2);
    commits.afterCommit(() => told.push('b'));
    await advance(2);
    commits.afterCommit(() => told.push('c: nothing gathered, waits for the write'));
    commits.add(3);
    commits.afterCommit(() => told.push('d'));
    expect(told).toEqual(['nothing waiting']);
    expect(commits.waiting).toBe(true);
    await w.finish();
    expect(told).toEqual(['nothing waiting', 'a', 'b', 'c: nothing gathered, waits for the write']);
    await advance(2);
    await w.finish();
    expect(told).toEqual(['nothing waiting', 'a', 'b', 'c: nothing gathered, waits for the write', 'd']);
    expect(commits.waiting).toBe(false);
  });

  it('retries a failed write with the same batch, telling nobody until it works; failure and recovery reported once', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000, 2);
    const told: number[] = [];
    commits.add(1);
    commits.afterCommit(() => told.push(1));
    await advance(2);
    await w.fail('disk full');
    expect(commits.healthy).toBe(false);
    await advance(999);
    expect(w.batches).toEqual([[1]]);
    await advance(1);
    expect(w.batches).toEqual([[1], [1]]);
    await w.fail('disk still full');
    await advance(1000);
    expect(told).toEqual([]);
    await w.finish();
    expect(told).toEqual([1]);
    expect(commits.healthy).toBe(true);
    expect(w.events).toEqual(['failed: Error: disk full', 'recovered']);
  });

  it('reports a waiting function that throws and still tells the others', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000);
    const told: number[] = [];
    commits.add(1);
    commits.afterCommit(() => told.push(1));
    commits.afterCommit(() => {
      throw new Error('socket gone');
    });
    commits.afterCommit(() => told.push(3));
    await advance(0);
    await w.finish();
    expect(told).toEqual([1, 3]);
    expect(w.events).toEqual(['callback failed: Error: socket gone']);
  });

  it('drain writes without waiting for windows and resolves, for every caller, once nothing is left', async () => {
    const w = heldWriter();
    const commits = new GroupCommit(w.writer, 1000, 50);
    const drained: string[] = [];
    commits.add(1);
    void commits.drain().then(() => drained.push('first'));
    void commits.drain().then(() => drained.push('second'));
    expect(w.batches).toEqual([[1]]);
    commits.add(2);
    await w.finish();
    expect(w.batches).toEqual([[1], [2]]);
    expect(drained).toEqual([]);
    await w.finish();
    expect(drained).toEqual(['first', 'second']);
    await advance(50);
    expect(w.batches).toEqual([[1], [2]]);
  });
});
