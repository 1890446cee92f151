/** pino JSON logs; human-readable (pino-pretty) only when NODE_ENV=development. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(opts: { level?: string; nodeEnv?: string } = {}): Logger {
  const level = opts.level ?? 'info';
  if (opts.nodeEnv === 'development') {
    return pino({ level, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  return pino({ level });
}
