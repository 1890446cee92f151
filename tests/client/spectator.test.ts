import { describe, expect, it } from 'vitest';
import type { WatchStartMsg } from '../../machines/protocol/messages';
import { clocksAt } from '../../machines/game/clock';
import { viewOf } from '../../machines/client/gameMirror';
import { followWatched, watchedGame } from '../../machines/client/spectator';

const AFTER_E4_E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';

const START: WatchStartMsg = {
  type: 'watchStart', gameId: 'g1', white: { name: 'Alice', guest: true }, black: { name: 'Bob', guest: false }, timerDuration: 600,
  currentState: {
    fen: AFTER_E4_E5, turn: 'white', moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }],
    timers: { white: 598, black: 597 }, clocks: { white: 597_100, black: 596_400 }, seq: 2,
  },
  ratings: { white: null, black: { rating: 1612, provisional: false } },
};

describe('a live game as a spectator follows it', () => {
  it('starts from watchStart with the moves, the names and ratings, and the running clock', () => {
    const g = watchedGame(START, 1_000);
    expect(g.game.moves).toEqual(['e2e4', 'e7e5']);
    expect(g).toMatchObject({ white: { name: 'Alice (guest)', rating: null }, black: { name: 'Bob', rating: { rating: 1612 } }, stale: false });
    expect(viewOf(g.game)).toMatchObject({ turn: 'white', clockRunning: 'white', fen: AFTER_E4_E5 });
    expect(clocksAt(g.game, 3_500)).toEqual({ white: 594_600, black: 596_400 });
  });

  it('adds each move once, takes the clocks of the frames, and stops them at the end', () => {
    let g = watchedGame(START, 0);
    const move = { type: 'gameMove', gameId: 'g1', move: { from: 'g1', to: 'f3' }, nextTurn: 'black', san: 'Nf3', clocks: { white: 590_000, black: 596_400 }, seq: 3 } as const;
    g = followWatched(g, move, 100);
    expect(followWatched(g, move, 200)).toBe(g);
    expect(g.game.moves).toEqual(['e2e4', 'e7e5', 'g1f3']);
    expect(g.game.turn).toBe('black');
    expect(followWatched(g, { ...move, gameId: 'other', seq: 4 }, 200)).toBe(g);
    g = followWatched(g, { type: 'timerUpdate', gameId: 'g1', timers: { white: 590, black: 596 }, clocks: { white: 590_000, black: 595_000 } }, 1_000);
    expect(clocksAt(g.game, 1_500)).toEqual({ white: 590_000, black: 594_500 });
    g = followWatched(g, { type: 'gameEnd', gameId: 'g1', winner: 'white', reason: 'resignation' }, 2_000);
    expect(g.game.result).toEqual({ winner: 'white', reason: 'resignation' });
    expect(clocksAt(g.game, 60_000)).toEqual({ white: 590_000, black: 594_000 });
    expect(followWatched(g, { type: 'gameArchived', gameId: 'g1' }, 3_000).archived).toBe(true);
  });

  it('marks the game stale when a move was missed, so the page asks for it again', () => {
    const g = followWatched(watchedGame(START, 0), { type: 'gameMove', gameId: 'g1', move: { from: 'b8', to: 'c6' }, nextTurn: 'white', seq: 4 }, 10);
    expect(g.stale).toBe(true);
    expect(g.game.moves).toHaveLength(2);
  });

  it("follows the game with the core's own step: a repetition ends it there, counted where the server counts it", () => {
    let g = watchedGame(START, 0);
    const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8'];
    for (const [i, uci] of shuffle.entries()) {
      g = followWatched(g, { type: 'gameMove', gameId: 'g1', move: { from: uci.slice(0, 2), to: uci.slice(2) }, nextTurn: i % 2 ? 'white' : 'black', seq: 3 + i }, i);
    }
    expect(g.game.result).toEqual({ winner: 'draw', reason: 'threefold repetition' });
    expect(viewOf(g.game).clockRunning).toBeNull();
    // the server's gameEnd for it changes nothing
    expect(followWatched(g, { type: 'gameEnd', gameId: 'g1', winner: 'draw', reason: 'threefold repetition' }, 9)).toBe(g);
  });
});

describe('a spectator and given time', () => {
  it('takes the clocks of timeGiven from then on', () => {
    let g = watchedGame(START, 0);
    g = followWatched(g, { type: 'timeGiven', gameId: 'g1', color: 'black', ms: 15_000, clocks: { white: 596_000, black: 611_400 } }, 1_000);
    expect(clocksAt(g.game, 1_500)).toEqual({ white: 595_500, black: 611_400 });
    expect(followWatched(g, { type: 'timeGiven', gameId: 'other', color: 'white', ms: 15_000, clocks: { white: 1, black: 1 } }, 2_000)).toBe(g);
  });
});

describe('a spectator and takebacks and chat', () => {
  it('goes back with an accepted takeback, clocks from the frame; keeps the spectator room and not the players’', () => {
    let g = watchedGame({ ...START, chat: [{ room: 'spectator', name: 'Zoe', guest: true, text: 'hi all' }] }, 0);
    g = followWatched(g, { type: 'gameMove', gameId: 'g1', move: { from: 'g1', to: 'f3' }, nextTurn: 'black', clocks: { white: 590_000, black: 596_400 }, seq: 3 }, 100);
    g = followWatched(g, { type: 'takeback', gameId: 'g1', plies: 1, fen: AFTER_E4_E5, turn: 'white', clocks: { white: 597_100, black: 596_400 }, seq: 2 }, 1_000);
    expect(g.game.moves).toEqual(['e2e4', 'e7e5']);
    expect(viewOf(g.game)).toMatchObject({ turn: 'white', clockRunning: 'white', fen: AFTER_E4_E5 });
    expect(clocksAt(g.game, 2_000)).toEqual({ white: 596_100, black: 596_400 });
    g = followWatched(g, { type: 'chatMessage', gameId: 'g1', room: 'spectator', name: 'Yan', text: '<b>wow</b>' }, 2_000);
    g = followWatched(g, { type: 'chatMessage', gameId: 'g1', room: 'player', name: 'Alice', color: 'white', text: 'psst' }, 2_000);
    expect(g.chat).toEqual([{ room: 'spectator', name: 'Zoe', guest: true, text: 'hi all' }, { room: 'spectator', name: 'Yan', text: '<b>wow</b>' }]);
  });
});
