import { describe, expect, it } from 'vitest';
import { ratingDeltaText, ratingText } from '../../machines/client/ratingText';

describe('rating texts', () => {
  it('a provisional rating carries a question mark; changes are signed whole points', () => {
    expect(ratingText({ rating: 1499.6, provisional: true })).toBe('1500?');
    expect(ratingText({ rating: 1712.2, provisional: false })).toBe('1712');
    expect(ratingDeltaText({ before: 1500, after: 1662.3 })).toBe('+162');
    expect(ratingDeltaText({ before: 1500, after: 1487.6 })).toBe('\u221212');
    expect(ratingDeltaText({ before: 1500.2, after: 1500.4 })).toBe('+0');
  });
});
