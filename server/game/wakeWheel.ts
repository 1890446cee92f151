/**
 * A hashed timing wheel: items wake in fixed-width time slots, all from one interval timer.
 * The game server keeps one entry per live game (its next deadline or clock report) and moves
 * it after every move, so scheduling must be cheap: the slots are a ring of buckets, each a
 * doubly linked list threaded through the entries themselves. Moving an entry is a few pointer
 * writes, with no Map, Set or allocation.
 *
 * An entry's slot is absolute (time / slot width); it waits in bucket `slot mod ring size`. A
 * bucket therefore also holds entries due one or more turns of the ring later; they are left
 * where they are until their own turn comes.
 */
export interface WheelEntry {
  /** the absolute slot the entry waits in; -1 when it waits in none (the wheel owns this field) */
  wakeSlot: number;
  /** neighbours in its bucket's list (owned by the wheel) */
  wakePrev: WheelEntry | null;
  wakeNext: WheelEntry | null;
}

/** Ring size: 4,096 buckets of 50 ms span 204.8 s; later entries wait a few turns more. */
const DEFAULT_BUCKET_BITS = 12;

export class WakeWheel<T extends WheelEntry> {
  private readonly buckets: (WheelEntry | null)[];
  private readonly mask: number;
  private count = 0;
  /** the last slot handed out by takeDue */
  private cursor: number;

  constructor(
    readonly slotMs: number,
    nowMs: number,
    bucketBits = DEFAULT_BUCKET_BITS,
  ) {
    this.buckets = new Array<WheelEntry | null>(1 << bucketBits).fill(null);
    this.mask = (1 << bucketBits) - 1;
    this.cursor = Math.floor(nowMs / slotMs);
  }

  /**
   * Wake `item` in the first slot that ends at or after `atMs` (never early, at most one slot
   * late); Infinity takes it off the wheel. Re-scheduling into the same slot costs nothing.
   */
  schedule(item: T, atMs: number): void {
    if (!Number.isFinite(atMs)) {
      this.cancel(item);
      return;
    }
    const slot = Math.max(Math.ceil(atMs / this.slotMs), this.cursor + 1);
    if (slot === item.wakeSlot) return;
    this.cancel(item);
    const b = slot & this.mask;
    const head = this.buckets[b];
    item.wakePrev = null;
    item.wakeNext = head;
    if (head) head.wakePrev = item;
    this.buckets[b] = item;
    item.wakeSlot = slot;
    this.count++;
  }

  cancel(item: T): void {
    if (item.wakeSlot === -1) return;
    this.unlink(item);
    item.wakeSlot = -1;
    this.count--;
  }

  /** The items whose slot has come by `nowMs`, taken off the wheel, earliest slot first. */
  takeDue(nowMs: number): T[] {
    const upTo = Math.floor(nowMs / this.slotMs);
    const due: T[] = [];
    if (upTo <= this.cursor) return due;
    if (upTo - this.cursor >= this.buckets.length) {
      // A stall longer than the ring: every bucket once, then in slot order.
      for (let b = 0; b < this.buckets.length; b++) this.collect(b, upTo, due);
      due.sort((x, y) => x.wakeSlot - y.wakeSlot);
    } else {
      for (let s = this.cursor + 1; s <= upTo; s++) this.collect(s & this.mask, upTo, due);
    }
    for (const item of due) item.wakeSlot = -1;
    this.count -= due.length;
    this.cursor = upTo;
    return due;
  }

  get size(): number {
    return this.count;
  }

  /** Moves the entries of bucket `b` that are due by slot `upTo` to `due` (takeDue clears their wakeSlot). */
  private collect(b: number, upTo: number, due: T[]): void {
    let e = this.buckets[b];
    while (e) {
      const next = e.wakeNext;
      if (e.wakeSlot <= upTo) {
        this.unlink(e);
        due.push(e as T);
      }
      e = next;
    }
  }

  /** Takes `item` out of its bucket's list (its wakeSlot is left for the caller). */
  private unlink(item: WheelEntry): void {
    const prev = item.wakePrev;
    const next = item.wakeNext;
    if (prev) prev.wakeNext = next;
    else this.buckets[item.wakeSlot & this.mask] = next;
    if (next) next.wakePrev = prev;
    item.wakePrev = null;
    item.wakeNext = null;
  }
}
