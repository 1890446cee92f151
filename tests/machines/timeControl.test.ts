/**
 * Time controls in the game core: the increment lands on the clocks the players are sent as
 * lichess's clock adds it, a differential run checks the step's clock arithmetic against an
 * independent reckoning of it, and time controls read, are written and fall into speeds as
 * lichess has them.
 */
import { describe, expect, it } from 'vitest';
import { ChessGame } from '../../machines/chess';
import { POOLS, speedOf, timeControlText, timeControlKey, estimatedSeconds, clockOf, DEFAULT_TIME_CONTROL, type TimeControl } from '../../machines/game';
import { timeControlRequestSchema as timeControlSchema } from '../../machines/protocol/schemas';
import { CUSTOM_INCREMENT_SECONDS, CUSTOM_INITIAL_SECONDS, isRequestable } from '../../machines/game/timeControl';
import { seeded } from '../../server/seeded';
import { BLACK, WHITE, startGame } from './gameHarness';

describe('the increment', () => {
  it('is added after each timed move, not on either side\'s first (untimed) move', () => {
    const g = startGame({ clockMs: 180_000, incrementMs: 2_000 });
    g.advance(4_000);
    g.move(WHITE.id, 'e2e4');
    g.advance(5_000);
    g.move(BLACK.id, 'e7e5');
    const [first, second] = g.ofType('moved');
    expect(first.clocks).toEqual({ white: 180_000, black: 180_000 });
    expect(second.clocks).toEqual({ white: 180_000, black: 180_000 });
    g.advance(3_000);
    g.move(WHITE.id, 'g1f3');
    // 3 s spent, 2 s back
    expect(g.ofType('moved')[2].clocks).toEqual({ white: 179_000, black: 180_000 });
    g.advance(500);
    g.move(BLACK.id, 'b8c6');
    // a quick move gains time, as on any Fischer clock
    expect(g.ofType('moved')[3].clocks).toEqual({ white: 179_000, black: 181_500 });
  });

  it('is not added to the move that ends the game', () => {
    const g = startGame({ clockMs: 60_000, incrementMs: 5_000 });
    g.play(['f2f3', 'e7e5', 'g2g4'], 1_000);
    g.advance(1_000);
    g.move(BLACK.id, 'd8h4');
    const ended = g.ofType('ended')[0];
    expect(ended.reason).toBe('checkmate');
    expect(ended.clocks.black).toBe(59_000);
  });

  it('does not save a flag: a move after the clock ran out loses, whatever the increment', () => {
    const g = startGame({ clockMs: 60_000, incrementMs: 10_000, lag: { initialBankMs: 0, bankCapMs: 0, refillPerMoveMs: 0 } });
    g.play(['e2e4', 'e7e5'], 1_000);
    g.wait(60_001);
    g.move(WHITE.id, 'g1f3');
    expect(g.ofType('ended')[0]).toMatchObject({ reason: 'timeout', winner: 'black' });
  });
});

/**
 * The clocks as an arbiter with a stopwatch would keep them: each side's time less what each of
 * its moves took from the start of its turn, plus the increment for each of its moves from its
 * second on that did not end the game. Written without the step's helpers.
 */
function arbiterClocks(initialMs: number, incrementMs: number, thinkMs: number[]): { white: number; black: number }[] {
  const left = { white: initialMs, black: initialMs };
  const after: { white: number; black: number }[] = [];
  thinkMs.forEach((ms, ply) => {
    const side = ply % 2 === 0 ? 'white' : 'black';
    if (ply >= 2) left[side] = left[side] - ms + incrementMs;
    after.push({ ...left });
  });
  return after;
}

describe('clock arithmetic against an independent reckoning', () => {
  it('agrees on every move of 300 random games with random time controls and thinking times', () => {
    const rnd = seeded(20261127);
    let compared = 0;
    for (let n = 0; n < 300; n++) {
      const tc = POOLS[Math.floor(rnd() * POOLS.length)];
      const { clockMs, incrementMs } = clockOf(tc);
      const g = startGame({ gameId: `d${n}`, clockMs, incrementMs, firstMoveDeadlineMs: 30_000 });
      const chess = new ChessGame();
      const thinks: number[] = [];
      for (let ply = 0; ply < 60 && g.result() === null; ply++) {
        const legal = chess.legalMoves();
        if (legal.length === 0) break;
        // never more than a side can have left: the game must stay on the clock to compare it
        const think = Math.floor(rnd() * Math.min(8_000, clockMs / 40));
        const uci = legal[Math.floor(rnd() * legal.length)];
        g.wait(think);
        g.move(ply % 2 === 0 ? WHITE.id : BLACK.id, uci);
        chess.play(uci);
        if (g.result() !== null) break;
        thinks.push(think);
      }
      const moved = g.ofType('moved').slice(0, thinks.length);
      expect(moved.map((m) => m.clocks)).toEqual(arbiterClocks(clockMs, incrementMs, thinks));
      compared += thinks.length;
    }
    expect(compared).toBeGreaterThan(300 * 30);
  });
});

describe('time controls', () => {
  it('are written as lichess writes them', () => {
    const text = (initial: number, increment: number) => timeControlText({ initial, increment });
    expect(text(300, 3)).toBe('5+3');
    expect(text(30, 0)).toBe('½+0');
    expect(text(15, 0)).toBe('¼+0');
    expect(text(45, 1)).toBe('¾+1');
    expect(text(90, 0)).toBe('1.5+0');
    expect(text(600, 0)).toBe('10+0');
    expect(text(1800, 20)).toBe('30+20');
    expect(text(100, 0)).toBe('1.67+0');
    expect(timeControlKey({ initial: 300, increment: 3 })).toBe('300+3');
  });

  it('fall into lichess\'s speeds by initial + 40 x increment', () => {
    const speed = (initial: number, increment: number) => speedOf({ initial, increment });
    expect(speed(15, 0)).toBe('ultraBullet');
    expect(speed(15, 1)).toBe('bullet'); // 55 s
    expect(speed(60, 0)).toBe('bullet');
    expect(speed(120, 1)).toBe('bullet'); // 160 s
    expect(speed(180, 0)).toBe('blitz');
    expect(speed(300, 3)).toBe('blitz'); // 420 s
    expect(speed(480, 0)).toBe('rapid');
    expect(speed(600, 0)).toBe('rapid');
    expect(speed(600, 5)).toBe('rapid'); // 800 s
    expect(speed(900, 10)).toBe('rapid'); // 1,300 s
    expect(speed(1500, 0)).toBe('classical');
    expect(speed(1800, 20)).toBe('classical');
    expect(estimatedSeconds({ initial: 300, increment: 3 })).toBe(420);
  });

  it('change speed exactly at 30, 180, 480 and 1,500 estimated seconds (lichess Speed ranges)', () => {
    const speed = (initial: number, increment: number) => speedOf({ initial, increment });
    expect([speed(29, 0), speed(30, 0)]).toEqual(['ultraBullet', 'bullet']); // ½+0 is 30 s: lichess counts it bullet
    expect([speed(15, 0), speed(20, 0)]).toEqual(['ultraBullet', 'ultraBullet']); // ¼+0
    expect([speed(179, 0), speed(180, 0), speed(100, 2)]).toEqual(['bullet', 'blitz', 'blitz']); // 100 + 80 = 180
    expect([speed(479, 0), speed(480, 0), speed(400, 2)]).toEqual(['blitz', 'rapid', 'rapid']); // 400 + 80 = 480
    expect([speed(1499, 0), speed(1500, 0), speed(1100, 10)]).toEqual(['rapid', 'classical', 'classical']); // 1,100 + 400
    expect(speed(180, 2)).toBe('blitz'); // 3+2: 260 s
    expect(speed(900, 10)).toBe('rapid'); // 15+10: 1,300 s
    expect(speed(1800, 0)).toBe('classical'); // 30+0
    expect(speed(10_800, 180)).toBe('classical'); // the longest a player may ask for
    expect(POOLS.map(speedOf)).toEqual(['rapid', 'bullet', 'bullet', 'blitz', 'blitz', 'blitz', 'blitz', 'rapid', 'rapid', 'classical', 'classical']);
  });

  it('the pools are lichess\'s eleven, 10+0 (the spec\'s 10-minute game, the default) first', () => {
    expect(POOLS.map(timeControlText)).toEqual(['10+0', '1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+5', '15+10', '30+0', '30+20']);
    expect(POOLS[0]).toEqual(DEFAULT_TIME_CONTROL);
  });

  it('the protocol takes ¼ to 180 minutes and 0 to 180 s of increment, whole seconds only', () => {
    const ok = (tc: unknown) => timeControlSchema.safeParse(tc).success;
    expect(ok({ initial: 15, increment: 0 })).toBe(true);
    expect(ok({ initial: 10_800, increment: 180 })).toBe(true);
    expect(ok({ initial: 14, increment: 0 })).toBe(false);
    expect(ok({ initial: 10_801, increment: 0 })).toBe(false);
    expect(ok({ initial: 60, increment: 181 })).toBe(false);
    expect(ok({ initial: 60.5, increment: 0 })).toBe(false);
    expect(ok({ initial: 60, increment: -1 })).toBe(false);
    expect(ok({ initial: 60, increment: 0, extra: 1 })).toBe(false);
    const tc: TimeControl = { initial: 60, increment: 0 };
    expect(clockOf(tc)).toEqual({ clockMs: 60_000, incrementMs: 0 });
  });
});

describe('reading a time control', () => {
  it('reads what players write, and nothing else', async () => {
    const { parseTimeControl } = await import('../../machines/game');
    expect(parseTimeControl('1+0')).toEqual({ initial: 60, increment: 0 });
    expect(parseTimeControl('3+2')).toEqual({ initial: 180, increment: 2 });
    expect(parseTimeControl('½+0')).toEqual({ initial: 30, increment: 0 });
    expect(parseTimeControl('1.5+1')).toEqual({ initial: 90, increment: 1 });
    expect(parseTimeControl(' 10 + 5 ')).toEqual({ initial: 600, increment: 5 });
    for (const bad of ['', '3', '+2', '3+', 'a+b', '3+2+1', '-1+0', '3+1.5']) expect(parseTimeControl(bad)).toBeNull();
    for (const tc of POOLS) expect(parseTimeControl(timeControlText(tc))).toEqual(tc);
  });
});

describe('the custom game lists', () => {
  it('offers lichess\'s choices, every one a time control a player may ask for', () => {
    expect(CUSTOM_INITIAL_SECONDS.slice(0, 6).map((s) => timeControlText({ initial: s, increment: 0 }))).toEqual(['¼+0', '½+0', '¾+0', '1+0', '1.5+0', '2+0']);
    expect(CUSTOM_INITIAL_SECONDS.at(-1)).toBe(180 * 60);
    expect(CUSTOM_INCREMENT_SECONDS.at(-1)).toBe(180);
    for (const initial of CUSTOM_INITIAL_SECONDS) for (const increment of CUSTOM_INCREMENT_SECONDS) expect(isRequestable({ initial, increment })).toBe(true);
    expect(new Set(CUSTOM_INITIAL_SECONDS).size).toBe(CUSTOM_INITIAL_SECONDS.length);
  });
});
