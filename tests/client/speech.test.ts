import { describe, expect, it } from 'vitest';
import { clockLabel, moveAnnouncement, spokenClock, spokenSan } from '../../machines/client/speech';

describe('what a screen reader hears of a game', () => {
  it('reads SAN as words', () => {
    expect(spokenSan('e4')).toBe('e4');
    expect(spokenSan('Nf3')).toBe('knight f3');
    expect(spokenSan('exd5')).toBe('e takes d5');
    expect(spokenSan('Nbd2')).toBe('knight b d2');
    expect(spokenSan('R1e2')).toBe('rook 1 e2');
    expect(spokenSan('Qxh4#')).toBe('queen takes h4, checkmate');
    expect(spokenSan('O-O')).toBe('short castling');
    expect(spokenSan('O-O-O+')).toBe('long castling, check');
    expect(spokenSan('exd8=N+')).toBe('e takes d8 promotes to knight, check');
  });

  it("announces the opponent's move with its side", () => {
    expect(moveAnnouncement('black', 'Nf6')).toBe('Black: knight f6.');
  });

  it('speaks clocks in minutes and seconds, tenths under ten seconds', () => {
    expect(spokenClock(600_000)).toBe('10 minutes');
    expect(spokenClock(598_200)).toBe('9 minutes 59 seconds');
    expect(spokenClock(61_000)).toBe('1 minute 1 second');
    expect(spokenClock(45_000)).toBe('45 seconds');
    expect(spokenClock(7_560)).toBe('7.5 seconds');
    expect(spokenClock(-5)).toBe('0.0 seconds');
    expect(clockLabel('white', 600_000)).toBe('White clock: 10 minutes');
  });
});
