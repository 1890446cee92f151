import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { EMPTY_POOL, poolLogic, poolStep, ratingWindow, type PoolCommand, type PoolEmitted, type PoolState } from '../../machines/matchmaking';
import { DEFAULT_TIME_CONTROL, type TimeControl } from '../../machines/game';

const TEN = DEFAULT_TIME_CONTROL;
const BLITZ: TimeControl = { initial: 180, increment: 2 };

function run(commands: PoolCommand[], start: PoolState = EMPTY_POOL): { state: PoolState; events: PoolEmitted[] } {
  let state = start;
  const events: PoolEmitted[] = [];
  for (const c of commands) {
    const r = poolStep(state, c);
    state = r.state;
    events.push(...r.events);
  }
  return { state, events };
}

const join = (playerId: string, rating: number | null, at = 0, roll = 0.1): PoolCommand => ({ type: 'JOIN', playerId, name: playerId.toUpperCase(), rating, at, roll });

const joinPool = (playerId: string, timeControl: TimeControl, at = 0): PoolCommand => ({ type: 'JOIN', playerId, name: playerId.toUpperCase(), rating: null, at, roll: 0.1, timeControl });

describe('matchmaking pools', () => {
  it('pairs only within a pool; a search without one is the 10+0 pool\'s', () => {
    const { state, events } = run([joinPool('a', BLITZ), join('b', null, 100), joinPool('c', BLITZ, 200), joinPool('d', TEN, 300)]);
    expect(events.filter((e) => e.type === 'paired')).toEqual([
      { type: 'paired', white: { id: 'a', name: 'A' }, black: { id: 'c', name: 'C' }, timeControl: BLITZ },
      { type: 'paired', white: { id: 'b', name: 'B' }, black: { id: 'd', name: 'D' }, timeControl: TEN },
    ]);
    expect(state.queue).toEqual([]);
    // waiting never opens a pool to another: after minutes, still apart
    const apart = run([joinPool('a', BLITZ), joinPool('b', TEN, 10), { type: 'TICK', at: 600_000, roll: 0.1 }]);
    expect(apart.events.some((e) => e.type === 'paired')).toBe(false);
  });

  it('a search in another pool moves the player there', () => {
    const { state } = run([joinPool('a', BLITZ, 0), joinPool('a', TEN, 500)]);
    expect(state.queue).toEqual([{ playerId: 'a', name: 'A', rating: null, since: 500, timeControl: TEN }]);
    const paired = run([joinPool('a', BLITZ, 0), joinPool('a', TEN, 500), joinPool('b', TEN, 600)]).events.at(-1);
    expect(paired).toMatchObject({ type: 'paired', timeControl: TEN });
  });
});

describe('matchmaking pool', () => {
  it('queues the first player and pairs the second with them, colours by the roll', () => {
    const { state, events } = run([join('a', null), join('b', null, 1000, 0.1)]);
    expect(events).toEqual([
      { type: 'queued', playerId: 'a' },
      { type: 'queued', playerId: 'b' },
      { type: 'paired', white: { id: 'a', name: 'A' }, black: { id: 'b', name: 'B' }, timeControl: TEN },
    ]);
    expect(state.queue).toEqual([]);
    expect(run([join('a', null), join('b', null, 1000, 0.9)]).events[2]).toEqual({ type: 'paired', white: { id: 'b', name: 'B' }, black: { id: 'a', name: 'A' }, timeControl: TEN });
  });

  it('never pairs a player with itself and keeps the first place on a second JOIN', () => {
    const { state, events } = run([join('a', null), join('a', null, 500)]);
    expect(events).toEqual([{ type: 'queued', playerId: 'a' }, { type: 'queued', playerId: 'a' }]);
    expect(state.queue).toEqual([{ playerId: 'a', name: 'A', rating: null, since: 0, timeControl: TEN }]);
  });

  it('pairs rated players by rating, the window widening with the waiting time', () => {
    expect([ratingWindow(0), ratingWindow(4_999), ratingWindow(5_000), ratingWindow(20_000), ratingWindow(59_999), ratingWindow(60_000)])
      .toEqual([100, 100, 150, 300, 650, Infinity]);
    // 1500 waits; 1800 arrives at once: 300 apart, no pairing until the window is 300 wide (20 s)
    let { state, events } = run([join('a', 1500, 0), join('b', 1800, 100)]);
    expect(events.filter((e) => e.type === 'paired')).toEqual([]);
    ({ state, events } = run([{ type: 'TICK', at: 19_000, roll: 0.1 }], state));
    expect(events).toEqual([]);
    ({ state, events } = run([{ type: 'TICK', at: 20_000, roll: 0.1 }], state));
    expect(events).toEqual([{ type: 'paired', white: { id: 'a', name: 'A' }, black: { id: 'b', name: 'B' }, timeControl: TEN }]);
    expect(state.queue).toEqual([]);
  });

  it('gives a newcomer the longest-waiting player that fits, not a closer one who came later', () => {
    const { events, state } = run([join('far', 2400, 0), join('near1', 1520, 1000), join('near2', 1490, 2000)]);
    expect(events.filter((e) => e.type === 'paired')).toEqual([
      { type: 'paired', white: { id: 'near1', name: 'NEAR1' }, black: { id: 'near2', name: 'NEAR2' }, timeControl: TEN },
    ]);
    expect(state.queue.map((p) => p.playerId)).toEqual(['far']);
  });

  it('pairs a guest with anyone and opens to anyone after a minute', () => {
    expect(run([join('rated', 2600, 0), join('guest', null, 10)]).events.some((e) => e.type === 'paired')).toBe(true);
    const { state } = run([join('x', 900, 0), join('y', 2700, 0)]);
    expect(run([{ type: 'TICK', at: 59_999, roll: 0 }], state).events).toEqual([]);
    expect(run([{ type: 'TICK', at: 60_000, roll: 0 }], state).events).toHaveLength(1);
  });

  it('removes a player who leaves, says so once, and ignores one who is not queued', () => {
    const { state, events } = run([join('a', null), { type: 'LEAVE', playerId: 'a', at: 5 }, { type: 'LEAVE', playerId: 'a', at: 6 }]);
    expect(events).toEqual([{ type: 'queued', playerId: 'a' }, { type: 'left', playerId: 'a' }]);
    expect(state).toEqual(EMPTY_POOL);
  });

  it('runs the same step as an XState actor, emitting after each command', () => {
    const actor = createActor(poolLogic);
    const seen: PoolEmitted[] = [];
    actor.on('*', (e) => seen.push(e));
    actor.start();
    actor.send(join('a', 1500, 0));
    actor.send(join('b', 1550, 10, 0.7));
    expect(seen.at(-1)).toEqual({ type: 'paired', white: { id: 'b', name: 'B' }, black: { id: 'a', name: 'A' }, timeControl: TEN });
    expect(actor.getSnapshot().context).toEqual(EMPTY_POOL);
  });

  it('never mutates the state it is given', () => {
    const start = run([join('a', 1500, 0), join('b', 2500, 0)]).state;
    const frozen = JSON.stringify(start);
    poolStep(start, { type: 'TICK', at: 61_000, roll: 0.2 });
    poolStep(start, { type: 'LEAVE', playerId: 'a', at: 1 });
    expect(JSON.stringify(start)).toBe(frozen);
  });
});
