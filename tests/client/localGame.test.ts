import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  LOCAL_SEATS, localGameMachine, localOrientation, readLocalGames, readLocalPlaySettings, type LocalGameResult,
} from '../../machines/client/localGame';
import type { WireMove } from '../../machines/game/types';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start(timeControl = { initial: 60, increment: 2 }) {
  let ids = 0;
  const finished: LocalGameResult[] = [];
  const actor = createActor(localGameMachine, { input: { now: () => Date.now(), newId: () => `local_${++ids}` } }).start();
  actor.on('finished', (e) => finished.push(e.result));
  actor.send({ type: 'SET_TIME_CONTROL', timeControl });
  actor.send({ type: 'START' });
  const play = (...ucis: string[]) => {
    for (const u of ucis) {
      const move: WireMove = { from: u.slice(0, 2), to: u.slice(2, 4) };
      actor.send({ type: 'MOVE', move });
    }
  };
  return { actor, finished, play, game: () => actor.getSnapshot().context.game };
}

describe('local game', () => {
  it('plays both sides on one board, flipping to the side to move, until checkmate', () => {
    const h = start();
    expect(h.game()?.white.id).not.toBe(h.game()?.black.id);
    expect(localOrientation(h.game(), true, false)).toBe('white');
    h.play('f2f3');
    expect(localOrientation(h.game(), true, false)).toBe('black');
    expect(localOrientation(h.game(), true, true)).toBe('white');
    expect(localOrientation(h.game(), false, false)).toBe('white');
    h.play('e7e5', 'g2g4', 'd8h4');
    expect(h.actor.getSnapshot().value).toBe('over');
    expect(h.finished).toEqual([{ id: 'local_1', timeControl: { initial: 60, increment: 2 }, winner: 'black', reason: 'checkmate', plies: 4 }]);
  });

  it('runs the clocks with the core increment and lets the flag fall at the deadline without any move', () => {
    const h = start();
    h.play('e2e4');
    vi.advanceTimersByTime(5_000);
    h.play('e7e5');
    // the clocks run from ply 2: white thinks 10 s and gets the 2 s increment
    vi.advanceTimersByTime(10_000);
    h.play('g1f3');
    expect(h.game()?.clocks).toEqual({ white: 52_000, black: 60_000 });
    // black never moves: the flag falls once its minute and the flag grace are gone
    vi.advanceTimersByTime(60_000);
    expect(h.actor.getSnapshot().value).toBe('playing');
    vi.advanceTimersByTime(1_000);
    expect(h.actor.getSnapshot().value).toBe('over');
    expect(h.finished[0]).toMatchObject({ winner: 'white', reason: 'timeout', plies: 3 });
  });

  it('resigns for the side to move, ends by agreement with Draw, and aborts before both sides moved', () => {
    const resign = start();
    resign.play('e2e4', 'e7e5');
    resign.actor.send({ type: 'RESIGN' });
    expect(resign.finished[0]).toMatchObject({ winner: 'black', reason: 'resignation' });

    const draw = start();
    draw.actor.send({ type: 'DRAW' });
    expect(draw.actor.getSnapshot().value).toBe('playing');
    draw.play('e2e4', 'e7e5', 'g1f3');
    draw.actor.send({ type: 'DRAW' });
    expect(draw.finished[0]).toMatchObject({ winner: 'draw', reason: 'agreement' });

    const abort = start();
    abort.play('e2e4');
    abort.actor.send({ type: 'RESIGN' });
    expect(abort.finished[0]).toMatchObject({ winner: 'draw', reason: 'aborted' });
  });

  it('refuses a move out of turn or an illegal one and starts a rematch as a new game', () => {
    const h = start();
    h.play('e7e5', 'e2e5');
    expect(h.game()?.moves).toEqual([]);
    h.play('e2e4', 'e7e5');
    h.actor.send({ type: 'RESIGN' });
    h.actor.send({ type: 'REMATCH' });
    expect(h.actor.getSnapshot().value).toBe('playing');
    expect(h.game()).toMatchObject({ gameId: 'local_2', moves: [], result: null, white: LOCAL_SEATS.white });
    h.actor.send({ type: 'RESIGN' });
    h.actor.send({ type: 'NEW_GAME' });
    expect(h.actor.getSnapshot().value).toBe('setup');
  });
});

describe('local play storage', () => {
  it('reads back the setup and the games it wrote, and drops what it did not', () => {
    expect(readLocalPlaySettings(null)).toEqual({ timeControl: { initial: 600, increment: 0 }, autoFlip: true });
    expect(readLocalPlaySettings({ timeControl: { initial: 180, increment: 2 }, autoFlip: false })).toEqual({ timeControl: { initial: 180, increment: 2 }, autoFlip: false });
    expect(readLocalPlaySettings({ timeControl: { initial: 7, increment: 0 }, autoFlip: 'yes' })).toEqual({ timeControl: { initial: 600, increment: 0 }, autoFlip: true });
    const game = { id: 'local_1', date: '2026-01-01T00:00:00.000Z', timeControl: { initial: 300, increment: 3 }, winner: 'black', reason: 'checkmate', plies: 4 };
    expect(readLocalGames([game, { ...game, winner: 'nobody' }, null, 'x'])).toEqual([game]);
    expect(readLocalGames({ games: [game] })).toEqual([]);
  });
});
