import { describe, expect, it } from 'vitest';
import { replayGame } from '../../machines/client/replay';

describe('replay of an archived game', () => {
  it('gives the position, SAN and both clocks at every ply', () => {
    const plies = replayGame(['f2f3', 'e7e5', 'g2g4', 'd8h4'], [600_000, 600_000, 597_500, 591_000], 600_000);
    expect(plies.map((p) => p.san)).toEqual([null, 'f3', 'e5', 'g4', 'Qh4#']);
    expect(plies[3]!.clocks).toEqual({ white: 597_500, black: 600_000 });
    expect(plies[4]!.clocks).toEqual({ white: 597_500, black: 591_000 });
    expect(plies[4]!.lastMove).toEqual(['d8', 'h4']);
    expect(plies[4]!.fen).toBe('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    expect(plies[0]!.turn).toBe('white');
  });

  it('stops at a move that is not legal instead of showing a wrong position', () => {
    expect(replayGame(['e2e4', 'e2e4'], [1, 2], 600_000)).toHaveLength(2);
  });
});
