import { describe, expect, it } from 'vitest';
import { formatClock, outcomeFor, reasonLabel, REASON_LABELS, toTimers } from '../../machines/game/display';
import { resolveSettings } from '../../machines/game/settings';

describe('display helpers', () => {
  it('formats clocks as mm:ss, rounding seconds up', () => {
    expect(formatClock(600_000)).toBe('10:00');
    expect(formatClock(599_001)).toBe('10:00');
    expect(formatClock(599_000)).toBe('09:59');
    expect(formatClock(61_000)).toBe('01:01');
    expect(formatClock(1)).toBe('00:01');
    expect(formatClock(0)).toBe('00:00');
    expect(formatClock(-5)).toBe('00:00');
    expect(formatClock(Number.NaN)).toBe('00:00');
    expect(formatClock(90 * 60_000)).toBe('90:00');
  });

  it('turns millisecond clocks into the whole seconds of the protocol timers', () => {
    expect(toTimers({ white: 599_500, black: 0 })).toEqual({ white: 600, black: 0 });
  });

  it('labels the documented reasons and shows any other reason as given', () => {
    expect(Object.keys(REASON_LABELS)).toHaveLength(9);
    expect(reasonLabel('disconnection')).toBe('Opponent Disconnected');
    expect(reasonLabel('agreement')).toBe('Draw by Agreement');
    expect(reasonLabel('technical_draw')).toBe('Technical Draw (AI Error)');
    expect(reasonLabel('fifty-move rule')).toBe('fifty-move rule');
    expect(reasonLabel('toString')).toBe('toString');
  });

  it('computes the outcome for a colour', () => {
    expect(outcomeFor('white', 'white')).toBe('win');
    expect(outcomeFor('black', 'white')).toBe('loss');
    expect(outcomeFor('black', 'draw')).toBe('draw');
  });
});

describe('game input checks', () => {
  const base = { gameId: 'g', white: { id: 'a', name: 'A' }, black: { id: 'b', name: 'B' }, startedAt: 0 };

  it('fills the documented defaults', () => {
    expect(resolveSettings(base)).toEqual({
      clockMs: 600_000,
      untimed: false,
      incrementMs: 0,
      firstMoveDeadlineMs: 30_000,
      graceMs: { white: 40_000, black: 40_000 },
      lag: { perMoveCapMs: 1_000, initialBankMs: 3_000, bankCapMs: 7_000, refillPerMoveMs: 1_000 },
      maxFlagGraceMs: 2_000,
      maxPlies: 600,
      drawOfferIntervalPlies: 20,
      takebacks: false,
    });
  });

  it('refuses nonsense with a clear message', () => {
    expect(() => resolveSettings({ ...base, black: { id: 'a', name: 'A again' } })).toThrow(/different players/);
    expect(() => resolveSettings({ ...base, clockMs: -1 })).toThrow(/clockMs must be/);
    expect(() => resolveSettings({ ...base, clockMs: 0 })).toThrow(/clockMs must be > 0/);
    expect(() => resolveSettings({ ...base, incrementMs: -1 })).toThrow(/incrementMs must be/);
    expect(() => resolveSettings({ ...base, gameId: '' })).toThrow(/gameId/);
    expect(() => resolveSettings({ ...base, lag: { perMoveCapMs: Number.NaN } })).toThrow(/lag.perMoveCapMs/);
    expect(() => resolveSettings({ ...base, maxPlies: 0 })).toThrow(/maxPlies/);
    expect(() => resolveSettings({ ...base, startedAt: Number.POSITIVE_INFINITY })).toThrow(/startedAt/);
    expect(() => resolveSettings(JSON.parse(JSON.stringify({ ...base, takebacks: 'yes' })))).toThrow(/takebacks must be true or false/);
  });
});
