/**
 * The AI service's settings and their defaults. server/config.ts reads them from the environment
 * with every other setting (each one can also be passed to createAiService, which wins):
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

export const DEFAULT_MAX_GAMES = 200;
/** A household's players each with a game, not one address holding the server's AI slots. */
export const DEFAULT_MAX_GAMES_PER_ADDRESS = 5;
export const DEFAULT_REPLY_DELAY_MS: [number, number] = [300, 1200];
/** A disconnected player's AI game is kept this long (5 minutes) before it is abandoned. */
export const DEFAULT_DISCONNECT_GRACE_MS = 5 * 60_000;

export interface AiEnvConfig {
  poolSize: number;
  maxGames: number;
  maxGamesPerAddress: number;
  replyDelayMs: [number, number];
  disconnectGraceMs: number;
  maxMovetimeMs?: number;
  enginePath?: string;
}
