/**
 * The AI service's settings and their defaults. server/config/index.ts reads them from the environment
 * with every other setting (each one can also be passed to createAiService, which wins):
 *
 *   STOCKFISH_PATH          engine executable (or a .js WASM build); see engine/locate.ts
 *   AI_ENGINE               'wasm' forces the embedded WASM engine, 'native' requires a binary
 *   AI_POOL_SIZE            engine processes at most (default: defaultPoolSize(), cores and memory)
 *   AI_MAX_GAMES            concurrent AI games per server (default 200)
 *   AI_GAMES_PER_ADDRESS    concurrent AI games started from one client address (default 5)
 *   AI_REPLY_DELAY_MS       human-like pause range "min-max" in ms (default 300-1200)
 *   AI_MAX_MOVETIME_MS      cap on every search's movetime (default: none, the level decides)
 */
import os from 'node:os';

export const DEFAULT_MAX_GAMES = 200;

/**
 * What one engine process may hold resident: the npm WASM build runs in a Node process of about
 * 110 MB; a native Stockfish with its 16 MB hash table about 40 MB. The larger is assumed.
 */
export const ENGINE_MEMORY_BYTES = 128 * 1024 * 1024;
/** The share of the machine's (or the container's) memory all engines together may take. */
export const ENGINE_MEMORY_SHARE = 0.25;

/**
 * The default pool size: one engine per core, but no more than ENGINE_MEMORY_SHARE of the
 * memory allows (a 16-core host with 4 GB gets 8, a 1 GB container 2), and at least one.
 * Engines only run while searches need them (engine/pool.ts), so this is a ceiling.
 */
export function defaultPoolSize(cores = os.availableParallelism(), memoryBytes = availableMemory()): number {
  return Math.max(1, Math.min(cores, Math.floor((memoryBytes * ENGINE_MEMORY_SHARE) / ENGINE_MEMORY_BYTES)));
}

/** The memory this process may use: the container's limit when it has one, else the machine's. */
function availableMemory(): number {
  const total = os.totalmem();
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < total ? limit : total;
}
/** A household's players each with a game, not one address holding the server's AI slots. */
export const DEFAULT_MAX_GAMES_PER_ADDRESS = 5;
export const DEFAULT_REPLY_DELAY_MS: [number, number] = [300, 1200];
/**
 * A game whose player does not move for this long on their turn ends, lost by them on time (an AI
 * game has no clock): a player who stays connected cannot hold one of the server's slots for good.
 */
export const DEFAULT_IDLE_MS = 10 * 60_000;

export interface AiEnvConfig {
  poolSize: number;
  maxGames: number;
  maxGamesPerAddress: number;
  replyDelayMs: [number, number];
  maxMovetimeMs?: number;
  enginePath?: string;
}
