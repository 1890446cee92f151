/**
 * Settings of a k6 run, read from environment variables (`k6 run -e NAME=value …` or the
 * shell environment with `--include-system-env-vars`). A bad value stops the run in the init
 * phase with a message that names the variable.
 */
import type { Options } from 'k6/options';
import { isRequestable, parseTimeControl, type TimeControl } from '../../../machines/game/timeControl.ts';

function raw(name: string): string | undefined {
  const v = __ENV[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function envString(name: string, def: string): string {
  return raw(name) ?? def;
}

export function envInt(name: string, def: number, min: number, max: number): number {
  const v = raw(name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${v}")`);
  }
  return n;
}

export function envFloat(name: string, def: number, min: number, max: number): number {
  const v = raw(name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new Error(`${name} must be a number from ${min} to ${max} (got "${v}")`);
  }
  return n;
}

/** A k6 duration such as `30s`, `5m`, `1h30m`. */
export function envDuration(name: string, def: string): string {
  const v = raw(name) ?? def;
  if (!/^(\d+(ms|s|m|h))+$/.test(v)) {
    throw new Error(`${name} must be a k6 duration like 90s, 5m or 1h30m (got "${v}")`);
  }
  return v;
}

/** Milliseconds of a k6 duration such as `90s` or `1m30s`. */
export function durationToMs(d: string): number {
  const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
  let ms = 0;
  for (const m of d.match(/\d+(ms|s|m|h)/g) ?? []) {
    const unit = /(ms|s|m|h)$/.exec(m)![1];
    ms += Number(m.slice(0, m.length - unit.length)) * units[unit];
  }
  return ms;
}

/** `http://host:3000` → `ws://host:3000/socket`; `https://…` → `wss://…/socket`. */
export function socketUrlFrom(baseUrl: string): string {
  const m = /^(https?):\/\/([^/?#]+)(\/[^?#]*)?$/.exec(baseUrl);
  if (!m) throw new Error(`BASE_URL must look like http://host:port or https://host (got "${baseUrl}")`);
  const scheme = m[1] === 'https' ? 'wss' : 'ws';
  const prefix = (m[3] ?? '').replace(/\/+$/, '');
  return `${scheme}://${m[2]}${prefix}/socket`;
}

/** The site, e.g. `http://localhost:3000` or `https://chess.example.org`. */
export const BASE_URL = envString('BASE_URL', 'http://localhost:3000');

/** The game socket. Defaults to BASE_URL's host with ws(s) and `/socket`. */
export const WS_URL = envString('WS_URL', socketUrlFrom(BASE_URL));
if (!/^wss?:\/\/[^/?#]+/.test(WS_URL)) {
  throw new Error(`WS_URL must start with ws:// or wss:// (got "${WS_URL}")`);
}

/**
 * The pool to search in, written as players write it (`-e POOL=1+0`, `3+2`, `½+0`); unset, the
 * server's default pool (10+0).
 */
export function envTimeControl(name: string): TimeControl | undefined {
  const v = raw(name);
  if (v === undefined) return undefined;
  const tc = parseTimeControl(v);
  if (!tc || !isRequestable(tc)) {
    throw new Error(`${name} must be a time control from ¼+0 to 180+180, minutes+increment seconds, like 3+2 (got "${v}")`);
  }
  return tc;
}

/** How a simulated human plays: a pause before each move, a move cap, time limits. */
export interface PaceSettings {
  thinkMinMs: number;
  thinkMaxMs: number;
  /** After this many plies the player to move resigns, so every game ends. */
  maxPlies: number;
  /** Give up the search (cancelMatchmaking) after this long without a gameStart. */
  pairingTimeoutMs: number;
  /** A game without gameEnd after this long counts as unfinished. */
  gameTimeoutMs: number;
  /** the pool searched in (POOL); none is the server's default */
  timeControl?: TimeControl;
}

export function paceSettings(defaults: { thinkMinMs: number; thinkMaxMs: number; maxPlies: number }): PaceSettings {
  const thinkMinMs = envInt('THINK_MIN_MS', defaults.thinkMinMs, 0, 600_000);
  const thinkMaxMs = envInt('THINK_MAX_MS', Math.max(defaults.thinkMaxMs, thinkMinMs), thinkMinMs, 600_000);
  const maxPlies = envInt('MAX_PLIES', defaults.maxPlies, 1, 600);
  const pairingTimeoutMs = envInt('PAIRING_TIMEOUT_MS', 15_000, 100, 3_600_000);
  // Both players think: a game of maxPlies plies takes at most maxPlies * thinkMaxMs, plus
  // server replies and slack.
  const gameTimeoutMs = envInt('GAME_TIMEOUT_MS', maxPlies * thinkMaxMs + 60_000, 1_000, 24 * 3_600_000);
  const timeControl = envTimeControl('POOL');
  return { thinkMinMs, thinkMaxMs, maxPlies, pairingTimeoutMs, gameTimeoutMs, ...(timeControl ? { timeControl } : {}) };
}

/**
 * The k6 scenario of players who ramp up to `target` over RAMP, stay DURATION, then ramp down,
 * each allowed `gameTimeoutMs` to finish the game in hand (never cut off mid-game).
 */
export function playersAtPlateau(
  target: number,
  gameTimeoutMs: number,
  defaults: { ramp: string; duration: string },
  exec?: string,
): NonNullable<Options['scenarios']>[string] {
  const stop = msToDuration(gameTimeoutMs);
  return {
    executor: 'ramping-vus',
    ...(exec ? { exec } : {}),
    startVUs: 0,
    stages: [
      { duration: envDuration('RAMP', defaults.ramp), target },
      { duration: envDuration('DURATION', defaults.duration), target },
      { duration: '10s', target: 0 },
    ],
    gracefulRampDown: stop,
    gracefulStop: stop,
  };
}

/** k6 duration text for a number of milliseconds, rounded up to whole seconds. */
export function msToDuration(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

/** Uniform random integer in [min, max]. */
export function randomBetween(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}
