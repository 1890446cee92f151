/**
 * A hashed timing wheel: items wake in fixed-width time slots, all from one interval timer.
 * The game server keeps one entry per live game (its next deadline or clock report), so a move
 * costs two Set operations instead of cancelling and re-arming a Node timer per game.
 */
export interface WheelEntry {
  /** the slot the entry waits in; -1 when it waits in none (the wheel owns this field) */
  wakeSlot: number;
}

export class WakeWheel<T extends WheelEntry> {
  private readonly slots = new Map<number, Set<T>>();
  /** the last slot handed out by takeDue */
  private cursor: number;

  constructor(
    readonly slotMs: number,
    nowMs: number,
  ) {
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
    let set = this.slots.get(slot);
    if (!set) this.slots.set(slot, (set = new Set()));
    set.add(item);
    item.wakeSlot = slot;
  }

  cancel(item: T): void {
    if (item.wakeSlot === -1) return;
    const set = this.slots.get(item.wakeSlot);
    if (set) {
      set.delete(item);
      if (set.size === 0) this.slots.delete(item.wakeSlot);
    }
    item.wakeSlot = -1;
  }

  /** The items whose slot has come by `nowMs`, taken off the wheel, earliest slot first. */
  takeDue(nowMs: number): T[] {
    const upTo = Math.floor(nowMs / this.slotMs);
    const due: T[] = [];
    if (upTo <= this.cursor) return due;
    // Jump over empty stretches (a stalled loop, or nothing scheduled for a long while).
    const keys = upTo - this.cursor > this.slots.size ? [...this.slots.keys()].filter((k) => k <= upTo).sort((a, b) => a - b) : null;
    const visit = (slot: number) => {
      const set = this.slots.get(slot);
      if (!set) return;
      this.slots.delete(slot);
      for (const item of set) {
        item.wakeSlot = -1;
        due.push(item);
      }
    };
    if (keys) for (const k of keys) visit(k);
    else for (let s = this.cursor + 1; s <= upTo; s++) visit(s);
    this.cursor = upTo;
    return due;
  }

  get size(): number {
    let n = 0;
    for (const set of this.slots.values()) n += set.size;
    return n;
  }
}
