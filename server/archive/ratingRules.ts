/**
 * Which finished games are rated, and why the others are not (docs/ratings.md, "Which games are
 * rated"): pure rules over the game and, for a game between two accounts, what the archive knows
 * of the pair. The archive asks them inside the transaction that stores the game, so two games of
 * one pair ending at once are decided one after the other.
 */
import { POOL_WINDOW } from '../../machines/matchmaking';
import { ENDED_KEEP_MS } from '../game/endedGames';
import type { GameEndReason } from '../../machines/protocol/messages';

export const RATING_RULES = {
  /**
   * A game with fewer plies than this is not rated: both sides have not really played (five
   * moves each). lichess stops rating games under 10 plies between accounts it finds related;
   * this site cannot tell related accounts apart, so the rule holds for every pair.
   */
  minPlies: 10,
  /** A game that starts this soon after the pair's previous game ended is a rematch (the server keeps an ended game this long for one). */
  rematchGapMs: ENDED_KEEP_MS,
  /** A rematch is rated only when the pool would have paired the two at once: ratings this close. */
  rematchWindow: POOL_WINDOW.initial,
  /** At most this many rated games between the same two accounts in `pairPeriodMs`. */
  pairRatedGames: 5,
  pairPeriodMs: 24 * 60 * 60_000,
} as const;

export type UnratedReason =
  | 'not_pool'
  | 'casual'
  | 'guest'
  | 'same_account'
  | 'aborted'
  | 'too_short'
  | 'rematch_outside_window'
  | 'pair_daily_limit';

/** What each reason means, for logs and docs. */
export const UNRATED_REASON_TEXT: Record<UnratedReason, string> = {
  not_pool: 'not a matchmaking game (AI or imported)',
  casual: 'a casual custom game',
  guest: 'a guest played',
  same_account: 'one account on both sides',
  aborted: 'aborted',
  too_short: `fewer than ${RATING_RULES.minPlies} plies`,
  rematch_outside_window: `a rematch between ratings more than ${RATING_RULES.rematchWindow} apart`,
  pair_daily_limit: `the pair's ${RATING_RULES.pairRatedGames} rated games in 24 hours were played`,
};

/** What the rules read of a finished game (the archive's FinishedGame has all of it). */
export interface RatingCandidate {
  /** the archive's kind of game: only `pool` (matchmaking) games are rated */
  kind: string;
  white: { accountId: string | null };
  black: { accountId: string | null };
  reason: GameEndReason;
  moves: readonly string[];
  /** a casual custom game (its players chose it unrated) */
  casual?: boolean;
}

/** Why the game alone is not rated (no history needed), or null when its pair must be looked at. */
export function unratedByItself(game: RatingCandidate): UnratedReason | null {
  const { white, black } = game;
  if (game.kind !== 'pool') return 'not_pool';
  if (game.casual) return 'casual';
  if (white.accountId === null || black.accountId === null) return 'guest';
  if (white.accountId === black.accountId) return 'same_account';
  if (game.reason === 'aborted') return 'aborted';
  if (game.moves.length < RATING_RULES.minPlies) return 'too_short';
  return null;
}

/** What the archive knows of the two accounts when the game ends, before it is rated. */
export interface PairHistory {
  /** when their latest earlier game (rated or not) ended; null if they never met */
  lastEndedAt: Date | null;
  /** their rated games that ended in the `pairPeriodMs` before this one ended */
  ratedInPeriod: number;
  /** both ratings now, before this game */
  ratings: { white: number; black: number };
}

/** Why a game between two accounts is not rated given their history, or null: it is rated. */
export function unratedByPair(game: { startedAt: Date }, pair: PairHistory): UnratedReason | null {
  if (pair.ratedInPeriod >= RATING_RULES.pairRatedGames) return 'pair_daily_limit';
  const rematch = pair.lastEndedAt !== null && game.startedAt.getTime() - pair.lastEndedAt.getTime() <= RATING_RULES.rematchGapMs;
  if (rematch && Math.abs(pair.ratings.white - pair.ratings.black) > RATING_RULES.rematchWindow) return 'rematch_outside_window';
  return null;
}

/**
 * A rating is provisional while its deviation is above this: lichess shows such ratings with a
 * question mark ("1500?") and leaves them off its leaderboards.
 */
export const PROVISIONAL_DEVIATION = 110;

export function isProvisional(deviation: number): boolean {
  return deviation > PROVISIONAL_DEVIATION;
}

/** Who is listed on the leaderboard (lichess's rules, plus the different opponents). */
export const LEADERBOARD_RULES = {
  /** an established rating */
  maxDeviation: PROVISIONAL_DEVIATION,
  /** rated games played (lichess: 30) */
  minGames: 30,
  /** different accounts met in rated games: a pair of accounts alone cannot make a leader */
  minOpponents: 10,
  /** a rated game ended this recently (lichess: a week), so that left accounts leave the list */
  activeWithinMs: 7 * 24 * 60 * 60_000,
} as const;
