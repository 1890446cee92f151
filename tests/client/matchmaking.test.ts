import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { CANCELED_RESET_MS, matchmakingMachine, NOTICE_MS } from '../../machines/client/matchmaking';
import type { ClientMessage } from '../../machines/protocol/messages';

function start() {
  const sent: ClientMessage[] = [];
  const actor = createActor(matchmakingMachine).start();
  actor.on('send', (e) => sent.push(e.message));
  const phase = () => (actor.getSnapshot().value as { phase: string }).phase;
  return { actor, sent, phase };
}

describe('matchmaking machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('Find Match queues and sends findGame with the username', () => {
    const { actor, sent, phase } = start();
    actor.send({ type: 'FIND', username: 'Ann' });
    expect(phase()).toBe('queued');
    expect(sent).toEqual([{ type: 'findGame', payload: { username: 'Ann' } }]);
  });

  it('a search names its pool, and a search that names none asks for the server\'s default', () => {
    const { actor, sent } = start();
    actor.send({ type: 'FIND', username: 'Ann', timeControl: { initial: 180, increment: 2 } });
    expect(sent).toEqual([{ type: 'findGame', payload: { username: 'Ann', timeControl: { initial: 180, increment: 2 } } }]);
    actor.send({ type: 'CANCEL' });
    actor.send({ type: 'STATUS', status: 'canceled', message: 'Matchmaking canceled' });
    vi.advanceTimersByTime(100);
    actor.send({ type: 'FIND', username: 'Ann' });
    expect(sent.at(-1)).toEqual({ type: 'findGame', payload: { username: 'Ann' } });
  });

  it('a missing username becomes "Anonymous Player"', () => {
    const { actor, sent } = start();
    actor.send({ type: 'FIND', username: null });
    expect(sent).toEqual([{ type: 'findGame', payload: { username: 'Anonymous Player' } }]);
  });

  it('cancel: shows the server message, returns to idle after 100 ms', () => {
    const { actor, sent, phase } = start();
    actor.send({ type: 'FIND', username: 'Ann' });
    actor.send({ type: 'CANCEL' });
    expect(sent[1]).toEqual({ type: 'cancelMatchmaking' });
    actor.send({ type: 'STATUS', status: 'canceled', message: 'Matchmaking canceled' });
    expect(phase()).toBe('canceled');
    expect(actor.getSnapshot().context.message).toBe('Matchmaking canceled');
    vi.advanceTimersByTime(CANCELED_RESET_MS - 1);
    expect(phase()).toBe('canceled');
    vi.advanceTimersByTime(1);
    expect(phase()).toBe('idle');
    expect(actor.getSnapshot().context.message).toBe('Matchmaking canceled');
  });

  it('game start, then Find Match is refused for 3 s; game end returns to idle', () => {
    const { actor, sent, phase } = start();
    actor.send({ type: 'FIND', username: 'Ann' });
    actor.send({ type: 'GAME_STARTED' });
    expect(phase()).toBe('inGame');
    actor.send({ type: 'FIND', username: 'Ann' });
    expect(phase()).toBe('inGame');
    expect(sent).toHaveLength(1);
    expect(actor.getSnapshot().context.notice).toBe('Cannot search for a new game while in an active game');
    vi.advanceTimersByTime(NOTICE_MS - 1);
    expect(actor.getSnapshot().context.notice).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().context.notice).toBeNull();
    actor.send({ type: 'GAME_ENDED' });
    expect(phase()).toBe('idle');
  });

  it('the refusal notice is not shown outside a game', () => {
    const { actor } = start();
    actor.send({ type: 'FIND', username: 'Ann' });
    expect(actor.getSnapshot().context.notice).toBeNull();
  });

  it('a search refused for a game in progress names it until the next search; the player may resign it from here', () => {
    const { actor, sent, phase } = start();
    actor.send({ type: 'RESIGN_ACTIVE' });
    expect(sent).toEqual([]);
    actor.send({ type: 'FIND', username: 'Ann' });
    const activeGame = { gameId: 'ai_1', vsAi: true };
    actor.send({ type: 'STATUS', status: 'idle', message: 'Cannot search for a new game while in an active game', activeGame });
    expect(phase()).toBe('idle');
    expect(actor.getSnapshot().context.activeGame).toEqual(activeGame);
    actor.send({ type: 'RESIGN_ACTIVE' });
    expect(sent[1]).toEqual({ type: 'resign', payload: { gameId: 'ai_1' } });
    expect(actor.getSnapshot().context.activeGame).toBeNull();
    actor.send({ type: 'FIND', username: 'Ann' });
    expect(phase()).toBe('queued');
  });
});
