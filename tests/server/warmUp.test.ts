import { describe, expect, it } from 'vitest';
import { warmUpChessCore, warmUpGameMachine } from '../../server/game/warmUp';

describe('start-up warm-up', () => {
  it('plays every legal move of its positions (each one legal, played and taken back)', () => {
    // one round: the start position alone has 20 moves, kiwipete 48
    expect(warmUpChessCore(1)).toBeGreaterThan(200);
  });

  it('takes the game machine through every way a game ends', () => {
    const { games, endings } = warmUpGameMachine(1);
    expect(games).toBe(6);
    expect(endings).toEqual(['aborted', 'agreement', 'checkmate', 'disconnection', 'resignation', 'timeout']);
  });
});
