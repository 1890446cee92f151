/**
 * The game archive as the server uses it: a writer for finished games and the public read API,
 * both on the accounts database (docs/archive.md). Absent in hosted mode, where the accounts
 * live in a Supabase project whose database this server does not own.
 */
import type { Logger } from 'pino';
import type { Db } from '../accounts/db';
import type { Handler } from '../accounts/http';
import { createArchiveHandler, type TokenCheck } from './http';

export type { TokenCheck };
import { archiveGame, claimGuestGames, playerRating, type ArchivedPlayer, type FinishedGame, type StoreResult } from './store';
import { finishedAiGame, finishedGameFromLog } from './fromLog';
import type { EndedAiGame } from '../ai/service';
import type { RatingChangeMsg, PlayerRating } from '../../machines/protocol/messages';
import type { EndedGame } from '../game/games';

export interface Archive {
  /** Stores a finished game (and rates it when rated); idempotent per game id. */
  store(game: FinishedGame): Promise<StoreResult>;
  /** An account's pool rating, the initial rating before its first rated game (matchmaking pairs by it, the game screen shows it). */
  ratingOf(accountId: string): Promise<PlayerRating>;
  /** Gives the account the games a proven guest identity played (kept, never rated); how many. */
  claimGuestGames(guestId: string, accountId: string): Promise<number>;
  /** GET /api/... (games, players, leaderboard) */
  readonly handler: Handler;
}

/** Who an access token belongs to (the accounts module's check), or null. */

export function createArchive(db: Db, logger: Logger, checkToken: TokenCheck): Archive {
  return {
    async store(game) {
      const started = performance.now();
      const result = await archiveGame(db, game);
      logger.debug({ gameId: game.id, stored: result.stored, rated: result.ratings !== null, ms: Math.round(performance.now() - started) }, 'game archived');
      return result;
    },
    ratingOf(accountId) {
      return playerRating(db, accountId);
    },
    async claimGuestGames(guestId, accountId) {
      const count = await claimGuestGames(db, guestId, accountId);
      logger.info({ guestId, accountId, count }, 'guest games claimed');
      return count;
    },
    handler: createArchiveHandler(db, checkToken),
  };
}

export type { ArchivedPlayer, FinishedGame, StoreResult } from './store';

/** How often, and how far apart, a failed archive write is tried again. */
const RETRIES = 3;
const RETRY_MS = 2_000;

/** Told once a rated game is scored: its players' account ids and the message for them. */
export type OnRated = (accountIds: [string, string], msg: RatingChangeMsg) => void;

/** Stores a finished game, trying again a few times if the database fails; `then` gets the result. */
function storeWithRetries(archive: Archive, record: FinishedGame, logger: Logger, then: (r: StoreResult) => void = () => {}): void {
  const attempt = (left: number): void => {
    archive.store(record).then(then, (err: unknown) => {
      if (left > 0) {
        setTimeout(() => attempt(left - 1), RETRY_MS).unref();
        return;
      }
      logger.error({ err, gameId: record.id }, 'could not archive the finished game');
    });
  };
  attempt(RETRIES);
}

/**
 * The GameManager's `onEnded`: each finished game goes to the archive, tried again a few times
 * if the database fails (the game's log also stays in the journal's finished file). A rated
 * game's rating changes go to `onRated` once, by the write that scored it; `onArchived` hears of
 * every game once its record can be read.
 */
export function archiveFinishedGames(archive: Archive, logger: Logger, onRated?: OnRated, onArchived?: (gameId: string) => void): (ended: EndedGame) => void {
  return (ended) => {
    const record = finishedGameFromLog(ended.log, ended.state, ended.result, {
      monotonicNow: ended.at,
      wallNow: Date.now() - (performance.now() - ended.at),
    });
    storeWithRetries(archive, record, logger, (r) => {
      onArchived?.(record.id);
      if (!r.ratings) return;
      logger.info({ gameId: record.id, ratings: r.ratings }, 'rated game archived');
      const { white, black } = record;
      if (onRated && white.accountId && black.accountId) {
        onRated([white.accountId, black.accountId], { type: 'ratingChange', gameId: record.id, ...r.ratings });
      }
    });
  };
}

/** The AI service's `onEnded`: each finished game against the AI goes to the archive (never rated). */
export function archiveAiGames(archive: Archive, logger: Logger, player: (playerId: string) => ArchivedPlayer): (ended: EndedAiGame) => void {
  return (ended) => storeWithRetries(archive, finishedAiGame(ended, player(ended.playerId)), logger);
}
