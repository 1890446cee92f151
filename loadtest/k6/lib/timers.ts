/**
 * A player's named timers (k6/timers): at most one per name, all cleared at once when the
 * player leaves, so that the VU's iteration ends. Every timer that fires records how late it
 * fired (vu_timer_lag): a VU's timers run on its own event loop, so lateness is the generator
 * failing to give that VU its share of CPU, not anything the server did.
 */
import { clearTimeout, setTimeout } from 'k6/timers';
import type { TimeoutID } from 'k6/timers';
import { vuTimerLag } from './metrics.ts';

export class Timers {
  private readonly pending = new Map<string, TimeoutID>();

  /** Runs fn after ms, replacing any pending timer of the same name. */
  later(name: string, ms: number, fn: () => void): void {
    this.cancel(name);
    const due = Date.now() + ms;
    this.pending.set(
      name,
      setTimeout(() => {
        this.pending.delete(name);
        vuTimerLag.add(Math.max(0, Date.now() - due));
        fn();
      }, ms),
    );
  }

  /**
   * One sample of the generator's delay even for a player whose own timers all get cancelled
   * (a lobby-storm player): a timer due at once.
   */
  probeLag(): void {
    this.later('lag-probe', 0, () => {});
  }

  has(name: string): boolean {
    return this.pending.has(name);
  }

  cancel(name: string): void {
    const t = this.pending.get(name);
    if (t !== undefined) {
      clearTimeout(t);
      this.pending.delete(name);
    }
  }

  cancelAll(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
  }
}
