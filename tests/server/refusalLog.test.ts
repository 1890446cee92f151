/**
 * The log of a flood's refusals: an operator sees the first refusal of each kind from an address
 * at once, and how many more there were in one line per address at the next sweep, never one
 * line per refused socket or message.
 */
import { describe, expect, it } from 'vitest';
import { RefusalLog } from '../../server/realtime/refusalLog';
import { capturedLog, type LogLine } from '../support/capturedLog';

function logged(): { log: RefusalLog; lines: LogLine[] } {
  const { logger, lines } = capturedLog({ base: null, timestamp: false });
  return { log: new RefusalLog(logger, 10_000), lines };
}

describe('the refusal log', () => {
  it('logs the first refusal per address and kind, and the rest as one count per address at the sweep', () => {
    const { log, lines } = logged();
    for (let i = 0; i < 1000; i++) log.note('connection', '203.0.113.7', 'address_limit');
    for (let i = 0; i < 3; i++) log.note('identify', '203.0.113.7', 'identify_rate_limited');
    log.note('connection', '198.51.100.1', 'connect_rate');
    expect(lines.map((l) => [l.msg, l.address, l.reason])).toEqual([
      ['connection refused', '203.0.113.7', 'address_limit'],
      ['message rejected', '203.0.113.7', 'identify_rate_limited'],
      ['connection refused', '198.51.100.1', 'connect_rate'],
    ]);
    log.sweep();
    expect(lines.slice(3)).toEqual([
      expect.objectContaining({ msg: 'more connections refused from this address', address: '203.0.113.7', refused: 999, seconds: 10 }),
      expect.objectContaining({ msg: 'more messages refused from this address', address: '203.0.113.7', refused: 2, seconds: 10 }),
    ]);
    // a new sweep period starts afresh: the next refusal is logged again, and a quiet period logs nothing
    log.note('connection', '203.0.113.7', 'address_limit');
    log.sweep();
    log.sweep();
    expect(lines).toHaveLength(6);
    expect(lines[5]).toMatchObject({ msg: 'connection refused', address: '203.0.113.7' });
  });
});
