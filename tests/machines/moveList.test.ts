import { describe, expect, it } from 'vitest';
import { withMove } from '../../machines/game/moveList';

describe('withMove', () => {
  it('gives a new list with the move last and leaves the old list as it was', () => {
    const empty: readonly string[] = [];
    const one = withMove(empty, 'e2e4');
    const two = withMove(one, 'e7e5');
    expect(empty).toEqual([]);
    expect(one).toEqual(['e2e4']);
    expect(two).toEqual(['e2e4', 'e7e5']);
    expect(two).not.toBe(one);
    expect(JSON.stringify(two)).toBe('["e2e4","e7e5"]'); // no holes: serialises as the list it is
  });
});
