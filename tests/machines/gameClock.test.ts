import { describe, expect, it } from 'vitest';
import { BLACK, WHITE, startGame } from './gameHarness';

describe('game core: first-move deadline', () => {
  it('aborts when white does not make a first move within 30 s by default', () => {
    const g = startGame();
    g.advance(29_999);
    expect(g.result()).toBeNull();
    g.advance(1);
    expect(g.ended()).toMatchObject({ winner: 'draw', reason: 'aborted' });
  });

  it('gives black its own deadline counted from white’s first move', () => {
    const g = startGame({ firstMoveDeadlineMs: 5_000 });
    g.advance(4_000);
    g.move(WHITE.id, 'e2e4');
    g.advance(4_999);
    expect(g.result()).toBeNull();
    g.advance(1);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'aborted' });
  });

  it('has no deadline once both sides have moved (the clocks take over)', () => {
    const g = startGame({ firstMoveDeadlineMs: 5_000, clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(30_000);
    expect(g.result()).toBeNull();
  });
});

describe('game core: clocks', () => {
  it('starts a side’s clock only from ply 2, then charges thinking time', () => {
    const g = startGame({ clockMs: 60_000 });
    g.advance(10_000);
    g.move(WHITE.id, 'e2e4');
    g.advance(12_000);
    g.move(BLACK.id, 'e7e5');
    expect(g.ofType('moved')[1].clocks).toEqual({ white: 60_000, black: 60_000 });

    g.advance(5_000);
    g.move(WHITE.id, 'g1f3');
    expect(g.ofType('moved')[2].clocks).toEqual({ white: 55_000, black: 60_000 });
    g.advance(7_000);
    g.move(BLACK.id, 'b8c6');
    expect(g.ofType('moved')[3].clocks).toEqual({ white: 55_000, black: 53_000 });
  });

  it('copes with clocks longer than the longest timer (2^31-1 ms)', () => {
    const g = startGame({ clockMs: 3_000_000_000, firstMoveDeadlineMs: 2_500_000_000 });
    g.advance(2_499_999_999);
    expect(g.result()).toBeNull();
    g.advance(1);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'aborted' });

    const h = startGame({ clockMs: 3_000_000_000 });
    h.play(['e2e4', 'e7e5']);
    h.advance(2_999_999_000);
    expect(h.result()).toBeNull();
    h.advance(1_000 + 1_000); // the clock, then the 1 s flag grace
    expect(h.result()).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('needs no work while a clock runs: the game wakes only for the flag', () => {
    const g = startGame({ clockMs: 5_000 });
    g.play(['e2e4', 'e7e5']);
    const logged = g.log.entries.length;
    g.advance(5_999);
    expect(g.log.entries).toHaveLength(logged); // no WAKE was due
    expect(g.result()).toBeNull();
    g.advance(1);
    expect(g.log.entries).toHaveLength(logged + 1);
    expect(g.result()).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('flags the side to move after its time plus the flag grace; the opponent wins on time', () => {
    const g = startGame({ clockMs: 10_000 });
    g.play(['e2e4', 'e7e5']);
    // Flag grace = min(2 s, per-move lag cap 1 s, bank 3 s) = 1 s.
    g.advance(10_999);
    expect(g.result()).toBeNull();
    g.advance(1);
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'timeout', clocks: { white: 0, black: 10_000 } });
    expect(g.ended().pgn).toContain('[Termination "Time forfeit"]');
  });

  it('calls a timeout a draw when the side left on the board cannot mate', () => {
    // White K+Q against a lone black king: if white flags, black cannot win.
    const g = startGame({ clockMs: 5_000, startFen: 'k7/8/8/8/8/8/8/3Q3K w - - 0 1' });
    g.play(['h1h2', 'a8a7']);
    g.advance(7_000);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'timeout' });
  });

  it('still lets the side with mating material win on time against a lone king', () => {
    const g = startGame({ clockMs: 5_000, startFen: 'k7/8/8/8/8/8/8/3Q3K w - - 0 1' });
    g.play(['h1h2', 'a8a7', 'h2h3']);
    g.advance(7_000);
    expect(g.result()).toEqual({ winner: 'white', reason: 'timeout' });
  });

  it('credits measured lag up to 1 s per move', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(4_000);
    g.move(WHITE.id, 'g1f3', 400);
    expect(g.ofType('moved').at(-1)?.clocks.white).toBe(56_400);
    g.advance(4_000);
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
      g.advance(2_000);
      g.move(WHITE.id, w, 1_000);
      whiteClocks.push(g.ofType('moved').at(-1)!.clocks.white);
      g.move(BLACK.id, b);
    }
    // Credits 1000, then the 500 left, then nothing.
    expect(whiteClocks).toEqual([59_000, 57_500, 55_500]);
  });

  it('never lets the bank grow above its cap', () => {
    const g = startGame({ clockMs: 60_000, lag: { perMoveCapMs: 1_000, initialBankMs: 6_990, bankCapMs: 7_000, refillPerMoveMs: 1_000 } });
    g.play(['e2e4', 'e7e5']);
    g.advance(1_000);
    g.move(WHITE.id, 'g1f3', 100); // pays 100, regains 140
    expect(g.state().lagBank.white).toBe(7_000);
  });

  it('regains per move only the measured lag and 40 ms (lichess quota gain), at most the refill', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(2_000);
    g.move(WHITE.id, 'g1f3', 50); // pays 50, regains 90
    g.advance(2_000);
    g.move(BLACK.id, 'b8c6'); // nothing measured: pays nothing, regains 40
    g.advance(2_000);
    g.move(WHITE.id, 'f1c4', 2_500); // pays the 1 s cap, regains the 1 s refill at most
    expect(g.state().lagBank).toEqual({ white: 3_040, black: 3_040 });
  });

  it('credits nothing to a move when the mover held the answer to a ping older than its turn', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(2_000);
    // a ping 9 s unanswered: sent before this turn began, so an honest answer would have come first
    g.move(WHITE.id, 'g1f3', 4_500, 9_000);
    expect(g.ofType('moved').at(-1)?.clocks.white).toBe(58_000);
    expect(g.state().lagBank.white).toBe(3_040);
    g.advance(2_000);
    // a ping sent during the turn may still be on its way: the measured lag is credited
    g.move(BLACK.id, 'b8c6', 400, 1_500);
    expect(g.ofType('moved').at(-1)?.clocks.black).toBe(58_400);
  });

  it('saves a move that arrives inside the flag grace when its lag explains the delay', () => {
    const g = startGame({ clockMs: 5_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(5_600);
    g.move(WHITE.id, 'g1f3', 800);
    expect(g.result()).toBeNull();
    expect(g.ofType('moved').at(-1)?.clocks.white).toBe(200);
  });

  it('does not save a late move without lag: it is a loss on time', () => {
    const g = startGame({ clockMs: 5_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(5_600);
    g.move(WHITE.id, 'g1f3');
    expect(g.ofType('moved')).toHaveLength(2);
    expect(g.result()).toEqual({ winner: 'black', reason: 'timeout' });
  });
});
