/**
 * Time controls on the real server, as players meet them: a search names its pool and is paired
 * only within it, both players see the increment land on the mover's clock, and a 1+0 game ends
 * on the flag at one minute. The server runs on the test's clock (tests/server/helpers.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ClocksMs, TimeControl } from '../../machines/game';
import { TestClient, useServerPerTest, useTestClock, type Msg, type Pair } from './helpers';

const BLITZ: TimeControl = { initial: 180, increment: 2 };
const BULLET: TimeControl = { initial: 60, increment: 0 };

const site = useServerPerTest();

async function player(url: string): Promise<TestClient> {
  const c = await TestClient.connect(url);
  site.track(c);
  return c;
}

/** Two players who search `timeControl`'s pool, paired (the first to search plays white). */
async function pairIn(url: string, timeControl: TimeControl): Promise<Pair & { starts: Msg[] }> {
  const a = await player(url);
  const b = await player(url);
  a.send('findGame', { username: 'Ann', timeControl });
  await a.next('matchmakingStatus', (m) => m.status === 'queued');
  b.send('findGame', { username: 'Ben', timeControl });
  const starts = await Promise.all([a.next('gameStart'), b.next('gameStart')]);
  return { white: a, black: b, gameId: starts[0].gameId as string, starts };
}

async function move(p: Pair, by: TestClient, uci: string): Promise<Msg> {
  by.send('gameMove', { gameId: p.gameId, move: { from: uci.slice(0, 2), to: uci.slice(2, 4) } });
  const seen = (m: Msg) => (m.move as { to: string }).to === uci.slice(2, 4);
  const [w, b] = await Promise.all([p.white.next('gameMove', seen), p.black.next('gameMove', seen)]);
  expect(b.clocks).toEqual(w.clocks);
  return w;
}

describe('time controls', () => {
  it('pairs a search only within its pool, and a search naming none in the 10+0 pool', async () => {
    const server = await site.start();
    const blitz1 = await player(server.url);
    const rapid = await player(server.url);
    const blitz2 = await player(server.url);
    blitz1.send('findGame', { username: 'Blitz One', timeControl: BLITZ });
    await blitz1.next('matchmakingStatus', (m) => m.status === 'queued');
    rapid.send('findGame', { username: 'Rapid' });
    await rapid.next('matchmakingStatus', (m) => m.status === 'queued');
    blitz2.send('findGame', { username: 'Blitz Two', timeControl: BLITZ });
    const [s1, s2] = await Promise.all([blitz1.next('gameStart'), blitz2.next('gameStart')]);
    expect(s1.gameId).toBe(s2.gameId);
    expect(s1.timeControl).toEqual(BLITZ);
    expect(s1.timerDuration).toBe(180);
    expect(server.stats().queueLength).toBe(1);
    // the 10+0 player still waits; a 10+0 search (named or not) is their match
    const ten = await player(server.url);
    ten.send('findGame', { username: 'Ten', timeControl: { initial: 600, increment: 0 } });
    const [r] = await Promise.all([rapid.next('gameStart'), ten.next('gameStart')]);
    expect(r.timeControl).toEqual({ initial: 600, increment: 0 });
  });

  it('refuses a time control outside ¼ to 180 minutes with a clear error, changing nothing', async () => {
    const server = await site.start();
    const c = await player(server.url);
    c.send('findGame', { username: 'X', timeControl: { initial: 5, increment: 0 } });
    const err = await c.next('error');
    expect(err.code).toBe('invalid_payload');
    expect(String(err.message)).toMatch(/initial/);
    expect(server.stats().queueLength).toBe(0);
  });

  it('adds the increment to the mover\'s clock after each timed move, on both players\' screens', async () => {
    const clock = useTestClock();
    const server = await site.start();
    const p = await pairIn(server.url, BLITZ);
    clock.settleWith(await player(server.url));
    // the first move of each side is untimed: no increment yet
    expect((await move(p, p.white, 'e2e4')).clocks).toEqual({ white: 180_000, black: 180_000 });
    expect((await move(p, p.black, 'e7e5')).clocks).toEqual({ white: 180_000, black: 180_000 });
    await clock.advance(3_000, 500);
    const third = (await move(p, p.white, 'g1f3')).clocks as ClocksMs;
    // 3 s thought, 2 s back (within the rounding of a test clock step)
    expect(third.white).toBeGreaterThanOrEqual(178_900);
    expect(third.white).toBeLessThanOrEqual(179_000);
    await clock.advance(500, 500);
    const fourth = (await move(p, p.black, 'b8c6')).clocks as ClocksMs;
    expect(fourth.black).toBeGreaterThan(180_000);
  });

  it('ends a 1+0 game on the flag after a minute', async () => {
    const clock = useTestClock();
    const server = await site.start();
    const p = await pairIn(server.url, BULLET);
    expect(p.starts[0].timeControl).toEqual(BULLET);
    clock.settleWith(await player(server.url));
    await move(p, p.white, 'e2e4');
    await move(p, p.black, 'e7e5');
    await clock.advance(55_000, 1_000);
    expect(p.white.received.some((m) => m.type === 'gameEnd')).toBe(false);
    await clock.advance(8_000, 500);
    const end = await p.black.next('gameEnd');
    expect(end).toMatchObject({ winner: 'black', reason: 'timeout' });
  });
});
