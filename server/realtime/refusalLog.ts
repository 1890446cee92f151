/**
 * Refusals that a flood produces by the thousand (upgrades past the limits, identifications past
 * the budget) are logged once per address per sweep and the rest counted into one line at the
 * sweep: a flood of refusals must not become a flood of log writes on the event loop.
 */
import type { Logger } from 'pino';

/** what a flood's refusals are counted by in the log */
export type Refused = 'connection' | 'identify';

export class RefusalLog {
  /** refusals of an address since the last sweep ("connection …" / "identify …"), and how many of each are not yet logged */
  private readonly unlogged = new Map<string, { what: Refused; address: string; reason: string; unlogged: number }>();

  constructor(
    private readonly log: Logger,
    /** how often `sweep` is called, for the summary line */
    private readonly sweepEveryMs: number,
  ) {}

  /** The first refusal of its kind from `address` since the sweep is logged; the others are counted. */
  note(what: Refused, address: string, reason: string): void {
    const key = `${what} ${address}`;
    const seen = this.unlogged.get(key);
    if (seen) {
      seen.unlogged++;
      return;
    }
    this.unlogged.set(key, { what, address, reason, unlogged: 0 });
    this.log.info({ address, reason }, what === 'connection' ? 'connection refused' : 'message rejected');
  }

  /** One line per address and kind for the refusals counted since the last sweep. */
  sweep(): void {
    for (const { what, address, reason, unlogged } of this.unlogged.values()) {
      if (unlogged > 0) this.log.info({ address, reason, refused: unlogged, seconds: this.sweepEveryMs / 1000 }, `more ${what === 'connection' ? 'connections' : 'messages'} refused from this address`);
    }
    this.unlogged.clear();
  }
}
