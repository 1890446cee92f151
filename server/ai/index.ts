/**
 * AI opponent (docs/protocol.md). See docs/ai.md.
 */
import type { Logger } from 'pino';
import type { ServerMessage } from '../../machines/protocol/messages';
import { createAiService, type AiService, type AiServiceOptions } from './service';

export { createAiService, AI_ERRORS, NO_AI_GAME } from './service';
export type { AiService, AiServiceOptions } from './service';
export { AI_LEVELS, DEFAULT_LEVEL, LEVEL_PRESETS, MIN_LEVEL, MAX_LEVEL, levelSettings } from './levels';
export type { AiLevel } from './levels';
export { resolveEngine } from './engine/locate';
export { aiConfigFromEnv } from '../config';

/**
 * The shape server/app.ts takes as `startServer({ ai })`: the server supplies `send` and
 * `logger`, everything else comes from `extra` (or the environment).
 */
export function aiServiceFactory(
  extra: Omit<AiServiceOptions, 'send' | 'logger'> = {},
): (deps: { send: (playerId: string, msg: ServerMessage) => void; logger: Logger }) => Promise<AiService> {
  return (deps) => createAiService({ ...extra, ...deps });
}
