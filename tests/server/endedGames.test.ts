import { describe, expect, it } from 'vitest';
import { EndedGames } from '../../server/game/endedGames';

const frame = (s: string) => new TextEncoder().encode(s);

describe('EndedGames', () => {
  it('gives a game end to its two players only, and only while it is recent', () => {
    const ended = new EndedGames(1_000, 10);
    ended.record('g1', 'w', 'b', frame('end g1'), 0);
    expect(ended.frameFor('g1', 'w', 500)).toEqual(frame('end g1'));
    expect(ended.frameFor('g1', 'b', 1_000)).toEqual(frame('end g1'));
    expect(ended.frameFor('g1', 'x', 500)).toBeNull();
    expect(ended.frameFor('g2', 'w', 500)).toBeNull();
    expect(ended.frameFor('g1', 'w', 1_001)).toBeNull();
  });

  it('drops the oldest entries past the cap or the age when a game is added', () => {
    const ended = new EndedGames(1_000, 3);
    for (let i = 0; i < 5; i++) ended.record(`g${i}`, 'w', 'b', frame(`end ${i}`), i);
    expect(ended.size).toBe(3);
    expect(ended.frameFor('g1', 'w', 5)).toBeNull();
    expect(ended.frameFor('g2', 'w', 5)).toEqual(frame('end 2'));
    ended.record('late', 'w', 'b', frame('late'), 1_004);
    // g2 goes for the cap; g3 (t=3) is now older than 1 s, g4 (t=4) is not
    expect(ended.size).toBe(2);
    expect(ended.frameFor('g4', 'w', 1_004)).toEqual(frame('end 4'));
    expect(ended.frameFor('late', 'b', 1_004)).toEqual(frame('late'));
  });
});
