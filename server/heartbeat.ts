/**
 * The server's one periodic timer. Everything that must happen on time without a message to
 * trigger it (game deadlines, clock reports) runs on its beats, and how late each beat fires is
 * the event-loop delay the metrics report.
 *
 * One timer on purpose: on a virtual machine every wake-up of an idle process costs tens of
 * microseconds of CPU, as much as handling a message. A separate 10 ms delay monitor (prom-client's
 * default) cost more CPU than the games' own timing wheel.
 */
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

export type BeatListener = (nowMs: number) => void;

export class Heartbeat {
  /** How late each beat fired, in nanoseconds (at least 1: the histogram takes no zeros). */
  readonly lag: RecordableHistogram = createHistogram();
  private timer: NodeJS.Timeout | null = null;
  private lastAt = 0;
  private readonly listeners: BeatListener[] = [];

  constructor(readonly periodMs: number) {}

  /** Runs `fn` on every beat, in the order added. A listener that throws is the listener's problem: it must not. */
  onBeat(fn: BeatListener): void {
    this.listeners.push(fn);
  }

  start(): void {
    if (this.timer) return;
    this.lastAt = performance.now();
    this.timer = setInterval(() => this.beat(), this.periodMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private beat(): void {
    const now = performance.now();
    const lateMs = now - this.lastAt - this.periodMs;
    this.lastAt = now;
    this.lag.record(Math.max(1, Math.round(lateMs * 1e6)));
    for (const fn of this.listeners) fn(now);
  }
}
