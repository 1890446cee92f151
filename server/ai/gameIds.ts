/** The ids of games against the AI: `ai_` and a UUID, so any node tells them from multiplayer games' ids. */
import { randomUUID } from 'node:crypto';

const AI_GAME_PREFIX = 'ai_';

export const newAiGameId = (): string => AI_GAME_PREFIX + randomUUID();

export const isAiGameId = (gameId: string): boolean => gameId.startsWith(AI_GAME_PREFIX);
