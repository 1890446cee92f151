/**
 * The game archive: finished games and account ratings, one per speed, in the accounts database
 * (migrations 0004_game_archive.sql, 0007_ratings_per_speed.sql). Only the server writes here. A game is stored once: writing the same
 * game id again (both players' nodes reporting one end, a retry after a crash) changes nothing,
 * and a rated game's ratings are updated in the same transaction as its row, so exactly once.
 */
import type { ChatLine, GameEndReason, PlayerRating, RatingChange, Winner } from '../../machines/protocol/messages';
import { GLICKO2_DEFAULTS, rateGame, type Glicko2Rating } from '../../machines/rating';
import { SPEEDS, speedOf, timeControlOf, type Speed } from '../../machines/game/timeControl';
import type { Db, Queryable } from '../accounts/db';
import { LEADERBOARD_RULES, RATING_RULES, isProvisional, unratedByItself, unratedByPair, type PairHistory, type UnratedReason } from './ratingRules';

export interface ArchivedPlayer {
  /** the name shown in the game */
  name: string;
  /** the account's user id, for a signed-in player */
  accountId: string | null;
  /** the server-issued guest id, for a guest (never shown publicly) */
  guestId: string | null;
}

export type GameKind = 'pool' | 'ai' | 'imported';

/** What the server knows of a game when it ends. */
export interface FinishedGame {
  id: string;
  kind: GameKind;
  white: ArchivedPlayer;
  black: ArchivedPlayer;
  winner: Winner;
  reason: GameEndReason;
  /** each side's starting clock (0: the game had no clock) */
  clockMs: number;
  /** the Fischer increment per move (none when absent) */
  incrementMs?: number;
  startedAt: Date;
  endedAt: Date;
  /** the moves in UCI, in order */
  moves: readonly string[];
  /** the mover's clock in ms after each move (same length as moves) */
  clocksMs: readonly number[];
  pgn: string;
  /** a casual custom game: kept, never rated */
  casual?: boolean;
  /** the game's chat, both rooms, in order (kept with the record, never served) */
  chat?: readonly ChatLine[];
}

export type { RatingChange } from '../../machines/protocol/messages';

export interface ArchivedGame extends FinishedGame {
  incrementMs: number;
  /**
   * the speed of its time control, whose rating a rated game moved; null for a game without a
   * clock, or unrated and archived before speeds (its increment was not kept)
   */
  speed: Speed | null;
  rated: boolean;
  ratings: { white: RatingChange; black: RatingChange } | null;
}

/** The speed a finished game is rated in: its time control's; none without a clock. */
export function speedOfGame(game: Pick<FinishedGame, 'clockMs' | 'incrementMs'>): Speed | null {
  return game.clockMs > 0 ? speedOf(timeControlOf({ clockMs: game.clockMs, incrementMs: game.incrementMs ?? 0 })) : null;
}

export interface StoreResult {
  /** false when the game was already archived (nothing changed) */
  stored: boolean;
  /** the speed whose ratings the game moved (with `ratings`) */
  speed?: Speed;
  /** the game's rating changes: this write's, or, the game stored before, the earlier write's; null when it is not rated */
  ratings: ArchivedGame['ratings'];
  /** each player's rating in that speed after the game, as players see it (with `ratings` from this write only) */
  standing?: { white: PlayerRating; black: PlayerRating };
  /** why a game this call stored is not rated (ratingRules.ts); null (or absent) when it is rated or was stored before */
  unrated?: UnratedReason | null;
}

function whiteScore(winner: Winner): 0 | 0.5 | 1 {
  return winner === 'white' ? 1 : winner === 'black' ? 0 : 0.5;
}

function checkShape(game: FinishedGame): void {
  if (game.moves.length !== game.clocksMs.length) {
    throw new TypeError(`game ${game.id}: ${game.moves.length} moves but ${game.clocksMs.length} clock readings`);
  }
  if (game.endedAt.getTime() < game.startedAt.getTime()) throw new TypeError(`game ${game.id}: ends before it starts`);
}

/** Archives a finished game, and rates it when the rating rules say so; idempotent per game id. */
export async function archiveGame(db: Db, game: FinishedGame): Promise<StoreResult> {
  checkShape(game);
  const speed = speedOfGame(game);
  const byItself = unratedByItself(game);
  return db.transaction(async (tx) => {
    const inserted = await tx.query(
      `INSERT INTO games (id, kind, white_account, white_guest, white_name, black_account, black_guest, black_name,
                          winner, reason, rated, clock_ms, increment_ms, speed, started_at, ended_at, moves, clocks_ms, pgn, chat)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        game.id, game.kind,
        game.white.accountId, game.white.guestId, game.white.name,
        game.black.accountId, game.black.guestId, game.black.name,
        game.winner, game.reason, false, game.clockMs, game.incrementMs ?? 0, speed, game.startedAt, game.endedAt,
        game.moves.join(' '), [...game.clocksMs], game.pgn, JSON.stringify(game.chat ?? []),
      ],
    );
    if (inserted.length === 0) return storedBefore(tx, game.id);
    // a game without a clock has no speed to be rated in (only AI games are untimed)
    if (byItself || speed === null) return { stored: true, ratings: null, unrated: byItself ?? 'not_pool' };
    const players = await lockRatings(tx, game.white.accountId!, game.black.accountId!, speed);
    const byPair = unratedByPair(game, await pairHistory(tx, game, players));
    if (byPair) return { stored: true, ratings: null, unrated: byPair };
    const after = await rateStoredGame(tx, game, speed, players);
    const shown = (r: Glicko2Rating): PlayerRating => ({ rating: r.rating, provisional: isProvisional(r.deviation) });
    return {
      stored: true,
      speed,
      ratings: { white: { before: players.white.rating, after: after.white.rating }, black: { before: players.black.rating, after: after.black.rating } },
      standing: { white: shown(after.white), black: shown(after.black) },
      unrated: null,
    };
  });
}

/**
 * A game an earlier write stored: not stored again, and, when that write rated it, its rating
 * change as that write scored it (its players were told by that write).
 */
async function storedBefore(tx: Queryable, gameId: string): Promise<StoreResult> {
  const before = await getGame(tx, gameId);
  if (!before?.ratings || !before.speed) return { stored: false, ratings: null, unrated: null };
  return { stored: false, speed: before.speed, ratings: before.ratings, unrated: null };
}

interface RatingRow {
  user_id: string;
  rating: number;
  deviation: number;
  volatility: number;
}

type PairRatings = { white: Glicko2Rating; black: Glicko2Rating };

/**
 * Locks both players' ratings in the game's speed (in id order, so two games cannot deadlock),
 * creating the initial ones; every later read of the pair's games in the transaction is then one
 * game at a time.
 */
async function lockRatings(tx: Queryable, whiteId: string, blackId: string, speed: Speed): Promise<PairRatings> {
  const { rating, deviation, volatility } = GLICKO2_DEFAULTS.initial;
  await tx.query(
    `INSERT INTO ratings (user_id, speed, rating, deviation, volatility) VALUES ($1, $3, $4, $5, $6), ($2, $3, $4, $5, $6)
     ON CONFLICT (user_id, speed) DO NOTHING`,
    [whiteId, blackId, speed, rating, deviation, volatility],
  );
  const rows = await tx.query<RatingRow>(
    `SELECT user_id, rating, deviation, volatility FROM ratings WHERE user_id IN ($1, $2) AND speed = $3 ORDER BY user_id FOR UPDATE`,
    [whiteId, blackId, speed],
  );
  const current = (id: string): Glicko2Rating => {
    const row = rows.find((r) => r.user_id === id)!;
    return { rating: row.rating, deviation: row.deviation, volatility: row.volatility };
  };
  return { white: current(whiteId), black: current(blackId) };
}

/** The two accounts' earlier games, as the pair rules need them. */
async function pairHistory(tx: Queryable, game: FinishedGame, ratings: PairRatings): Promise<PairHistory> {
  const rows = await tx.query<{ last_ended: Date | string | null; rated_in_period: string | number }>(
    `SELECT max(ended_at) AS last_ended,
            count(*) FILTER (WHERE rated AND ended_at > $4) AS rated_in_period
     FROM games
     WHERE id <> $3 AND kind = 'pool' AND ended_at <= $5
       AND ((white_account = $1 AND black_account = $2) OR (white_account = $2 AND black_account = $1))`,
    [game.white.accountId, game.black.accountId, game.id, new Date(game.endedAt.getTime() - RATING_RULES.pairPeriodMs), game.endedAt],
  );
  const r = rows[0];
  return {
    lastEndedAt: r?.last_ended ? new Date(r.last_ended) : null,
    ratedInPeriod: Number(r?.rated_in_period ?? 0),
    ratings: { white: ratings.white.rating, black: ratings.black.rating },
  };
}

/** Rates a stored game from the locked ratings of its speed, writes the new ones and the game's figures back, and returns the new ones. */
async function rateStoredGame(tx: Queryable, game: FinishedGame, speed: Speed, before: PairRatings): Promise<PairRatings> {
  const whiteId = game.white.accountId!;
  const blackId = game.black.accountId!;
  const after = rateGame(before.white, before.black, whiteScore(game.winner));
  for (const [id, r] of [[whiteId, after.white], [blackId, after.black]] as const) {
    await tx.query(
      `UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = games + 1, updated_at = now() WHERE user_id = $1 AND speed = $2`,
      [id, speed, r.rating, r.deviation, r.volatility],
    );
  }
  await tx.query(
    `UPDATE games SET rated = true, white_rating_before = $2, white_rating_after = $3, black_rating_before = $4, black_rating_after = $5
     WHERE id = $1`,
    [game.id, before.white.rating, after.white.rating, before.black.rating, after.black.rating],
  );
  return after;
}

interface GameRow {
  id: string;
  kind: GameKind;
  white_account: string | null;
  white_guest: string | null;
  white_name: string;
  black_account: string | null;
  black_guest: string | null;
  black_name: string;
  winner: Winner;
  reason: GameEndReason;
  rated: boolean;
  clock_ms: number;
  increment_ms: number;
  speed: Speed | null;
  started_at: Date | string;
  ended_at: Date | string;
  moves: string;
  clocks_ms: number[];
  pgn: string;
  white_rating_before: number | null;
  white_rating_after: number | null;
  black_rating_before: number | null;
  black_rating_after: number | null;
}

function ratingsOf(row: GameRow): ArchivedGame['ratings'] {
  const { white_rating_before: wb, white_rating_after: wa, black_rating_before: bb, black_rating_after: ba } = row;
  if (wb === null || wa === null || bb === null || ba === null) return null;
  return { white: { before: wb, after: wa }, black: { before: bb, after: ba } };
}

function fromRow(row: GameRow): ArchivedGame {
  return {
    id: row.id,
    kind: row.kind,
    white: { name: row.white_name, accountId: row.white_account, guestId: row.white_guest },
    black: { name: row.black_name, accountId: row.black_account, guestId: row.black_guest },
    winner: row.winner,
    reason: row.reason,
    rated: row.rated,
    clockMs: row.clock_ms,
    incrementMs: row.increment_ms,
    speed: row.speed,
    startedAt: new Date(row.started_at),
    endedAt: new Date(row.ended_at),
    moves: row.moves ? row.moves.split(' ') : [],
    clocksMs: row.clocks_ms.map(Number),
    pgn: row.pgn,
    ratings: ratingsOf(row),
  };
}

export async function getGame(db: Queryable, id: string): Promise<ArchivedGame | null> {
  const rows = await db.query<GameRow>('SELECT * FROM games WHERE id = $1', [id]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** An account's games, newest first; `before` pages back by end time. */
export async function accountGames(
  db: Queryable,
  accountId: string,
  opts: { limit?: number; before?: Date } = {},
): Promise<ArchivedGame[]> {
  const limit = Math.min(Math.max(opts.limit ?? 20, 1), 100);
  const before = opts.before ?? new Date('9999-12-31T00:00:00Z');
  const rows = await db.query<GameRow>(
    `(SELECT * FROM games WHERE white_account = $1 AND ended_at < $2 ORDER BY ended_at DESC LIMIT $3)
     UNION ALL
     (SELECT * FROM games WHERE black_account = $1 AND ended_at < $2 ORDER BY ended_at DESC LIMIT $3)
     ORDER BY ended_at DESC LIMIT $3`,
    [accountId, before, limit],
  );
  return rows.map(fromRow);
}

export interface AccountRecord {
  games: number;
  wins: number;
  losses: number;
  draws: number;
  /** aborted games are counted apart and in none of wins, losses and draws */
  aborted: number;
}

export async function accountRecord(db: Queryable, accountId: string): Promise<AccountRecord> {
  const rows = await db.query<{ games: string | number; wins: string | number; losses: string | number; draws: string | number; aborted: string | number }>(
    `SELECT count(*) AS games,
            count(*) FILTER (WHERE reason <> 'aborted' AND winner = side) AS wins,
            count(*) FILTER (WHERE reason <> 'aborted' AND winner <> side AND winner <> 'draw') AS losses,
            count(*) FILTER (WHERE reason <> 'aborted' AND winner = 'draw') AS draws,
            count(*) FILTER (WHERE reason = 'aborted') AS aborted
     FROM (SELECT winner, reason, 'white' AS side FROM games WHERE white_account = $1
           UNION ALL
           SELECT winner, reason, 'black' AS side FROM games WHERE black_account = $1) AS mine`,
    [accountId],
  );
  const r = rows[0]!;
  return { games: Number(r.games), wins: Number(r.wins), losses: Number(r.losses), draws: Number(r.draws), aborted: Number(r.aborted) };
}

export interface RatingPoint {
  at: Date;
  rating: number;
}

/**
 * The account's rating history in one speed for the profile's chart, oldest first: the rating it
 * started its first rated game of that speed with, then the rating after each one.
 */
export async function ratingHistory(db: Queryable, accountId: string, speed: Speed): Promise<RatingPoint[]> {
  const rows = await db.query<{ at: Date | string; before: number; rating: number }>(
    `SELECT ended_at AS at, white_rating_before AS before, white_rating_after AS rating FROM games WHERE white_account = $1 AND rated AND speed = $2
     UNION ALL
     SELECT ended_at AS at, black_rating_before AS before, black_rating_after AS rating FROM games WHERE black_account = $1 AND rated AND speed = $2
     ORDER BY at`,
    [accountId, speed],
  );
  if (rows.length === 0) return [];
  const first = rows[0]!;
  const start = { at: new Date(new Date(first.at).getTime() - 1), rating: first.before };
  return [start, ...rows.map((r) => ({ at: new Date(r.at), rating: r.rating }))];
}

export interface SpeedRating extends Glicko2Rating {
  speed: Speed;
  /** rated games played in this speed */
  games: number;
}

/** The account's ratings in the speeds it has played rated games in, fastest speed first. */
export async function currentRatings(db: Queryable, accountId: string): Promise<SpeedRating[]> {
  const rows = await db.query<RatingRow & { speed: Speed; games: number }>(
    'SELECT user_id, speed, rating, deviation, volatility, games FROM ratings WHERE user_id = $1 AND games > 0',
    [accountId],
  );
  return rows
    .map((r) => ({ speed: r.speed, rating: r.rating, deviation: r.deviation, volatility: r.volatility, games: r.games }))
    .sort((a, b) => SPEEDS.indexOf(a.speed) - SPEEDS.indexOf(b.speed));
}

/** The account's rating in one speed; null before its first rated game of that speed. */
export async function currentRating(db: Queryable, accountId: string, speed: Speed): Promise<SpeedRating | null> {
  const rows = await db.query<RatingRow & { games: number }>(
    'SELECT user_id, rating, deviation, volatility, games FROM ratings WHERE user_id = $1 AND speed = $2',
    [accountId, speed],
  );
  const r = rows[0];
  return r ? { speed, rating: r.rating, deviation: r.deviation, volatility: r.volatility, games: r.games } : null;
}

/** An account's rating in a speed as players see it; the initial rating before its first rated game of that speed. */
export async function playerRating(db: Queryable, accountId: string, speed: Speed): Promise<PlayerRating> {
  const r = (await currentRating(db, accountId, speed)) ?? GLICKO2_DEFAULTS.initial;
  return { rating: r.rating, provisional: isProvisional(r.deviation) };
}

export interface LeaderboardEntry {
  userId: string;
  username: string;
  rating: number;
  deviation: number;
  games: number;
}

/**
 * The top ratings in one speed of accounts with a username that meet LEADERBOARD_RULES in that
 * speed at `now`: established (not provisional), enough rated games against enough different
 * opponents, one of them lately.
 */
export async function leaderboard(db: Queryable, speed: Speed, opts: { limit?: number; now?: Date } = {}): Promise<LeaderboardEntry[]> {
  const { maxDeviation, minGames, minOpponents, activeWithinMs } = LEADERBOARD_RULES;
  const now = opts.now ?? new Date();
  const rows = await db.query<{ user_id: string; username: string; rating: number; deviation: number; games: number }>(
    `WITH candidates AS (
       SELECT r.user_id, p.username, r.rating, r.deviation, r.games
       FROM ratings r JOIN profiles p ON p.id = r.user_id
       WHERE r.speed = $6 AND r.deviation <= $1 AND r.games >= $2 AND p.username IS NOT NULL
     ), sides AS (
       SELECT c.user_id, g.black_account AS opponent, g.ended_at FROM candidates c JOIN games g ON g.white_account = c.user_id WHERE g.rated AND g.speed = $6
       UNION ALL
       SELECT c.user_id, g.white_account AS opponent, g.ended_at FROM candidates c JOIN games g ON g.black_account = c.user_id WHERE g.rated AND g.speed = $6
     )
     SELECT c.user_id, c.username, c.rating, c.deviation, c.games
     FROM candidates c JOIN sides s ON s.user_id = c.user_id
     GROUP BY c.user_id, c.username, c.rating, c.deviation, c.games
     HAVING count(DISTINCT s.opponent) >= $3 AND max(s.ended_at) > $4
     ORDER BY c.rating DESC LIMIT $5`,
    [maxDeviation, minGames, minOpponents, new Date(now.getTime() - activeWithinMs), Math.min(Math.max(opts.limit ?? 50, 1), 200), speed],
  );
  return rows.map((r) => ({ userId: r.user_id, username: r.username, rating: r.rating, deviation: r.deviation, games: r.games }));
}

/** Usernames of accounts by id (accounts without a username are left out). */
export async function usernamesOf(db: Queryable, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.query<{ id: string; username: string }>(
    'SELECT id, username FROM profiles WHERE id = ANY($1::uuid[]) AND username IS NOT NULL',
    [[...new Set(accountIds)]],
  );
  return new Map(rows.map((r) => [r.id, r.username]));
}

/** The account id of a username, matched without regard to case; null when there is none. */
export async function accountByUsername(db: Queryable, username: string): Promise<{ id: string; username: string } | null> {
  const rows = await db.query<{ id: string; username: string }>(
    'SELECT id, username FROM profiles WHERE lower(username) = lower($1) LIMIT 1',
    [username],
  );
  return rows[0] ?? null;
}

/**
 * Gives an account the archived games it played as a guest (the guest's side of each game gets
 * the account), leaving them unrated. The caller has proved the guest identity; games against
 * the account itself are left alone. Returns how many games were claimed.
 */
export async function claimGuestGames(db: Db, guestId: string, accountId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const white = await tx.query(
      `UPDATE games SET white_account = $2 WHERE white_guest = $1 AND white_account IS NULL AND black_account IS DISTINCT FROM $2 RETURNING id`,
      [guestId, accountId],
    );
    const black = await tx.query(
      `UPDATE games SET black_account = $2 WHERE black_guest = $1 AND black_account IS NULL AND white_account IS DISTINCT FROM $2 RETURNING id`,
      [guestId, accountId],
    );
    return white.length + black.length;
  });
}
