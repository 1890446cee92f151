/** The chat's flood limit per author, with injected time: lines per window, repeats, and what a refusal says to wait. */
import { describe, expect, it } from 'vitest';
import { ChatFlood } from '../../server/chat/flood';

describe('chat flood limit', () => {
  it('allows `lines` lines in any window, per author, and says when the next is allowed', () => {
    const f = new ChatFlood(3, 10_000);
    expect([f.take('a', '1', 0), f.take('a', '2', 1_000), f.take('a', '3', 2_000)]).toEqual([null, null, null]);
    expect(f.take('a', '4', 2_500)).toBe('too_many');
    expect(f.waitMs('a', 2_500)).toBe(7_500);
    expect(f.take('b', '1', 2_500)).toBeNull();
    // the first line leaves the window: one more is allowed
    expect(f.take('a', '4', 10_000)).toBeNull();
    expect(f.take('a', '5', 10_500)).toBe('too_many');
  });

  it('refuses the same line twice running within the window, and a refused line is not counted', () => {
    const f = new ChatFlood(3, 10_000);
    expect(f.take('a', 'gg', 0)).toBeNull();
    expect(f.take('a', 'gg', 100)).toBe('repeated');
    expect(f.take('a', 'wp', 200)).toBeNull();
    expect(f.take('a', 'gg', 300)).toBeNull();
    expect(f.take('a', 'gg', 20_000)).toBeNull();
  });
});
