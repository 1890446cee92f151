/**
 * The engine's seat machine on its own: it thinks on its turn (a scripted `think` stands in for
 * the engine pool), pauses for what `think` asked, plays, ignores a turn while busy, and fails for
 * good when the engine does.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { engineSeatMachine, type EngineSeatEmitted, type ThinkInput, type ThinkOutput } from '../../machines/ai/index';

function run(answers: (ThinkOutput | Error)[], seen: ThinkInput[] = []) {
  const think = fromPromise<ThinkOutput, ThinkInput>(async ({ input }) => {
    seen.push(input);
    const next = answers.shift();
    if (!next || next instanceof Error) throw next ?? new Error('no answer');
    return next;
  });
  const actor = createActor(engineSeatMachine.provide({ actors: { think } }), { input: { gameId: 'g1', level: 5 } });
  const events: EngineSeatEmitted[] = [];
  actor.on('*', (e) => events.push(e));
  actor.start();
  return { actor, events, seen };
}

const settle = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('engineSeatMachine', () => {
  it('thinks on its turn with the moves and its clock, then plays the move for that turn', async () => {
    const { actor, events, seen } = run([{ uci: 'e7e5' }]);
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'TURN', turn: { moves: ['e2e4'], clock: { remainingMs: 60_000, incrementMs: 2_000 } } });
    expect(actor.getSnapshot().value).toBe('thinking');
    await settle();
    expect(seen).toEqual([{ gameId: 'g1', level: 5, moves: ['e2e4'], clock: { remainingMs: 60_000, incrementMs: 2_000 } }]);
    await settle(5);
    expect(events).toEqual([{ type: 'move', uci: 'e7e5', ply: 1 }]);
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('ignores a turn while it is busy, and pauses before playing when asked', async () => {
    const { actor, events, seen } = run([{ uci: 'e2e4', pauseMs: 30 }]);
    actor.send({ type: 'TURN', turn: { moves: [], clock: null } });
    actor.send({ type: 'TURN', turn: { moves: [], clock: null } });
    await settle();
    expect(seen).toHaveLength(1);
    expect(actor.getSnapshot().value).toBe('pausing');
    expect(events).toEqual([]);
    await settle(60);
    expect(events).toEqual([{ type: 'move', uci: 'e2e4', ply: 0 }]);
  });

  it('fails for good when the engine fails', async () => {
    const { actor, events } = run([new Error('engine died')]);
    actor.send({ type: 'TURN', turn: { moves: [], clock: null } });
    await settle();
    expect(events).toEqual([{ type: 'failed', message: 'AI engine failure: engine died' }]);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
