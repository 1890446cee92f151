import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BLACK, WHITE, startGame } from './gameHarness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('game machine: first-move deadline', () => {
  it('aborts when white does not make a first move within 30 s by default', () => {
    const g = startGame();
    vi.advanceTimersByTime(29_999);
    expect(g.snap().status).toBe('active');
    vi.advanceTimersByTime(1);
    expect(g.ended()).toMatchObject({ winner: 'draw', reason: 'aborted' });
  });

  it('gives black its own deadline counted from white’s first move', () => {
    const g = startGame({ firstMoveDeadlineMs: 5_000 });
    vi.advanceTimersByTime(4_000);
    g.move(WHITE.id, 'e2e4');
    vi.advanceTimersByTime(4_999);
    expect(g.snap().status).toBe('active');
    vi.advanceTimersByTime(1);
    expect(g.snap().output).toEqual({ winner: 'draw', reason: 'aborted' });
  });

  it('has no deadline once both sides have moved (the clocks take over)', () => {
    const g = startGame({ firstMoveDeadlineMs: 5_000, clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(30_000);
    expect(g.snap().status).toBe('active');
  });
});

describe('game machine: clocks', () => {
  it('starts a side’s clock only from ply 2, then charges thinking time', () => {
    const g = startGame({ clockMs: 60_000 });
    vi.advanceTimersByTime(10_000);
    g.move(WHITE.id, 'e2e4');
    vi.advanceTimersByTime(12_000);
    g.move(BLACK.id, 'e7e5');
    expect(g.ofType('moved')[1].clocks).toEqual({ white: 60_000, black: 60_000 });
    expect(g.ofType('clock')).toEqual([]);

    vi.advanceTimersByTime(5_000);
    g.move(WHITE.id, 'g1f3');
    expect(g.ofType('moved')[2].clocks).toEqual({ white: 55_000, black: 60_000 });
    vi.advanceTimersByTime(7_000);
    g.move(BLACK.id, 'b8c6');
    expect(g.ofType('moved')[3].clocks).toEqual({ white: 55_000, black: 53_000 });
  });

  it('emits a clock event once per second while a clock runs', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(3_500);
    expect(g.ofType('clock')).toEqual([
      { type: 'clock', clocks: { white: 59_000, black: 60_000 }, turn: 'white' },
      { type: 'clock', clocks: { white: 58_000, black: 60_000 }, turn: 'white' },
      { type: 'clock', clocks: { white: 57_000, black: 60_000 }, turn: 'white' },
    ]);
    g.move(WHITE.id, 'g1f3');
    vi.advanceTimersByTime(1_000);
    expect(g.ofType('clock').at(-1)).toEqual({
      type: 'clock',
      clocks: { white: 56_500, black: 59_000 },
      turn: 'black',
    });
    expect(g.ofType('clock')).toHaveLength(4);
  });

  it('copes with clocks longer than the longest timer (2^31-1 ms) without firing early', () => {
    const g = startGame({ clockMs: 3_000_000_000, firstMoveDeadlineMs: 2_500_000_000, clockEvents: false });
    vi.advanceTimersByTime(2_400_000_000);
    expect(g.snap().status).toBe('active');
    vi.advanceTimersByTime(100_000_000);
    expect(g.snap().output).toEqual({ winner: 'draw', reason: 'aborted' });

    const h = startGame({ clockMs: 3_000_000_000, clockEvents: false });
    h.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(2_999_999_000);
    expect(h.snap().status).toBe('active');
    vi.advanceTimersByTime(1_000 + 1_000); // the clock, then the 1 s flag grace
    expect(h.snap().output).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('can leave the per-second clock events to the server and still flag on time', () => {
    const g = startGame({ clockMs: 5_000, clockEvents: false });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(5_999);
    expect(g.ofType('clock')).toEqual([]);
    expect(g.snap().status).toBe('active');
    vi.advanceTimersByTime(1);
    expect(g.snap().output).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('flags the side to move after its time plus the flag grace; the opponent wins on time', () => {
    const g = startGame({ clockMs: 10_000 });
    g.play(['e2e4', 'e7e5']);
    // Flag grace = min(2 s, per-move lag cap 1 s, bank 3 s) = 1 s.
    vi.advanceTimersByTime(10_999);
    expect(g.snap().status).toBe('active');
    vi.advanceTimersByTime(1);
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'timeout', clocks: { white: 0, black: 10_000 } });
    expect(g.ended().pgn).toContain('[Termination "Time forfeit"]');
  });

  it('calls a timeout a draw when the side left on the board cannot mate', () => {
    // White K+Q against a lone black king: if white flags, black cannot win.
    const g = startGame({ clockMs: 5_000, startFen: 'k7/8/8/8/8/8/8/3Q3K w - - 0 1' });
    g.play(['h1h2', 'a8a7']);
    vi.advanceTimersByTime(7_000);
    expect(g.snap().output).toEqual({ winner: 'draw', reason: 'timeout' });
  });

  it('still lets the side with mating material win on time against a lone king', () => {
    const g = startGame({ clockMs: 5_000, startFen: 'k7/8/8/8/8/8/8/3Q3K w - - 0 1' });
    g.play(['h1h2', 'a8a7', 'h2h3']);
    vi.advanceTimersByTime(7_000);
    expect(g.snap().output).toEqual({ winner: 'white', reason: 'timeout' });
  });

  it('credits measured lag up to 1 s per move', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(4_000);
    g.move(WHITE.id, 'g1f3', 400);
    expect(g.ofType('moved').at(-1)?.clocks.white).toBe(56_400);
    vi.advanceTimersByTime(4_000);
    g.move(BLACK.id, 'b8c6', 2_500);
    expect(g.ofType('moved').at(-1)?.clocks.black).toBe(57_000);
  });

  it('takes lag credit from a bank that runs dry without refill', () => {
    const g = startGame({ clockMs: 60_000, lag: { perMoveCapMs: 1_000, initialBankMs: 1_500, bankCapMs: 7_000, refillPerMoveMs: 0 } });
    g.play(['e2e4', 'e7e5']);
    const whiteClocks: number[] = [];
    for (const [w, b] of [
      ['g1f3', 'b8c6'],
      ['f1c4', 'g8f6'],
      ['e1g1', 'f8c5'],
    ]) {
      vi.advanceTimersByTime(2_000);
      g.move(WHITE.id, w, 1_000);
      whiteClocks.push(g.ofType('moved').at(-1)!.clocks.white);
      g.move(BLACK.id, b);
    }
    // Credits 1000, then the 500 left, then nothing.
    expect(whiteClocks).toEqual([59_000, 57_500, 55_500]);
  });

  it('never lets the bank grow above its cap', () => {
    const g = startGame({ clockMs: 60_000, lag: { perMoveCapMs: 1_000, initialBankMs: 6_500, bankCapMs: 7_000, refillPerMoveMs: 1_000 } });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(1_000);
    g.move(WHITE.id, 'g1f3', 0);
    expect(g.ctx().lagBank.white).toBe(7_000);
  });

  it('saves a move that arrives inside the flag grace when its lag explains the delay', () => {
    const g = startGame({ clockMs: 5_000 });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(5_600);
    g.move(WHITE.id, 'g1f3', 800);
    expect(g.snap().status).toBe('active');
    expect(g.ofType('moved').at(-1)?.clocks.white).toBe(200);
  });

  it('does not save a late move without lag: it is a loss on time', () => {
    const g = startGame({ clockMs: 5_000 });
    g.play(['e2e4', 'e7e5']);
    vi.advanceTimersByTime(5_600);
    g.move(WHITE.id, 'g1f3');
    expect(g.ofType('moved')).toHaveLength(2);
    expect(g.snap().output).toEqual({ winner: 'black', reason: 'timeout' });
  });
});
