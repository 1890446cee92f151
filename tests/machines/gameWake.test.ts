/**
 * Time in the game core: nothing happens without a command. A host sends WAKE at or after
 * `wakeAt(state)`, and the step then judges the deadlines against the WAKE's time.
 */
import { describe, expect, it } from 'vitest';
import { createGame, step, wakeAt } from '../../machines/game';
import { BLACK, WHITE, startGame, testInput } from './gameHarness';

describe('wake-ups', () => {
  it('deadlines pass unnoticed until WAKE', () => {
    const g = startGame({ firstMoveDeadlineMs: 5_000 });
    g.wait(60_000);
    expect(g.result()).toBeNull();
    g.send({ type: 'WAKE' });
    expect(g.ended()).toMatchObject({ winner: 'draw', reason: 'aborted' });
  });

  it('wakeAt names the first-move deadline, then the flag of the side to move', () => {
    const g = startGame({ firstMoveDeadlineMs: 5_000, clockMs: 10_000, startedAt: 700 });
    expect(wakeAt(g.state())).toBe(700 + 5_000);
    g.advance(1_000);
    g.move(WHITE.id, 'e2e4');
    expect(wakeAt(g.state())).toBe(700 + 1_000 + 5_000); // black's own first-move deadline
    g.advance(1_000);
    g.move(BLACK.id, 'e7e5');
    // white's clock runs from now: 10 s plus the flag grace (min of 2 s, the 1 s per-move cap and the bank)
    expect(wakeAt(g.state())).toBe(700 + 2_000 + 10_000 + 1_000);
  });

  it('an early WAKE changes nothing (the same state comes back); one at the deadline ends the game', () => {
    const g = startGame({ clockMs: 3_000 });
    g.play(['e2e4', 'e7e5']);
    const due = wakeAt(g.state());
    g.wait(due - g.now() - 1);
    const before = g.state();
    g.send({ type: 'WAKE' });
    expect(g.state()).toBe(before);
    g.wait(1);
    g.send({ type: 'WAKE' });
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'timeout' });
    expect(g.ended().clocks.white).toBe(0);
  });

  it('a move moves the deadline to the other side’s flag', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(4_000);
    g.move(WHITE.id, 'g1f3');
    expect(g.state().clocks).toEqual({ white: 56_000, black: 60_000 });
    expect(wakeAt(g.state())).toBe(g.now() + 60_000 + 1_000);
  });

  it('the disconnect grace ends the game on the WAKE at its end, not before', () => {
    const g = startGame({ clockMs: 600_000, graceMs: 10_000 });
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    expect(wakeAt(g.state())).toBe(g.now() + 10_000);
    g.wait(9_999);
    g.send({ type: 'WAKE' });
    expect(g.result()).toBeNull();
    g.wait(1);
    g.send({ type: 'WAKE' });
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'disconnection' });
    expect(wakeAt(g.state())).toBe(Number.POSITIVE_INFINITY);
  });

  it('a late WAKE judges the deadline as of its own time (the final clocks are charged to then)', () => {
    const g = startGame({ clockMs: 600_000, graceMs: 10_000 });
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.wait(10_050); // a host that wakes 50 ms late
    g.send({ type: 'WAKE' });
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'disconnection', clocks: { white: 589_950, black: 600_000 } });
  });
});

describe('the step is pure', () => {
  it('reads no clock and no random source, and changes nothing it was given', () => {
    const realNow = performance.now;
    const realDate = Date.now;
    const realRandom = Math.random;
    const forbidden = () => {
      throw new Error('the step read a clock or a random source');
    };
    performance.now = forbidden;
    Date.now = forbidden;
    Math.random = forbidden;
    try {
      let state = createGame(testInput({ clockMs: 5_000 }));
      const frozen = JSON.stringify(state);
      const first = step(state, { type: 'MOVE', playerId: WHITE.id, move: { from: 'e2', to: 'e4' } }, 100);
      expect(JSON.stringify(state)).toBe(frozen);
      state = first.state;
      const after = JSON.stringify(state);
      for (const [command, at] of [
        [{ type: 'MOVE', playerId: BLACK.id, move: { from: 'e7', to: 'e5' } }, 200],
        [{ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id }, 300],
        [{ type: 'OFFER_DRAW', playerId: BLACK.id }, 400],
        [{ type: 'WAKE' }, 9_000],
      ] as const) {
        const before = JSON.stringify(state);
        const next = step(state, command, at);
        expect(JSON.stringify(state)).toBe(before);
        state = next.state;
      }
      expect(JSON.stringify(first.state)).toBe(after);
      expect(state.result).toEqual({ winner: 'black', reason: 'timeout' });
    } finally {
      performance.now = realNow;
      Date.now = realDate;
      Math.random = realRandom;
    }
  });

  it('refuses a time that is not a finite number and changes nothing', () => {
    const state = createGame(testInput());
    const before = JSON.stringify(state);
    expect(() => step(state, { type: 'WAKE' }, Number.NaN)).toThrow(/now must be a finite number/);
    expect(JSON.stringify(state)).toBe(before);
  });

  it('refuses an input without a start time', () => {
    expect(() => createGame(testInput({ startedAt: Number.NaN }))).toThrow(/startedAt/);
  });
});
