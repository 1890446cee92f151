import { describe, expect, it } from 'vitest';
import { WakeWheel } from '../../server/game/wakeWheel';

const entry = (name: string) => ({ name, wakeSlot: -1 });

describe('WakeWheel', () => {
  it('never hands an entry out before its time, and at most one slot after', () => {
    const w = new WakeWheel<ReturnType<typeof entry>>(50, 1_000);
    const a = entry('a');
    w.schedule(a, 1_120);
    expect(w.takeDue(1_119)).toEqual([]);
    expect(w.takeDue(1_149)).toEqual([]);
    expect(w.takeDue(1_150)).toEqual([a]);
    expect(a.wakeSlot).toBe(-1);
    expect(w.takeDue(2_000)).toEqual([]);
  });

  it('moves a rescheduled entry and forgets a cancelled one', () => {
    const w = new WakeWheel<ReturnType<typeof entry>>(50, 0);
    const a = entry('a');
    const b = entry('b');
    w.schedule(a, 100);
    w.schedule(b, 100);
    w.schedule(a, 400);
    w.cancel(b);
    expect(w.takeDue(300)).toEqual([]);
    expect(w.takeDue(400)).toEqual([a]);
    expect(w.size).toBe(0);
  });

  it('puts a time already past in the next slot, and Infinity nowhere', () => {
    const w = new WakeWheel<ReturnType<typeof entry>>(50, 0);
    const a = entry('a');
    const b = entry('b');
    w.takeDue(500);
    w.schedule(a, 10);
    w.schedule(b, Number.POSITIVE_INFINITY);
    expect(w.size).toBe(1);
    expect(w.takeDue(550)).toEqual([a]);
  });

  it('hands out everything due after a long stall, earliest first', () => {
    const w = new WakeWheel<ReturnType<typeof entry>>(50, 0);
    const items = [900_000, 100, 5_000].map((t, i) => {
      const e = entry(String(i));
      w.schedule(e, t);
      return e;
    });
    expect(w.takeDue(1_000_000).map((e) => e.name)).toEqual(['1', '2', '0']);
    expect(items.every((e) => e.wakeSlot === -1)).toBe(true);
  });
});
