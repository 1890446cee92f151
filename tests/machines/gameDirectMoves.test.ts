/**
 * serverGameMachine takes a move in `running` directly (machines/game/directMoves.ts) instead of
 * through the statechart interpreter. Here the same random command streams go to it and to the
 * plain driven machine: after every command both must have the same state, status, context and
 * output, and must have emitted the same events.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChessGame } from '../../machines/chess';
import { drivenGameMachine, serverGameMachine, wakeAt, type GameEvent } from '../../machines/game';
import { prng } from '../support/prng';
import { BLACK, WHITE, startGame } from './gameHarness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const pair = (overrides: Parameters<typeof startGame>[0]) => ({
  plain: startGame(overrides, drivenGameMachine),
  direct: startGame(overrides, serverGameMachine),
});

function expectSame(p: ReturnType<typeof pair>, step: string): void {
  const a = p.plain.snap();
  const b = p.direct.snap();
  expect({ step, value: b.value, status: b.status, output: b.output }).toEqual({ step, value: a.value, status: a.status, output: a.output });
  expect(b.context).toEqual(a.context);
  // the direct transition writes XState's snapshot fields out by hand: the same keys, in order
  expect(Object.keys(b)).toEqual(Object.keys(a));
  expect(p.direct.events).toEqual(p.plain.events);
}

describe('serverGameMachine (direct moves) against the driven machine', () => {
  it('the same snapshots and emitted events for random games with every kind of command', () => {
    const rnd = prng(424242);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const players = [WHITE.id, BLACK.id, 'player_x'];
    const reasons = new Set<string>();
    let directMoves = 0;
    for (let gameNo = 0; gameNo < 80; gameNo++) {
      const p = pair({ clockMs: 30_000, graceMs: 3_000, firstMoveDeadlineMs: 10_000, maxPlies: gameNo % 5 === 0 ? 24 : 600 });
      const send = (cmd: GameEvent) => {
        p.plain.actor.send(cmd);
        p.direct.actor.send(cmd);
      };
      for (let step = 0; step < 220 && p.plain.snap().status === 'active'; step++) {
        const ctx = p.plain.ctx();
        const r = rnd();
        let what: string;
        if (r < 0.7) {
          const legal = new ChessGame(ctx.fen).legalMoves();
          const uci = rnd() < 0.9 && legal.length ? pick(legal) : pick(['e2e4', 'a1a8', 'e7e8q', 'h2h1n', 'e1g1']);
          const who = rnd() < 0.92 ? (ctx.turn === 'white' ? WHITE.id : BLACK.id) : pick(players);
          const move = { from: uci.slice(0, 2), to: uci.slice(2, 4), ...(uci[4] ? { promotion: uci[4] as 'q' } : {}) };
          send({ type: 'MOVE', playerId: who, move, lagMs: Math.floor(rnd() * 1500) });
          what = `MOVE ${who} ${uci}`;
          // the direct path: a move accepted in `running` that did not end the game
          const after = p.plain.snap();
          if (ctx.moves.length >= 2 && after.value === 'running' && after.context.moves.length > ctx.moves.length) directMoves++;
        } else if (r < 0.76) {
          const type = pick(['OFFER_DRAW', 'ACCEPT_DRAW', 'DECLINE_DRAW'] as const);
          send({ type, playerId: pick(players) });
          what = type;
        } else if (r < 0.84) {
          const type = pick(['PLAYER_DISCONNECTED', 'PLAYER_RECONNECTED'] as const);
          send({ type, playerId: pick(players) });
          what = type;
        } else if (r < 0.85) {
          send({ type: 'RESIGN', playerId: pick(players) });
          what = 'RESIGN';
        } else if (r < 0.87) {
          send({ type: 'MOVE', playerId: pick(players), move: pick([null, { from: 'e2' }, { from: 'e2', to: 'e9' }]) as never });
          what = 'garbage MOVE';
        } else if (r < 0.97) {
          vi.advanceTimersByTime(Math.floor(rnd() * 2_500));
          send({ type: 'WAKE' });
          what = 'WAKE';
        } else {
          // straight to the next deadline (flag, grace, first-move deadline), sometimes a bit before
          const due = wakeAt(p.plain.ctx());
          if (Number.isFinite(due)) vi.advanceTimersByTime(Math.max(0, due - Date.now() - (rnd() < 0.3 ? 1 : 0)));
          send({ type: 'WAKE' });
          what = 'WAKE at deadline';
        }
        expectSame(p, `game ${gameNo} step ${step}: ${what}`);
      }
      if (p.plain.snap().status === 'active') {
        vi.advanceTimersByTime(120_000);
        send({ type: 'WAKE' });
        expectSame(p, `game ${gameNo}: final WAKE`);
      }
      expect(p.direct.snap().status).toBe('done');
      reasons.add(p.direct.ended()!.reason);
    }
    // The walk went through the direct path many times and reached many endings through the machine.
    expect(directMoves).toBeGreaterThan(1_000);
    expect(reasons.size).toBeGreaterThanOrEqual(5);
  });

  it('a move that ends the game goes through the machine: final state, output and the cached game intact', () => {
    const p = pair({ clockMs: 60_000 });
    // Fool's mate: the last move is a checkmate in `running`.
    for (const [who, uci] of [
      [WHITE.id, 'f2f3'],
      [BLACK.id, 'e7e5'],
      [WHITE.id, 'g2g4'],
      [BLACK.id, 'd8h4'],
    ] as const) {
      for (const g of [p.plain, p.direct]) g.move(who, uci);
      expectSame(p, uci);
    }
    expect(p.direct.snap().status).toBe('done');
    expect(p.direct.snap().value).toBe('over');
    expect(p.direct.ended()).toMatchObject({ winner: 'black', reason: 'checkmate' });
    expect(p.direct.ended()!.pgn).toContain('2. g4 Qh4#');
  });
});
