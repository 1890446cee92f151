import { describe, expect, it } from 'vitest';
import { warmUpChessCore, warmUpGameMachine, warmUpMoveFrames } from '../../server/game/warmUp';

describe('start-up warm-up', () => {
  it('plays every legal move of its positions (each one legal, played and taken back)', () => {
    // one round: the start position alone has 20 moves, kiwipete 48
    expect(warmUpChessCore(1)).toBeGreaterThan(200);
  });

  it('takes the game machine through every way a game ends', () => {
    const { games, endings, promotions } = warmUpGameMachine(1);
    expect(games).toBe(7);
    expect(endings).toEqual(['aborted', 'agreement', 'checkmate', 'disconnection', 'resignation', 'timeout']);
    // the promotion script's moves were all accepted (a refused one would leave these out)
    expect(promotions).toEqual(['bxa8=Q', 'g1=N']);
  });

  it('reads every one of its move frames (plain, with a piece, a promotion, both)', () => {
    expect(warmUpMoveFrames(1)).toBe(4);
  });
});
