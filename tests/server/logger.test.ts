/**
 * The server's log output (server/logger.ts): which format a start gets, what each looks like,
 * and what the log does while stdout's reader does not read.
 */
import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_BYTES, chooseLogFormat, createLogger, type LogOutput } from '../../server/logger';

/** An output that keeps what is written and whose queue the test sets, as a pipe's reader would. */
function output(): LogOutput & { text: string[]; queued: number; error(err: Error): void; drain(): void } {
  const listeners: { error: ((err: Error) => void)[]; drain: (() => void)[] } = { error: [], drain: [] };
  return {
    text: [],
    queued: 0,
    get writableLength() {
      return this.queued;
    },
    write(text: string) {
      this.text.push(text);
      return true;
    },
    on: (_event: 'error', listener: (err: Error) => void) => listeners.error.push(listener),
    once: (_event: 'drain', listener: () => void) => listeners.drain.push(listener),
    off: (_event: 'drain', listener: () => void) => listeners.drain.splice(listeners.drain.indexOf(listener), 1),
    error: (err: Error) => listeners.error.forEach((l) => l(err)),
    drain: () => listeners.drain.splice(0).forEach((l) => l()),
  };
}

describe('the log format', () => {
  it('is readable on a terminal or in development, JSON lines otherwise, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat('auto', 'production', true)).toBe('pretty');
    expect(chooseLogFormat('auto', 'development', false)).toBe('pretty');
    expect(chooseLogFormat('auto', 'production', false)).toBe('json');
    expect(chooseLogFormat('json', 'development', true)).toBe('json');
    expect(chooseLogFormat('pretty', 'production', false)).toBe('pretty');
  });

  it('writes a readable line with the time of day, the level, the message and its fields; or one JSON object', () => {
    const pretty = output();
    createLogger({ format: 'pretty', out: pretty }).log.info({ part: 'games', gameId: 'game_1' }, 'Ready: http://localhost:3000');
    expect(pretty.text).toHaveLength(1);
    expect(pretty.text[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Ready: http:\/\/localhost:3000 \{.*\}\n$/);
    expect(pretty.text[0]).toContain('"gameId":"game_1"');
    expect(pretty.text[0]).not.toContain('"level"');
    const json = output();
    createLogger({ format: 'json', out: json }).log.info({ part: 'games' }, 'game started');
    expect(JSON.parse(json.text[0])).toMatchObject({ level: 30, part: 'games', msg: 'game started' });
  });
});

describe('a reader that does not read', () => {
  it('costs lines past the queue, counted in a line once it reads again; a broken pipe costs every line after it', async () => {
    const out = output();
    const { log, flushed } = createLogger({ format: 'json', out });
    out.queued = MAX_QUEUED_BYTES + 1;
    for (let i = 0; i < 5; i++) log.info('dropped');
    expect(out.text).toEqual([]);
    // the queue is written: whoever waits for it goes on
    const waiting = flushed(60_000);
    out.queued = 0;
    out.drain();
    await waiting;
    log.info('after');
    expect(out.text.map((t) => JSON.parse(t) as { msg: string; dropped?: number })).toEqual([
      expect.objectContaining({ msg: 'log lines dropped: the reader of stdout did not keep up', dropped: 5 }),
      expect.objectContaining({ msg: 'after' }),
    ]);
    // the reader dies while a shutdown waits for the queue: the wait ends there
    out.queued = 100;
    const waitingForADeadReader = flushed(60_000);
    out.error(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await waitingForADeadReader;
    log.fatal('nobody reads this');
    expect(out.text).toHaveLength(2);
    await flushed(60_000); // at once: there is nobody to wait for
  });
});
