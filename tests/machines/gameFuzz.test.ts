/**
 * Random command sequences against many games: whatever the server forwards, the machine must
 * not throw, must keep a serialisable and consistent context, and must end exactly once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChessGame } from '../../machines/chess';
import { snapshotForRejoin } from '../../machines/game';
import { prng } from '../support/prng';
import { BLACK, WHITE, startGame } from './gameHarness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('game machine under random commands', () => {
  it('never throws, keeps its invariants and ends exactly once', () => {
    const rnd = prng(20261122);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const players = [WHITE.id, BLACK.id, 'player_x'];
    let finished = 0;
    const reasons = new Set<string>();
    for (let gameNo = 0; gameNo < 60; gameNo++) {
      const g = startGame({ clockMs: 20_000, graceMs: 3_000, firstMoveDeadlineMs: 10_000 });
      for (let step = 0; step < 160 && g.snap().status === 'active'; step++) {
        const ctx = g.ctx();
        const r = rnd();
        if (r < 0.55) {
          // Mostly legal moves by the right player, sometimes garbage.
          const legal = new ChessGame(ctx.fen).legalMoves();
          const uci = rnd() < 0.85 && legal.length ? pick(legal) : pick(['e2e4', 'a1a8', 'zz99', 'e7e8q', 'h2h1n']);
          const who = rnd() < 0.9 ? (ctx.turn === 'white' ? WHITE.id : BLACK.id) : pick(players);
          g.move(who, uci, Math.floor(rnd() * 3000) - 500);
        } else if (r < 0.65) {
          g.actor.send({ type: pick(['OFFER_DRAW', 'ACCEPT_DRAW', 'DECLINE_DRAW'] as const), playerId: pick(players) });
        } else if (r < 0.75) {
          g.actor.send({ type: pick(['PLAYER_DISCONNECTED', 'PLAYER_RECONNECTED'] as const), playerId: pick(players) });
        } else if (r < 0.76) {
          g.actor.send({ type: 'RESIGN', playerId: pick(players) });
        } else if (r < 0.78) {
          // Garbage the schema should have caught, to be sure it cannot crash the actor.
          g.actor.send({ type: 'MOVE', playerId: pick(players), move: pick([null, 7, { from: 1 }, {}]) as never });
        } else {
          vi.advanceTimersByTime(Math.floor(rnd() * 4_000));
        }

        const snap = g.snap();
        expect(snap.status).not.toBe('error');
        const c = snap.context;
        expect(JSON.parse(JSON.stringify(c))).toEqual(c);
        expect(c.clocks.white).toBeGreaterThanOrEqual(0);
        expect(c.clocks.black).toBeGreaterThanOrEqual(0);
        const replay = new ChessGame(c.startFen);
        for (const m of c.moves) expect(replay.play(m)).not.toBeNull();
        expect(replay.fen()).toBe(c.fen);
        expect(replay.turn()).toBe(c.turn);
        const state = snapshotForRejoin(snap, Date.now());
        expect(state.seq).toBe(c.moves.length);
        expect(state.timers.white).toBeGreaterThanOrEqual(0);
      }
      // Whatever is left is settled by the clocks (or the first-move deadline).
      vi.advanceTimersByTime(60_000);
      expect(g.snap().status).toBe('done');
      expect(g.ofType('ended')).toHaveLength(1);
      reasons.add(g.ofType('ended')[0].reason);
      const moved = g.ofType('moved');
      expect(moved.map((m) => m.seq)).toEqual(moved.map((_, i) => i + 1));
      finished++;
    }
    expect(finished).toBe(60);
    // The walk reaches several different endings, not one path over and over.
    expect(reasons.size).toBeGreaterThanOrEqual(4);
    expect([...reasons].sort()).toEqual(expect.arrayContaining(['timeout']));
  });
});
