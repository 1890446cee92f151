/**
 * What games against the AI need of the game core: a game without a clock (each move within a
 * limit per move, the clock starting again every turn, no increment), and a seat that fails (the
 * engine) ending the game as a technical draw. And the engine's search time from its clock.
 */
import { describe, expect, it } from 'vitest';
import { BLACK, WHITE, startGame } from './gameHarness';
import { engineMovetimeMs, enginePauseMs, MIN_ENGINE_MOVETIME_MS, SHORT_CLOCK_MS } from '../../machines/ai/movetime';
import { gameTimeControl } from '../../machines/game';

describe('a game without a clock', () => {
  it('gives each move its whole limit again, with no increment, and loses on time only a move that takes longer', () => {
    const g = startGame({ untimed: true, clockMs: 10_000, incrementMs: 5_000, firstMoveDeadlineMs: 10_000 });
    g.play(['e2e4', 'e7e5'], 9_000);
    g.advance(9_000);
    g.move(WHITE.id, 'g1f3');
    expect(g.state().clocks.white).toBe(10_000);
    g.advance(9_500);
    g.move(BLACK.id, 'b8c6');
    expect(g.state().clocks).toEqual({ white: 10_000, black: 10_000 });
    expect(g.result()).toBeNull();
    g.advance(13_000);
    expect(g.result()).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('has no time control to show', () => {
    expect(gameTimeControl({ untimed: true, clockMs: 600_000 })).toBeNull();
    expect(gameTimeControl({ clockMs: 180_000, incrementMs: 2_000 })).toEqual({ initial: 180, increment: 2 });
  });
});

describe('a seat that fails', () => {
  it('ends the game as a technical draw; a stranger cannot', () => {
    const g = startGame();
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'SEAT_FAILED', playerId: 'someone' });
    expect(g.result()).toBeNull();
    g.send({ type: 'SEAT_FAILED', playerId: BLACK.id });
    expect(g.result()).toEqual({ winner: 'draw', reason: 'technical_draw' });
  });
});

describe('the engine\'s search time', () => {
  it('is the level\'s without a clock, and on a long clock', () => {
    expect(engineMovetimeMs(1_000, null)).toBe(1_000);
    expect(engineMovetimeMs(1_000, { remainingMs: 180_000, incrementMs: 0 })).toBe(1_000);
  });

  it('shrinks with the clock: a 40th of what is left (less a reserve) and most of the increment', () => {
    expect(engineMovetimeMs(1_000, { remainingMs: 21_000, incrementMs: 0 })).toBe(500);
    expect(engineMovetimeMs(1_000, { remainingMs: 5_000, incrementMs: 0 })).toBe(100);
    expect(engineMovetimeMs(1_000, { remainingMs: 5_000, incrementMs: 1_000 })).toBe(900);
    expect(engineMovetimeMs(1_000, { remainingMs: 500, incrementMs: 0 })).toBe(MIN_ENGINE_MOVETIME_MS);
  });

  it('never flags a 3+0 game: 80 moves at the longest level use well under the clock', () => {
    let remaining = 180_000;
    for (let move = 0; move < 200; move++) remaining -= engineMovetimeMs(1_000, { remainingMs: remaining, incrementMs: 0 }) + 50;
    expect(remaining).toBeGreaterThan(0);
  });

  it('pauses like a human only while the clock is not short', () => {
    expect(enginePauseMs(1_000, 300, null)).toBe(700);
    expect(enginePauseMs(1_000, 300, { remainingMs: SHORT_CLOCK_MS + 10_000, incrementMs: 0 })).toBe(700);
    expect(enginePauseMs(1_000, 300, { remainingMs: SHORT_CLOCK_MS - 1, incrementMs: 0 })).toBe(0);
  });
});
