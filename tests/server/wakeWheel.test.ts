import { describe, expect, it } from 'vitest';
import { WakeWheel, type WheelEntry } from '../../server/game/wakeWheel';
import { seeded } from '../../server/seeded';

interface Named extends WheelEntry {
  name: string;
}
const entry = (name: string): Named => ({ name, wakeSlot: -1, wakePrev: null, wakeNext: null });

describe('WakeWheel', () => {
  it('never hands an entry out before its time, and at most one slot after', () => {
    const w = new WakeWheel<Named>(50, 1_000);
    const a = entry('a');
    w.schedule(a, 1_120);
    expect(w.takeDue(1_119)).toEqual([]);
    expect(w.takeDue(1_149)).toEqual([]);
    expect(w.takeDue(1_150)).toEqual([a]);
    expect(a.wakeSlot).toBe(-1);
    expect(w.takeDue(2_000)).toEqual([]);
  });

  it('moves a rescheduled entry and forgets a cancelled one', () => {
    const w = new WakeWheel<Named>(50, 0);
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
    const w = new WakeWheel<Named>(50, 0);
    const a = entry('a');
    const b = entry('b');
    w.takeDue(500);
    w.schedule(a, 10);
    w.schedule(b, Number.POSITIVE_INFINITY);
    expect(w.size).toBe(1);
    expect(w.takeDue(550)).toEqual([a]);
  });

  it('hands out everything due after a long stall, earliest first', () => {
    const w = new WakeWheel<Named>(50, 0);
    const items = [900_000, 100, 5_000].map((t, i) => {
      const e = entry(String(i));
      w.schedule(e, t);
      return e;
    });
    expect(w.takeDue(1_000_000).map((e) => e.name)).toEqual(['1', '2', '0']);
    expect(items.every((e) => e.wakeSlot === -1)).toBe(true);
  });

  it('agrees with a plain list of due times through random schedules, cancels, stalls and ring wrap-arounds', () => {
    const rand = seeded(7);
    // 16 buckets of 50 ms: a ring of 800 ms, so most times below wait one or more turns
    const w = new WakeWheel<Named>(50, 0, 4);
    const items = Array.from({ length: 40 }, (_, i) => entry(String(i)));
    /** the model: item -> the time it asked for (ms), or absent */
    const asked = new Map<Named, number>();
    let now = 0;
    let cursorSlot = 0;
    for (let step = 0; step < 4_000; step++) {
      const r = rand();
      const item = items[Math.floor(rand() * items.length)];
      if (r < 0.55) {
        const at = now + (rand() < 0.1 ? -100 : rand() < 0.8 ? rand() * 1_500 : rand() * 20_000);
        w.schedule(item, at);
        asked.set(item, Math.max(Math.ceil(at / 50), cursorSlot + 1));
      } else if (r < 0.65) {
        w.cancel(item);
        asked.delete(item);
      } else {
        now += rand() < 0.02 ? 5_000 + rand() * 5_000 : rand() * 120;
        const upTo = Math.floor(now / 50);
        const expected = [...asked.entries()].filter(([, slot]) => slot <= upTo).sort((a, b) => a[1] - b[1]);
        const got = w.takeDue(now);
        // same items, in slot order (items of one slot in any order)
        expect(new Set(got)).toEqual(new Set(expected.map(([e]) => e)));
        const slots = got.map((e) => asked.get(e)!);
        expect(slots).toEqual([...slots].sort((a, b) => a - b));
        for (const [e] of expected) asked.delete(e);
        if (upTo > cursorSlot) cursorSlot = upTo;
        expect(got.every((e) => e.wakeSlot === -1)).toBe(true);
      }
      expect(w.size).toBe(asked.size);
    }
  });
});
