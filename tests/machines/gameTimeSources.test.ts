import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { gameMachine, type GameEmitted } from '../../machines/game';

const seats = { gameId: 'g', white: { id: 'w', name: 'W' }, black: { id: 'b', name: 'B' } };

describe('game machine time sources', () => {
  it('runs on an XState SimulatedClock when now() reads the same clock', () => {
    const clock = new SimulatedClock();
    const actor = createActor(gameMachine, {
      clock,
      input: { ...seats, clockMs: 3_000, now: () => clock.now() },
    });
    const events: GameEmitted[] = [];
    actor.on('*', (e) => events.push(e));
    actor.start();
    actor.send({ type: 'MOVE', playerId: 'w', move: { from: 'e2', to: 'e4' } });
    actor.send({ type: 'MOVE', playerId: 'b', move: { from: 'e7', to: 'e5' } });
    for (let i = 0; i < 3; i++) clock.increment(1_000);
    expect(events.filter((e) => e.type === 'clock').map((e) => (e.type === 'clock' ? e.clocks.white : 0))).toEqual([
      2_000, 1_000, 0,
    ]);
    expect(actor.getSnapshot().status).toBe('active'); // 1 s flag grace left
    clock.increment(1_000);
    expect(actor.getSnapshot().output).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('uses performance.now and real timers by default', async () => {
    const actor = createActor(gameMachine, {
      input: { ...seats, clockMs: 150, lag: { perMoveCapMs: 0 } }, // no lag credit, so no flag grace
    });
    const ended = new Promise<GameEmitted>((resolve) => actor.on('ended', resolve));
    actor.start();
    actor.send({ type: 'MOVE', playerId: 'w', move: { from: 'e2', to: 'e4' } });
    actor.send({ type: 'MOVE', playerId: 'b', move: { from: 'e7', to: 'e5' } });
    const t0 = performance.now();
    const e = await ended;
    const took = performance.now() - t0;
    expect(e).toMatchObject({ type: 'ended', winner: 'black', reason: 'timeout' });
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(10_000); // generous: the CI machine may be busy
  });
});
