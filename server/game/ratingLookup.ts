/**
 * A signed-in player's rating in a speed, looked up when they are about to play at that speed:
 * matchmaking pairs by it, and the lobby's hooks and challenges show it and start the game with
 * it (gameStart's `ratings`). A slow or failed lookup gives no rating rather than keep the player
 * waiting.
 */
import type { Logger } from 'pino';
import type { PlayerRating } from '../../machines/protocol/messages';
import { speedOf, type Speed, type TimeControl } from '../../machines/game/timeControl';
import type { PlayerSession } from '../realtime/hub';

/** A signed-in player's rating in a speed, or null (no archive). */
export type RatingLookup = (accountId: string, speed: Speed) => Promise<PlayerRating | null>;

/** A rating lookup slower than this gives no rating rather than keep the player waiting. */
export const RATING_LOOKUP_MS = 2_000;

/** The account's rating in `speed`; null when the lookup fails or takes longer than RATING_LOOKUP_MS. */
export async function lookUpRating(ratingOf: RatingLookup, accountId: string, speed: Speed, log: Logger): Promise<PlayerRating | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      ratingOf(accountId, speed),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), RATING_LOOKUP_MS);
      }),
    ]);
  } catch (err) {
    log.warn({ err, playerId: accountId }, 'rating lookup failed; playing as unrated');
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * After a rated game, the player's session holds their new rating in its speed, so that a rematch
 * (same time control) starts showing it; unless they are searching or playing again, when the
 * rating looked up for that search or game stands.
 */
export function holdNewRating(session: PlayerSession | undefined, rating: PlayerRating): void {
  if (session?.kind === 'account' && !session.queued && !session.game) session.rating = rating;
}

/** Sets a signed-in player's session rating to theirs in the speed of `timeControl` (a guest has none). */
export async function rateSessionFor(session: PlayerSession, timeControl: TimeControl, ratingOf: RatingLookup | undefined, log: Logger): Promise<void> {
  if (session.kind !== 'account' || !ratingOf) return;
  session.rating = await lookUpRating(ratingOf, session.id, speedOf(timeControl), log);
}
