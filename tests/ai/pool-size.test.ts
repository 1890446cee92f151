/** The engine pool's default size is bounded by memory as well as by cores. */
import { describe, expect, it } from 'vitest';
import { ENGINE_MEMORY_BYTES, defaultPoolSize } from '../../server/config/ai';

const GB = 1024 ** 3;

describe('defaultPoolSize', () => {
  it('gives one engine per core when memory allows, fewer when it does not, never none', () => {
    expect(defaultPoolSize(16, 64 * GB)).toBe(16);
    expect(defaultPoolSize(16, 4 * GB)).toBe(8); // a quarter of 4 GB is 8 engines of 128 MB
    expect(defaultPoolSize(2, 1 * GB)).toBe(2);
    expect(defaultPoolSize(8, 2 * ENGINE_MEMORY_BYTES)).toBe(1);
    expect(defaultPoolSize(1, 64 * GB)).toBe(1);
  });
});
