/**
 * A pino logger whose lines a test reads back as objects: what an operator would find in the
 * server's log (pino writes one JSON line per call to a plain `write` destination).
 */
import pino, { type Logger, type LoggerOptions } from 'pino';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A logger at `options` (info by default) and the lines it has written so far. */
export function capturedLog(options: LoggerOptions = { level: 'info' }, lines: LogLine[] = []): { logger: Logger; lines: LogLine[] } {
  const logger = pino(options, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}
