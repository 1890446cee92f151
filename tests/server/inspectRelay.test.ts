/**
 * The inspector relay's pure parts: which running actors a late viewer is sent (LiveActors) and
 * how small a snapshot is made (smallSnapshot).
 */
import { describe, expect, it } from 'vitest';
import { LiveActors } from '../../server/inspect/liveActors';
import { smallContext, smallSnapshot } from '../../server/inspect/smallSnapshot';

const actor = (sessionId: string, context: unknown, parentId?: string) =>
  JSON.stringify({ type: '@xstate.actor', sessionId, name: sessionId, parentId, snapshot: { status: 'active', context } });
const snapshot = (sessionId: string, status: string, event = 'MOVE', context: unknown = {}) =>
  JSON.stringify({ type: '@xstate.snapshot', sessionId, event: { type: event }, snapshot: { status, context } });
const event = (sessionId: string, type: string) => JSON.stringify({ type: '@xstate.event', sessionId, event: { type } });

describe('LiveActors', () => {
  it('sends a late viewer each running actor, registration then latest snapshot, and one game’s actors only when asked', () => {
    const live = new LiveActors();
    expect(live.record(actor('x:0', { queue: [] }))).toEqual({ gameId: null });
    expect(live.record(actor('x:1', { gameId: 'g1' }))).toEqual({ gameId: 'g1' });
    expect(live.record(actor('x:2', { gameId: 'g2' }))).toEqual({ gameId: 'g2' });
    // an AI game's engine search is its child: it belongs to the same game
    expect(live.record(actor('x:3', undefined, 'x:2'))).toEqual({ gameId: 'g2' });
    expect(live.record(event('x:1', 'MOVE'))).toEqual({ gameId: 'g1' });
    live.record(snapshot('x:1', 'active', 'MOVE', { ply: 1 }));
    live.record(snapshot('x:1', 'active', 'MOVE', { ply: 2 }));
    expect(live.catchUp('g1')).toEqual([actor('x:1', { gameId: 'g1' }), snapshot('x:1', 'active', 'MOVE', { ply: 2 })]);
    expect(live.catchUp('g2')).toEqual([actor('x:2', { gameId: 'g2' }), actor('x:3', undefined, 'x:2')]);
    expect(live.catchUp(null)).toHaveLength(5);
    expect(live.size).toBe(4);
  });

  it('forgets an actor once it is done or stopped (a game is told xstate.stop)', () => {
    const live = new LiveActors();
    live.record(actor('x:1', { gameId: 'g1' }));
    live.record(actor('x:2', { gameId: 'g2' }));
    expect(live.record(snapshot('x:1', 'active', 'xstate.stop'))).toEqual({ gameId: 'g1' });
    live.record(snapshot('x:2', 'done', 'PLAYER_MOVE'));
    expect(live.catchUp(null)).toEqual([]);
    expect(live.size).toBe(0);
  });

  it('refuses what is not an inspection message and changes nothing', () => {
    const live = new LiveActors();
    live.record(actor('x:1', { gameId: 'g1' }));
    expect(live.record('not json')).toEqual({ error: 'not JSON' });
    expect(live.record(JSON.stringify({ type: 'hello' }))).toMatchObject({ error: expect.stringMatching(/^not an inspection message/) });
    expect(live.record(JSON.stringify({ type: '@xstate.actor' }))).toMatchObject({ error: expect.stringMatching(/^not an inspection message/) });
    expect(live.catchUp(null)).toEqual([actor('x:1', { gameId: 'g1' })]);
  });
});

describe('smallSnapshot', () => {
  it('gives a game’s state without its history: the ply and the last move instead', () => {
    const state = { gameId: 'g1', fen: 'f', moves: ['e2e4', 'e7e5'], positions: ['a', 'b', 'c'], result: null };
    expect(smallContext(state)).toEqual({ gameId: 'g1', fen: 'f', ply: 2, lastMove: 'e7e5', result: null });
    expect(smallContext({ ...state, moves: [] })).toMatchObject({ ply: 0, lastMove: null });
    expect(smallContext({ queue: [] })).toEqual({ queue: [] });
  });

  it('keeps the status, state value, output and error and drops the rest; its own result is unchanged', () => {
    const machine = { status: 'done' as const, value: 'ended', context: { moves: ['e2e4'] }, output: { winner: 'white' }, error: undefined, children: { engine: {} }, historyValue: {} };
    const small = smallSnapshot(machine);
    expect(small).toEqual({ status: 'done', value: 'ended', context: { ply: 1, lastMove: 'e2e4' }, output: { winner: 'white' } });
    expect(smallSnapshot(small)).toEqual(small);
    expect(smallSnapshot({ status: 'error', error: new Error('engine crashed') })).toEqual({ status: 'error', error: 'engine crashed' });
  });
});
