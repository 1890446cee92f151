/** The rating rules as pure functions: which games are rated, and the reason for each one that is not. */
import { describe, expect, it } from 'vitest';
import { RATING_RULES, unratedByItself, unratedByPair, type PairHistory, type RatingCandidate } from '../../server/archive/ratingRules';

const alice = { name: 'alice', accountId: 'a', guestId: null };
const bob = { name: 'bob', accountId: 'b', guestId: null };
const guest = { name: 'Guest', accountId: null, guestId: 'g' };
const plies = (n: number) => Array.from({ length: n }, () => 'e2e4');
const game = (extra: Partial<RatingCandidate> = {}): RatingCandidate => ({
  kind: 'pool', white: alice, black: bob, reason: 'resignation', moves: plies(RATING_RULES.minPlies), ...extra,
});

describe('rating rules', () => {
  it('a game alone: pool games between two different accounts that both really played', () => {
    expect(unratedByItself(game())).toBeNull();
    expect(unratedByItself(game({ kind: 'ai' }))).toBe('not_pool');
    expect(unratedByItself(game({ kind: 'imported' }))).toBe('not_pool');
    expect(unratedByItself(game({ black: guest }))).toBe('guest');
    expect(unratedByItself(game({ black: alice }))).toBe('same_account');
    expect(unratedByItself(game({ reason: 'aborted' }))).toBe('aborted');
    expect(unratedByItself(game({ moves: plies(2) }))).toBe('too_short');
    expect(unratedByItself(game({ moves: plies(RATING_RULES.minPlies - 1), reason: 'checkmate' }))).toBe('too_short');
  });

  it('a pair: a rematch only within the pool\'s first window, and a daily limit', () => {
    const startedAt = new Date(Date.UTC(2026, 0, 1, 12));
    const pair = (extra: Partial<PairHistory>): PairHistory => ({ lastEndedAt: null, ratedInPeriod: 0, ratings: { white: 1500, black: 1500 }, ...extra });
    const justBefore = new Date(startedAt.getTime() - RATING_RULES.rematchGapMs);
    const longBefore = new Date(startedAt.getTime() - RATING_RULES.rematchGapMs - 1);
    const far = { white: 1662, black: 1338 };
    expect(unratedByPair({ startedAt }, pair({}))).toBeNull();
    expect(unratedByPair({ startedAt }, pair({ ratings: far }))).toBeNull();
    expect(unratedByPair({ startedAt }, pair({ lastEndedAt: justBefore, ratings: far }))).toBe('rematch_outside_window');
    expect(unratedByPair({ startedAt }, pair({ lastEndedAt: longBefore, ratings: far }))).toBeNull();
    expect(unratedByPair({ startedAt }, pair({ lastEndedAt: justBefore, ratings: { white: 1600, black: 1500 } }))).toBeNull();
    expect(unratedByPair({ startedAt }, pair({ ratedInPeriod: RATING_RULES.pairRatedGames - 1 }))).toBeNull();
    expect(unratedByPair({ startedAt }, pair({ ratedInPeriod: RATING_RULES.pairRatedGames }))).toBe('pair_daily_limit');
  });
});
