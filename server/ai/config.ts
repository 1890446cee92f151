/**
 * AI service settings from the environment (each one can also be passed to createAiService,
 * which wins over the environment).
 *
 *   STOCKFISH_PATH          engine executable (or a .js WASM build); see engine/locate.ts
 *   AI_ENGINE               'wasm' forces the embedded WASM engine, 'native' requires a binary
 *   AI_POOL_SIZE            engine processes (default: number of cores)
 *   AI_MAX_GAMES            concurrent AI games per server (default 200)
 *   AI_GAMES_PER_ADDRESS    concurrent AI games started from one client address (default 5)
 *   AI_REPLY_DELAY_MS       human-like pause range "min-max" in ms (default 300-1200)
 *   AI_DISCONNECT_GRACE_MS  how long a game waits for its absent player (default 300000)
 *   AI_MAX_MOVETIME_MS      cap on every search's movetime (default: none, the level decides)
 */
import os from 'node:os';

export const DEFAULT_MAX_GAMES = 200;
/** A household's players each with a game, not one address holding the server's AI slots. */
export const DEFAULT_MAX_GAMES_PER_ADDRESS = 5;
export const DEFAULT_REPLY_DELAY_MS: [number, number] = [300, 1200];
/** A disconnected player's AI game is kept this long (5 minutes) before it is abandoned. */
export const DEFAULT_DISCONNECT_GRACE_MS = 5 * 60_000;

function intFrom(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

export function rangeFrom(value: string | undefined, name: string): [number, number] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value);
  if (!m) throw new Error(`${name} must look like "300-1200" (ms), got "${value}"`);
  const lo = Number(m[1]);
  const hi = m[2] === undefined ? lo : Number(m[2]);
  if (hi < lo) throw new Error(`${name}: the maximum is below the minimum in "${value}"`);
  return [lo, hi];
}

export interface AiEnvConfig {
  poolSize: number;
  maxGames: number;
  maxGamesPerAddress: number;
  replyDelayMs: [number, number];
  disconnectGraceMs: number;
  maxMovetimeMs?: number;
  enginePath?: string;
}

export function aiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AiEnvConfig {
  return {
    poolSize: intFrom(env.AI_POOL_SIZE, 'AI_POOL_SIZE', 1) ?? Math.max(1, os.cpus().length),
    maxGames: intFrom(env.AI_MAX_GAMES, 'AI_MAX_GAMES', 1) ?? DEFAULT_MAX_GAMES,
    maxGamesPerAddress: intFrom(env.AI_GAMES_PER_ADDRESS, 'AI_GAMES_PER_ADDRESS', 1) ?? DEFAULT_MAX_GAMES_PER_ADDRESS,
    replyDelayMs: rangeFrom(env.AI_REPLY_DELAY_MS, 'AI_REPLY_DELAY_MS') ?? DEFAULT_REPLY_DELAY_MS,
    disconnectGraceMs: intFrom(env.AI_DISCONNECT_GRACE_MS, 'AI_DISCONNECT_GRACE_MS', 0) ?? DEFAULT_DISCONNECT_GRACE_MS,
    maxMovetimeMs: intFrom(env.AI_MAX_MOVETIME_MS, 'AI_MAX_MOVETIME_MS', 1),
    enginePath: env.STOCKFISH_PATH || undefined,
  };
}
