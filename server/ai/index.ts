/**
 * AI opponent (docs/protocol.md). See docs/ai.md.
 */
import { createAiService, type AiService, type AiServiceDeps, type AiServiceOptions } from './service';

export { createAiService, AI_ERRORS } from './service';
export type { AiService, AiServiceDeps, AiServiceOptions } from './service';
export { AI_LEVELS, DEFAULT_LEVEL, LEVEL_PRESETS, MIN_LEVEL, MAX_LEVEL, levelSettings } from './levels';
export type { AiLevel } from './levels';
export { resolveEngine } from './engine/locate';

/**
 * The shape server/app.ts takes as `startServer({ ai })`: the server supplies its deps (`send`,
 * `logger`, ...), the settings come from `extra` (or the environment).
 */
export function aiServiceFactory(
  extra: Omit<AiServiceOptions, keyof AiServiceDeps> = {},
): (deps: AiServiceDeps) => Promise<AiService> {
  return (deps) => createAiService({ ...extra, ...deps });
}
