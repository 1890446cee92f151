import { describe, expect, it } from 'vitest';
import type { WatchStartMsg } from '../../machines/protocol/messages';
import { currentClocks } from '../../machines/client/clock';
import { followWatched, watchedGame } from '../../machines/client/spectator';

const AFTER_E4_E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';

const START: WatchStartMsg = {
  type: 'watchStart', gameId: 'g1', white: { name: 'Alice' }, black: { name: 'Bob' }, timerDuration: 600,
  currentState: {
    fen: AFTER_E4_E5, turn: 'white', moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }],
    timers: { white: 598, black: 597 }, clocks: { white: 597_100, black: 596_400 }, seq: 2,
  },
  ratings: { white: null, black: { rating: 1612, provisional: false } },
};

describe('a live game as a spectator follows it', () => {
  it('starts from watchStart with the moves, the names and ratings, and the running clock', () => {
    const g = watchedGame(START, 1_000);
    expect(g.plies.map((p) => p.san)).toEqual(['e4', 'e5']);
    expect(g).toMatchObject({ white: { name: 'Alice', rating: null }, black: { name: 'Bob', rating: { rating: 1612 } }, turn: 'white', stale: false });
    expect(currentClocks(g.clock, 3_500)).toEqual({ white: 594_600, black: 596_400 });
  });

  it('adds each move once, takes the clocks of the frames, and stops them at the end', () => {
    let g = watchedGame(START, 0);
    const move = { type: 'gameMove', gameId: 'g1', move: { from: 'g1', to: 'f3' }, nextTurn: 'black', san: 'Nf3', clocks: { white: 590_000, black: 596_400 }, seq: 3 } as const;
    g = followWatched(g, move, 100);
    expect(followWatched(g, move, 200)).toBe(g);
    expect(g.plies.map((p) => p.san)).toEqual(['e4', 'e5', 'Nf3']);
    expect(g.turn).toBe('black');
    expect(followWatched(g, { ...move, gameId: 'other', seq: 4 }, 200)).toBe(g);
    g = followWatched(g, { type: 'timerUpdate', gameId: 'g1', timers: { white: 590, black: 596 }, clocks: { white: 590_000, black: 595_000 } }, 1_000);
    expect(currentClocks(g.clock, 1_500)).toEqual({ white: 590_000, black: 594_500 });
    g = followWatched(g, { type: 'gameEnd', gameId: 'g1', winner: 'white', reason: 'resignation' }, 2_000);
    expect(g.end).toEqual({ winner: 'white', reason: 'resignation' });
    expect(currentClocks(g.clock, 60_000)).toEqual({ white: 590_000, black: 594_000 });
    expect(followWatched(g, { type: 'gameArchived', gameId: 'g1' }, 3_000).archived).toBe(true);
  });

  it('marks the game stale when a move was missed, so the page asks for it again', () => {
    const g = followWatched(watchedGame(START, 0), { type: 'gameMove', gameId: 'g1', move: { from: 'b8', to: 'c6' }, nextTurn: 'white', seq: 4 }, 10);
    expect(g.stale).toBe(true);
    expect(g.plies).toHaveLength(2);
  });
});
