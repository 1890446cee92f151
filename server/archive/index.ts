/**
 * The game archive as the server uses it: a writer for finished games and the public read API,
 * both on the accounts database (docs/archive.md). Absent in hosted mode, where the accounts
 * live in a Supabase project whose database this server does not own.
 */
import type { Logger } from 'pino';
import type { Db } from '../accounts/db';
import type { Handler } from '../accounts/http';
import { createArchiveHandler } from './http';
import { archiveGame, type FinishedGame, type StoreResult } from './store';

export interface Archive {
  /** Stores a finished game (and rates it when rated); idempotent per game id. */
  store(game: FinishedGame): Promise<StoreResult>;
  /** GET /api/... (games, players, leaderboard) */
  readonly handler: Handler;
}

export function createArchive(db: Db, logger: Logger): Archive {
  return {
    async store(game) {
      const started = performance.now();
      const result = await archiveGame(db, game);
      logger.debug({ gameId: game.id, stored: result.stored, rated: result.ratings !== null, ms: Math.round(performance.now() - started) }, 'game archived');
      return result;
    },
    handler: createArchiveHandler(db),
  };
}

export type { FinishedGame, StoreResult } from './store';
