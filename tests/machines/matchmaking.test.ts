import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { matchmakingMachine, type MatchmakingEmitted } from '../../machines/matchmaking';

function start(random?: () => number) {
  const actor = createActor(matchmakingMachine, { input: random ? { random } : {} });
  const events: MatchmakingEmitted[] = [];
  actor.on('*', (e) => events.push(e));
  actor.start();
  return { actor, events };
}

describe('matchmaking machine', () => {
  it('queues the first player and pairs the second with them', () => {
    const { actor, events } = start(() => 0.1);
    actor.send({ type: 'JOIN', playerId: 'a', name: 'Alice' });
    expect(events).toEqual([{ type: 'queued', playerId: 'a' }]);
    expect(actor.getSnapshot().context.queue).toEqual([{ playerId: 'a', name: 'Alice' }]);

    actor.send({ type: 'JOIN', playerId: 'b', name: 'Bob' });
    expect(events.slice(1)).toEqual([
      { type: 'queued', playerId: 'b' },
      { type: 'paired', white: { id: 'a', name: 'Alice' }, black: { id: 'b', name: 'Bob' } },
    ]);
    expect(actor.getSnapshot().context.queue).toEqual([]);
  });

  it('uses the injected random source for colours', () => {
    const { actor, events } = start(() => 0.9);
    actor.send({ type: 'JOIN', playerId: 'a', name: 'Alice' });
    actor.send({ type: 'JOIN', playerId: 'b', name: 'Bob' });
    const paired = events.find((e) => e.type === 'paired');
    expect(paired).toEqual({ type: 'paired', white: { id: 'b', name: 'Bob' }, black: { id: 'a', name: 'Alice' } });
  });

  it('gives both colours over many pairings with the default random source', () => {
    const { actor, events } = start();
    for (let i = 0; i < 64; i++) actor.send({ type: 'JOIN', playerId: `p${i}`, name: `P${i}` });
    const whites = events.filter((e) => e.type === 'paired').map((e) => (e.type === 'paired' ? e.white.id : ''));
    expect(whites).toHaveLength(32);
    // p0,p2,p4... are the waiters; with a fair coin both roles must show up among 32 pairings.
    const waiterWasWhite = whites.filter((id) => Number(id.slice(1)) % 2 === 0).length;
    expect(waiterWasWhite).toBeGreaterThan(0);
    expect(waiterWasWhite).toBeLessThan(32);
  });

  it('never pairs a player with itself and does not duplicate a re-join', () => {
    const { actor, events } = start(() => 0.1);
    actor.send({ type: 'JOIN', playerId: 'a', name: 'Alice' });
    actor.send({ type: 'JOIN', playerId: 'a', name: 'Alice (tab 2)' });
    expect(events.filter((e) => e.type === 'paired')).toEqual([]);
    expect(actor.getSnapshot().context.queue).toEqual([{ playerId: 'a', name: 'Alice (tab 2)' }]);
    expect(events).toEqual([
      { type: 'queued', playerId: 'a' },
      { type: 'queued', playerId: 'a' },
    ]);
  });

  it('pairs in arrival order', () => {
    const { actor, events } = start(() => 0.1);
    actor.send({ type: 'JOIN', playerId: 'a', name: 'A' });
    actor.send({ type: 'JOIN', playerId: 'b', name: 'B' });
    actor.send({ type: 'JOIN', playerId: 'c', name: 'C' });
    actor.send({ type: 'JOIN', playerId: 'd', name: 'D' });
    const pairs = events.flatMap((e) => (e.type === 'paired' ? [[e.white.id, e.black.id]] : []));
    expect(pairs).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('removes a player who leaves, so the next one waits instead', () => {
    const { actor, events } = start(() => 0.1);
    actor.send({ type: 'JOIN', playerId: 'a', name: 'A' });
    actor.send({ type: 'LEAVE', playerId: 'a' });
    expect(events.at(-1)).toEqual({ type: 'left', playerId: 'a' });
    actor.send({ type: 'JOIN', playerId: 'b', name: 'B' });
    expect(events.filter((e) => e.type === 'paired')).toEqual([]);
    expect(actor.getSnapshot().context.queue).toEqual([{ playerId: 'b', name: 'B' }]);
  });

  it('ignores LEAVE from a player who is not queued', () => {
    const { actor, events } = start(() => 0.1);
    actor.send({ type: 'JOIN', playerId: 'a', name: 'A' });
    const before = actor.getSnapshot().context;
    actor.send({ type: 'LEAVE', playerId: 'zzz' });
    expect(actor.getSnapshot().context).toBe(before);
    expect(events).toEqual([{ type: 'queued', playerId: 'a' }]);
  });

  it('keeps a JSON-serialisable context', () => {
    const { actor } = start(() => 0.1);
    actor.send({ type: 'JOIN', playerId: 'a', name: 'A' });
    const ctx = actor.getSnapshot().context;
    expect(JSON.parse(JSON.stringify(ctx))).toEqual(ctx);
  });
});
