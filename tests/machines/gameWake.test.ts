/**
 * The 'driven' game machine (what the server runs): it keeps no timers of its own; its runner
 * sends WAKE at `wakeAt(context)`, and the machine then judges the deadlines exactly as the
 * self-timed machine's timers do.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drivenGameMachine, wakeAt } from '../../machines/game';
import { BLACK, WHITE, startGame } from './gameHarness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const driven = (overrides: Parameters<typeof startGame>[0] = {}) => startGame(overrides, drivenGameMachine);

describe('driven game machine', () => {
  it('schedules nothing itself: deadlines pass unnoticed until WAKE', () => {
    const g = driven({ firstMoveDeadlineMs: 5_000 });
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(g.snap().status).toBe('active');
    g.actor.send({ type: 'WAKE' });
    expect(g.ended()).toMatchObject({ winner: 'draw', reason: 'aborted' });
  });

  it('wakeAt names the first-move deadline, then the flag of the side to move', () => {
    const g = driven({ firstMoveDeadlineMs: 5_000, clockMs: 10_000 });
    const t0 = Date.now();
    expect(wakeAt(g.ctx())).toBe(t0 + 5_000);
    vi.advanceTimersByTime(1_000);
    g.move(WHITE.id, 'e2e4');
    expect(wakeAt(g.ctx())).toBe(t0 + 1_000 + 5_000); // black's own first-move deadline
    vi.advanceTimersByTime(1_000);
    g.move(BLACK.id, 'e7e5');
    // white's clock runs from now: 10 s plus the flag grace (min of 2 s, the 1 s per-move cap and the bank)
    expect(wakeAt(g.ctx())).toBe(t0 + 2_000 + 10_000 + 1_000);
  });

  it('an early WAKE changes nothing; one at the deadline ends the game as the timers would', () => {
    const g = driven({ clockMs: 3_000 });
    g.play(['e2e4', 'e7e5']);
    const due = wakeAt(g.ctx());
    vi.advanceTimersByTime(due - Date.now() - 1);
    g.actor.send({ type: 'WAKE' });
    expect(g.snap().status).toBe('active');
    expect(g.ofType('moved')).toHaveLength(2);
    vi.advanceTimersByTime(1);
    g.actor.send({ type: 'WAKE' });
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'timeout' });
    expect(g.ended()!.clocks.white).toBe(0);
  });

  it('a move stays in `running` and moves the deadline to the other side’s flag', () => {
    const g = driven({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(4_000);
    g.move(WHITE.id, 'g1f3');
    expect(g.snap().value).toBe('running');
    expect(g.ctx().clocks).toEqual({ white: 56_000, black: 60_000 });
    expect(wakeAt(g.ctx())).toBe(Date.now() + 60_000 + 1_000);
  });

  it('the disconnect grace ends the game on the WAKE at its end, not before', () => {
    const g = driven({ clockMs: 600_000, graceMs: 10_000 });
    g.play(['e2e4', 'e7e5']);
    g.actor.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    expect(wakeAt(g.ctx())).toBe(Date.now() + 10_000);
    vi.advanceTimersByTime(9_999);
    g.actor.send({ type: 'WAKE' });
    expect(g.snap().status).toBe('active');
    vi.advanceTimersByTime(1);
    g.actor.send({ type: 'WAKE' });
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'disconnection' });
  });

  it('plays the same game as the self-timed machine', () => {
    const moves = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];
    const a = startGame();
    const b = driven();
    a.play(moves, 500);
    b.play(moves, 500);
    expect(b.ofType('moved')).toEqual(a.ofType('moved'));
    expect(b.ended()).toEqual(a.ended());
    expect(wakeAt(b.ctx())).toBe(Number.POSITIVE_INFINITY);
  });
});
