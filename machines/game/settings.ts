/** Turns the game input into settings, filling defaults and refusing nonsense with a clear error. */
import {
  DEFAULT_CLOCK_MS,
  DEFAULT_FIRST_MOVE_DEADLINE_MS,
  DEFAULT_GRACE_MS,
  DEFAULT_LAG,
  DRAW_OFFER_INTERVAL_PLIES,
  MAX_FLAG_GRACE_MS,
  MAX_PLIES,
  MIN_DEFAULT_GRACE_MS,
} from './defaults';
import type { GameInput, GameSettings } from './types';

function duration(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`game input: ${name} must be a finite number of milliseconds >= 0, got ${String(value)}`);
  }
  return value;
}

function positiveCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new TypeError(`game input: ${name} must be an integer >= 1, got ${String(value)}`);
  }
  return value;
}

function flag(name: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`game input: ${name} must be true or false, got ${String(value)}`);
  return value;
}

function seatId(name: string, seat: unknown): string {
  const id = (seat as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '') throw new TypeError(`game input: ${name}.id must be a non-empty string`);
  return id;
}

export function resolveSettings(input: GameInput): GameSettings {
  if (!input || typeof input.gameId !== 'string' || input.gameId === '') {
    throw new TypeError('game input: gameId must be a non-empty string');
  }
  const whiteId = seatId('white', input.white);
  const blackId = seatId('black', input.black);
  if (whiteId === blackId) throw new TypeError('game input: white and black must be different players');

  if (typeof input.startedAt !== 'number' || !Number.isFinite(input.startedAt)) {
    throw new TypeError(`game input: startedAt must be a finite number of milliseconds, got ${String(input.startedAt)}`);
  }

  const clockMs = duration('clockMs', input.clockMs, DEFAULT_CLOCK_MS);
  if (clockMs === 0) throw new TypeError('game input: clockMs must be > 0');

  const accounts = new Set(input.accountIds ?? []);
  const graceFor = (id: string): number => {
    const g = input.graceMs;
    if (typeof g === 'number') return duration('graceMs', g, 0);
    if (g && typeof g === 'object') {
      return accounts.has(id) ? duration('graceMs.account', g.account, 0) : duration('graceMs.guest', g.guest, 0);
    }
    // Defaults only: lichess's floor of 10 s applies to computed values; explicit values
    // (tests use ~1 s) are honoured as given.
    return Math.max(MIN_DEFAULT_GRACE_MS, accounts.has(id) ? DEFAULT_GRACE_MS.account : DEFAULT_GRACE_MS.guest);
  };

  const lag = input.lag ?? {};
  const untimed = input.untimed === true;
  return {
    clockMs,
    untimed,
    // a limit per move has no increment
    incrementMs: untimed ? 0 : duration('incrementMs', input.incrementMs, 0),
    firstMoveDeadlineMs: duration('firstMoveDeadlineMs', input.firstMoveDeadlineMs, DEFAULT_FIRST_MOVE_DEADLINE_MS),
    graceMs: { white: graceFor(whiteId), black: graceFor(blackId) },
    lag: {
      perMoveCapMs: duration('lag.perMoveCapMs', lag.perMoveCapMs, DEFAULT_LAG.perMoveCapMs),
      initialBankMs: duration('lag.initialBankMs', lag.initialBankMs, DEFAULT_LAG.initialBankMs),
      bankCapMs: duration('lag.bankCapMs', lag.bankCapMs, DEFAULT_LAG.bankCapMs),
      refillPerMoveMs: duration('lag.refillPerMoveMs', lag.refillPerMoveMs, DEFAULT_LAG.refillPerMoveMs),
    },
    maxFlagGraceMs: MAX_FLAG_GRACE_MS,
    maxPlies: positiveCount('maxPlies', input.maxPlies, MAX_PLIES),
    drawOfferIntervalPlies: DRAW_OFFER_INTERVAL_PLIES,
    takebacks: flag('takebacks', input.takebacks, false),
  };
}

/** Whether a player of the game plays as a guest: not one of its signed-in accounts (`accountIds`). */
export function playsAsGuest(input: Pick<GameInput, 'accountIds'>, playerId: string): boolean {
  return !(input.accountIds?.includes(playerId) ?? false);
}
