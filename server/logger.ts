/**
 * The server's log: pino, one line per event on stdout, as JSON lines (for a log collector) or as
 * readable lines (pino-pretty's formatter, for a terminal; chooseLogFormat).
 *
 * Writing a log line never blocks the event loop. pino's own destination writes synchronously:
 * when the pipe is full (a reader that stalls) it sleeps on the main thread and retries, and its
 * synchronous flush (after a `fatal` line) retries even a broken pipe every 100 ms for ever. So
 * once the reader of `npm start | tee log` stalled and died, SIGTERM never ended the server (its
 * main thread in that loop: strace showed write = EPIPE, a 100 ms futex wait, the same write).
 * Here the lines go through process.stdout, which queues what the pipe does not take; past
 * MAX_QUEUED_BYTES further lines are dropped (and counted in a line once the reader catches up),
 * and once the pipe is broken they are dropped silently.
 */
import pino, { type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { LogFormat } from './config/index';

export type { Logger };

/**
 * The format LOG_FORMAT asks for; unset ('auto'): readable lines when a person reads stdout (a
 * terminal) or in development, JSON lines for anything else (a pipe, a file, a collector).
 */
export function chooseLogFormat(setting: LogFormat | 'auto', nodeEnv: string, stdoutIsTerminal: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return stdoutIsTerminal || nodeEnv === 'development' ? 'pretty' : 'json';
}

/** what process.stdout may hold for a reader that does not read before lines are dropped */
export const MAX_QUEUED_BYTES = 1 << 20;

/** The part of process.stdout the log uses (a pipe, a file or a terminal). */
export interface LogOutput {
  write(text: string): boolean;
  readonly writableLength: number;
  on(event: 'error', listener: (err: Error) => void): unknown;
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/** The pino destination: lines to the output, never blocking, dropped while the output cannot take them. */
export class LogSink {
  /** the output failed (a broken pipe): nothing more is written */
  private broken = false;
  /** lines dropped since the last one written */
  private dropped = 0;
  /** `flushed` calls waiting for the queue to be written (a broken output ends their wait) */
  private readonly waiting = new Set<() => void>();
  /** called with how many lines were dropped, once lines go through again */
  onResumed: (dropped: number) => void = () => {};

  constructor(
    private readonly out: LogOutput,
    private readonly format: (line: string) => string = (line) => line,
  ) {
    out.on('error', () => {
      this.broken = true;
      for (const done of this.waiting) done();
    });
  }

  write(line: string): void {
    if (this.broken) return;
    if (this.out.writableLength > MAX_QUEUED_BYTES) {
      this.dropped++;
      return;
    }
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      this.onResumed(dropped);
    }
    this.out.write(this.format(line));
  }

  /** Resolves once what is queued has been written, the output broke, or `withinMs` passed. */
  flushed(withinMs: number): Promise<void> {
    if (this.broken || this.out.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.out.off('drain', done);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, withinMs);
      this.out.once('drain', done);
      this.waiting.add(done);
    });
  }
}

export interface ServerLog {
  log: Logger;
  /** Resolves once the log's lines have been handed to stdout's reader, or `withinMs` passed. */
  flushed(withinMs: number): Promise<void>;
}

export function createLogger(opts: { level?: string; format?: LogFormat; out?: LogOutput } = {}): ServerLog {
  const out = opts.out ?? process.stdout;
  const format = opts.format === 'pretty' ? prettyFactory({ colorize: out === process.stdout && process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true }) : undefined;
  const sink = new LogSink(out, format);
  const log = pino({ level: opts.level ?? 'info' }, sink);
  sink.onResumed = (dropped) => log.warn({ dropped }, 'log lines dropped: the reader of stdout did not keep up');
  return { log, flushed: (withinMs) => sink.flushed(withinMs) };
}
