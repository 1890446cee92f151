/** The lobby's records on one node: a record goes to exactly one taker, and the seen entries of records gone are found once stale. */
import { describe, expect, it } from 'vitest';
import { MemoryRecords, orphans } from '../../server/lobby/records';

describe('lobby records', () => {
  it('gives a record to one taker only, and forgets its seen entry with it', async () => {
    const recs = new MemoryRecords<{ id: string }>();
    await recs.seen(['a'], { at: 1, node: '' });
    await recs.put({ id: 'a' });
    const [first, second] = await Promise.all([recs.take('a'), recs.take('a')]);
    expect([first, second]).toEqual([{ id: 'a' }, null]);
    expect((await recs.lastSeen()).size).toBe(0);
  });

  it('finds the stale seen entries of records gone, never a new record\'s (written just before it)', () => {
    const seen = new Map([
      ['gone', { at: 0, node: 'n1' }],
      ['new', { at: 9_000, node: 'n1' }],
      ['kept', { at: 0, node: 'n2' }],
    ]);
    expect(orphans(seen, [{ id: 'kept' }], 10_000, 5_000)).toEqual(['gone']);
  });
});
