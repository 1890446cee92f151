/**
 * Every end reason through the real server. Positions come from the server's test-only
 * `startFen` option; the timed endings run on the test's clock (useTestClock).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import type { RunningServer, StartServerOptions } from '../../server/app';
import { pairPlayers, playMoves, startTestServer, timedGame, type Pair } from './helpers';

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function gameOn(opts: StartServerOptions): Promise<Pair> {
  const s = await startTestServer(opts);
  servers.push(s);
  return pairPlayers(s.url);
}

async function timedGameOn(opts: StartServerOptions) {
  const game = await timedGame(opts);
  servers.push(game.server);
  return game;
}

async function ends(p: Pair) {
  const [w, b] = await Promise.all([p.white.next('gameEnd', undefined, 10_000), p.black.next('gameEnd', undefined, 10_000)]);
  expect(w).toEqual(b);
  return w;
}

describe('end reasons from positions', () => {
  it('stalemate', async () => {
    const p = await gameOn({ startFen: 'k7/3Q4/8/8/8/8/8/K7 w - - 0 1' });
    const start = p.white.received.find((m) => m.type === 'gameStart')!;
    expect((start.currentState as { fen: string }).fen).toBe('k7/3Q4/8/8/8/8/8/K7 w - - 0 1');
    await playMoves(p, ['d7c7']);
    expect(await ends(p)).toMatchObject({ winner: 'draw', reason: 'stalemate' });
  });

  it('insufficient material', async () => {
    const p = await gameOn({ startFen: 'k7/8/8/8/8/8/1r6/K7 w - - 0 1' });
    await playMoves(p, ['a1b2']);
    expect(await ends(p)).toMatchObject({ winner: 'draw', reason: 'insufficient material' });
  });

  it('fifty-move rule', async () => {
    const p = await gameOn({ startFen: 'k7/8/8/8/8/8/8/KR6 w - - 99 80' });
    await playMoves(p, ['b1b2']);
    expect(await ends(p)).toMatchObject({ winner: 'draw', reason: 'fifty-move rule' });
  });
});

describe('timed endings', () => {
  it('timeout: the side whose clock runs out loses, with the clock reports counting down to it', async () => {
    const { p, clock } = await timedGameOn({ clockMs: 2000, clockReportMs: 1000 });
    await playMoves(p, ['e2e4', 'e7e5']);
    await clock.advance(1_000, 50);
    const tick = await p.white.next('timerUpdate');
    expect(tick.gameId).toBe(p.gameId);
    expect(tick.timers).toEqual({ white: 1, black: 2 });
    expect(p.white.received.some((m) => m.type === 'gameEnd')).toBe(false);
    // the clock runs out at 2 s; the flag falls after the flag grace (at most 2 s)
    await clock.advance(3_000, 50);
    expect(await ends(p)).toMatchObject({ winner: 'black', reason: 'timeout' });
  });

  it('timeout is a draw when the other side cannot mate', async () => {
    const { p, clock } = await timedGameOn({ clockMs: 1500, startFen: 'k7/8/8/8/8/8/8/KR6 w - - 0 1' });
    await playMoves(p, ['b1b2', 'a8a7']);
    await clock.advance(3_500, 50);
    expect(await ends(p)).toMatchObject({ winner: 'draw', reason: 'timeout' });
  });

  it('disconnection: the grace period expires and the present player wins', async () => {
    const { p, clock } = await timedGameOn({ graceMs: 1000 });
    await playMoves(p, ['e2e4', 'e7e5']);
    await p.white.close();
    const left = await p.black.next('opponentDisconnected');
    expect(left.message).toMatch(/1 seconds/);
    await clock.advance(900, 50);
    expect(p.black.received.some((m) => m.type === 'gameEnd')).toBe(false);
    await clock.advance(200, 50);
    const end = await p.black.next('gameEnd');
    expect(end).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'disconnection' });
  });

  it('aborts a game whose first move does not come in time', async () => {
    const { p, clock } = await timedGameOn({ firstMoveMs: 500 });
    await clock.advance(400, 50);
    expect(p.white.received.some((m) => m.type === 'gameEnd')).toBe(false);
    await clock.advance(200, 50);
    expect(await ends(p)).toMatchObject({ winner: 'draw', reason: 'aborted' });
  });
});

describe('start position option', () => {
  it('refuses an invalid FEN at start-up with the reason', async () => {
    await expect(startTestServer({ startFen: 'k7/8/2Q5/8/8/8/8/K7 w - - 0 1' })).rejects.toThrow(/check/);
  });
});

describe('a finished game', () => {
  it('has its actor stopped and is forgotten by the server', async () => {
    // what the game actor last processed: a command, or XState's own stop event once the server stopped it
    const last = new Map<string, string | undefined>();
    const inspect = (ev: InspectionEvent) => {
      const context: unknown = ev.type === '@xstate.snapshot' && 'context' in ev.snapshot ? ev.snapshot.context : undefined;
      if (ev.type === '@xstate.snapshot' && typeof context === 'object' && context !== null && 'gameId' in context) last.set(String(context.gameId), ev.event.type);
    };
    const s = await startTestServer({ inspect });
    servers.push(s);
    const p = await pairPlayers(s.url);
    await playMoves(p, ['e2e4', 'e7e5']); // before both first moves a resignation aborts instead
    expect(s.stats().liveGames).toBe(1);
    expect(last.get(p.gameId)).toBe('MOVE');
    p.black.send('resign', { gameId: p.gameId });
    expect(await ends(p)).toMatchObject({ winner: 'white', reason: 'resignation' });
    expect(last.get(p.gameId)).toBe('xstate.stop');
    expect(s.stats().liveGames).toBe(0);
    // nothing answers for it any more
    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'd2', to: 'd4' } });
    expect((await p.white.next('moveRejected')).message).toBe('Game not found or not yours.');
  });
});
