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
import { finishedGameFromLog } from './fromLog';
import { UNRATED_REASON_TEXT, type UnratedReason } from './ratingRules';
import type { RatingChangeMsg, PlayerRating } from '../../machines/protocol/messages';
import type { Speed } from '../../machines/game/timeControl';
import type { EndedGame } from '../game/games';

/** The reasons that keep a game between two accounts unrated (the anti-farming rules): logged, so operators see a farm. */
const ACCOUNTS_UNRATED = new Set<UnratedReason>(['too_short', 'rematch_outside_window', 'pair_daily_limit']);

export interface Archive {
  /**
   * Stores a finished game (and rates it when the rating rules say so); idempotent per game id: a
   * game stored before is not stored again, and its answer carries the earlier write's ratings.
   */
  store(game: FinishedGame): Promise<StoreResult>;
  /** An account's rating in a speed, the initial rating before its first rated game of that speed (matchmaking pairs by it, the game screen shows it). */
  ratingOf(accountId: string, speed: Speed): Promise<PlayerRating>;
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
      if (result.unrated && ACCOUNTS_UNRATED.has(result.unrated)) {
        logger.info({ gameId: game.id, unrated: result.unrated, why: UNRATED_REASON_TEXT[result.unrated] }, 'game between two accounts not rated');
      }
      return result;
    },
    ratingOf(accountId, speed) {
      return playerRating(db, accountId, speed);
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

/** A failed archive write is tried again after this long, twice as long each time up to ARCHIVE_RETRY_MAX_MS. */
export const ARCHIVE_RETRY_MS = 1_000;
export const ARCHIVE_RETRY_MAX_MS = 30_000;

/** The delay before the archive write after `failures` failed ones. */
export const archiveRetryDelayMs = (failures: number) => Math.min(ARCHIVE_RETRY_MAX_MS, ARCHIVE_RETRY_MS * 2 ** (failures - 1));

/** Runs `retry` after `ms`; the function it returns cancels that. */
export type RetryTimer = (retry: () => void, ms: number) => () => void;

/** setTimeout's, not keeping the process up. */
const RETRY_ON_TIMEOUT: RetryTimer = (retry, ms) => {
  const timer = setTimeout(retry, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** Told once a rated game is scored: its players' account ids (white's, black's), the message for them, and their ratings now in the game's speed. */
export type OnRated = (accountIds: [string, string], msg: RatingChangeMsg, standing: { white: PlayerRating; black: PlayerRating }) => void;

/**
 * Finished games on their way to the archive: each is tried until it is stored, however long the
 * database is away (a game's end is kept by the game store until then: the journal, or the shared
 * game log). The archive is idempotent per game id, so a game tried again after a restart is
 * stored and rated once.
 */
export class ArchiveQueue {
  /** the retries waiting, each by its cancel */
  private readonly retries = new Set<() => void>();
  private closed = false;
  /** games not yet stored */
  private pending = 0;

  /** `retryTimer`: when a failed write is tried again (after archiveRetryDelayMs, on setTimeout, by default) */
  constructor(
    private readonly archive: Archive,
    private readonly logger: Logger,
    private readonly retryTimer: RetryTimer = RETRY_ON_TIMEOUT,
  ) {}

  get waiting(): number {
    return this.pending;
  }

  /** Stores the game, trying again until it is stored (or the queue is closed); `then` gets the result. */
  store(record: FinishedGame, then: (r: StoreResult) => void = () => {}): void {
    this.pending++;
    const attempt = (failures: number): void => {
      if (this.closed) return;
      this.archive.store(record).then(
        (r) => {
          this.pending--;
          if (failures > 0) this.logger.info({ gameId: record.id, failures }, 'finished game archived after the database came back');
          then(r);
        },
        (err: unknown) => {
          if (failures === 0) this.logger.error({ err, gameId: record.id }, 'could not archive the finished game; trying again until the database answers');
          const cancel = this.retryTimer(() => {
            this.retries.delete(cancel);
            attempt(failures + 1);
          }, archiveRetryDelayMs(failures + 1));
          this.retries.add(cancel);
        },
      );
    };
    attempt(0);
  }

  /** Stops trying (shutdown): what is not stored stays with the game store, for the next start. */
  close(): void {
    this.closed = true;
    for (const cancel of this.retries) cancel();
    this.retries.clear();
  }
}

/** What archiveFinishedGames tells of the games it stores. */
export interface ArchiveHooks {
  /** a rated game's rating changes, once, by the write that scored it */
  rated?: OnRated;
  /** every game, once its record is committed (the game store may then forget it) */
  archived?: (gameId: string) => void;
  /**
   * a rated game an earlier write had stored and scored (another node's: the game's own, when a
   * node that took its games over found it ended): its ratingChange, which that write's node
   * told the players
   */
  ratedBefore?: (msg: RatingChangeMsg) => void;
}

/** The GameManager's `onEnded`: each finished game goes to the archive, tried until it is stored. */
export function archiveFinishedGames(queue: ArchiveQueue, logger: Logger, hooks: ArchiveHooks = {}): (ended: EndedGame) => void {
  return (ended) => {
    const record = finishedGameFromLog(ended.log, ended.state, ended.result, {
      monotonicNow: ended.at,
      wallNow: Date.now() - (performance.now() - ended.at),
    });
    queue.store(record, (r) => {
      hooks.archived?.(record.id);
      if (!r.ratings || !r.speed) return;
      const msg: RatingChangeMsg = { type: 'ratingChange', gameId: record.id, speed: r.speed, ...r.ratings };
      if (!r.stored) return hooks.ratedBefore?.(msg);
      if (!r.standing) return;
      logger.info({ gameId: record.id, speed: r.speed, ratings: r.ratings }, 'rated game archived');
      const { white, black } = record;
      if (hooks.rated && white.accountId && black.accountId) hooks.rated([white.accountId, black.accountId], msg, r.standing);
    });
  };
}
