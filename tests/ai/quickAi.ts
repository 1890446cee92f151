/**
 * The AI for tests that play against it: the real engine, the shortest searches, no human pause.
 * `quickAi(extra)` is what startServer takes as `ai`; `extra` adds or overrides settings.
 */
import { aiServiceFactory, type AiServiceOptions } from '../../server/ai/index';

const QUICK_AI_SETTINGS = { replyDelayMs: [0, 5] as [number, number], poolSize: 1, maxMovetimeMs: 50 } satisfies Partial<AiServiceOptions>;

export const quickAi = (extra: Parameters<typeof aiServiceFactory>[0] = {}) => aiServiceFactory({ ...QUICK_AI_SETTINGS, ...extra });
