/**
 * The chat's flood limit, per author: at most `lines` lines in any `windowMs`, and never the same
 * line twice in a row within that window (lichess's chat refuses flooding and repeated lines as
 * well). Kept on the node of the author's socket: a player has one socket, so one node counts.
 */
import { CHAT } from '../../machines/protocol/constants';

export type FloodRefusal = 'too_many' | 'repeated';

interface Recent {
  /** when the author's recent lines were said, oldest first */
  times: number[];
  last: string;
}

/** Authors kept before the ones idle for a whole window are swept. */
const SWEEP_ABOVE = 10_000;

export class ChatFlood {
  private readonly recent = new Map<string, Recent>();

  constructor(
    private readonly lines: number = CHAT.lines,
    private readonly windowMs: number = CHAT.windowMs,
  ) {}

  /** Counts `text` said by `author` at `now` and returns null, or says why it is refused (not counted). */
  take(author: string, text: string, now: number): FloodRefusal | null {
    const r = this.recent.get(author) ?? { times: [], last: '' };
    const times = r.times.filter((t) => now - t < this.windowMs);
    if (times.length > 0 && r.last === text) return 'repeated';
    if (times.length >= this.lines) return 'too_many';
    times.push(now);
    if (!this.recent.has(author) && this.recent.size >= SWEEP_ABOVE) this.sweep(now);
    this.recent.set(author, { times, last: text });
    return null;
  }

  /** Waiting time until `author` may say another line, ms (0: now). */
  waitMs(author: string, now: number): number {
    const times = this.recent.get(author)?.times.filter((t) => now - t < this.windowMs) ?? [];
    return times.length < this.lines ? 0 : times[0] + this.windowMs - now;
  }

  private sweep(now: number): void {
    for (const [author, r] of this.recent) if (r.times.every((t) => now - t >= this.windowMs)) this.recent.delete(author);
  }
}
