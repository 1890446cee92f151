/**
 * Migration 0007 (ratings per speed) on a database that holds today's single ratings and rated
 * games: each account's rating, deviation, volatility, game count and history become its Rapid
 * ones, unchanged; nothing is carried into another speed; running it again changes nothing; and
 * the next games are rated per speed, a rapid one from the carried rating.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { migrate, readMigrations } from '../../server/accounts/migrate';
import { archiveGame, currentRating, currentRatings, getGame, ratingHistory, type FinishedGame } from '../../server/archive/store';
import { createArchiveHandler } from '../../server/archive/http';
import { profileSchema } from '../../machines/protocol/archive';
import { BACKENDS, openTestDb, type TestDb } from './archiveDb';
import { TEN_PLIES, TEN_PLIES_PGN } from './ratedMoves';

const MIGRATION = '0007';

/** A game row as the archive wrote it before speeds (no increment, no speed). */
async function oldGame(t: TestDb, row: { white: string | null; black: string | null; clockMs: number; endedAt: string; ratings?: [number, number, number, number] }): Promise<string> {
  const id = `game_old${randomUUID().slice(0, 8)}`;
  const [wb, wa, bb, ba] = row.ratings ?? [null, null, null, null];
  await t.db.query(
    `INSERT INTO games (id, kind, white_account, white_guest, white_name, black_account, black_guest, black_name, winner, reason, rated, clock_ms,
                        started_at, ended_at, moves, clocks_ms, pgn, white_rating_before, white_rating_after, black_rating_before, black_rating_after)
     VALUES ($1, 'pool', $2, $3, 'w', $4, $5, 'b', 'white', 'checkmate', $6, $7, $8, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [id, row.white, row.white ? null : 'guest_a', row.black, row.black ? null : 'guest_b', row.ratings !== undefined, row.clockMs, row.endedAt,
      TEN_PLIES.join(' '), TEN_PLIES.map(() => 1000), TEN_PLIES_PGN, wb, wa, bb, ba],
  );
  return id;
}

describe.each(BACKENDS)('ratings per speed migration on %s', (backend) => {
  let t: TestDb | undefined;
  afterEach(async () => t?.destroy());

  it("carries every account's rating, games and history into Rapid, once", async () => {
    t = await openTestDb(backend, { before: MIGRATION });
    const alice = await t.addAccount('alice');
    const bob = await t.addAccount('bob');
    // today's schema: one rating per account, and the rated games it came from (a 10+0 and a 3+0 pool game)
    await t.db.query(
      `INSERT INTO ratings (user_id, rating, deviation, volatility, games) VALUES ($1, 1662.3, 290.3, 0.0599, 2), ($2, 1337.7, 290.3, 0.0601, 2)`,
      [alice, bob],
    );
    const first = await oldGame(t, { white: alice, black: bob, clockMs: 600_000, endedAt: '2026-11-01T12:00:00Z', ratings: [1500, 1600, 1500, 1400] });
    const second = await oldGame(t, { white: bob, black: alice, clockMs: 180_000, endedAt: '2026-11-02T12:00:00Z', ratings: [1400, 1337.7, 1600, 1662.3] });
    const guestGame = await oldGame(t, { white: alice, black: null, clockMs: 60_000, endedAt: '2026-11-03T12:00:00Z' });

    // this migration and the ones after it
    expect(await migrate(t.db)).toEqual(readMigrations().map((m) => m.version).filter((v) => v >= MIGRATION));

    expect(await currentRatings(t.db, alice)).toEqual([{ speed: 'rapid', rating: 1662.3, deviation: 290.3, volatility: 0.0599, games: 2 }]);
    expect(await currentRating(t.db, bob, 'rapid')).toEqual({ speed: 'rapid', rating: 1337.7, deviation: 290.3, volatility: 0.0601, games: 2 });
    expect(await currentRating(t.db, alice, 'blitz')).toBeNull();
    expect((await ratingHistory(t.db, alice, 'rapid')).map((p) => p.rating)).toEqual([1500, 1600, 1662.3]);
    expect(await ratingHistory(t.db, alice, 'blitz')).toEqual([]);
    // every game rated so far counts toward Rapid (the 3+0 one too: it moved the one rating there was)
    expect(await getGame(t.db, first)).toMatchObject({ speed: 'rapid', incrementMs: 0, rated: true });
    expect(await getGame(t.db, second)).toMatchObject({ speed: 'rapid', rated: true });
    expect(await getGame(t.db, guestGame)).toMatchObject({ speed: null, rated: false });

    // the profile shows one rating, Rapid, with the old history
    const handler = createArchiveHandler(t.db, async () => null);
    const reply = await handler({ method: 'GET', path: '/api/players/alice', query: new URLSearchParams(), headers: {}, ip: '127.0.0.1', peer: '127.0.0.1', body: Buffer.alloc(0) });
    const profile = profileSchema.parse(JSON.parse(String(reply.body)));
    expect(profile.ratings.map((r) => [r.speed, r.rating, r.games, r.history.length])).toEqual([['rapid', 1662.3, 2, 3]]);

    // once: the migrator skips it, and its SQL run again by hand changes nothing
    const snapshot = async () => [
      await t!.db.query('SELECT user_id, speed, rating, deviation, volatility, games FROM ratings ORDER BY user_id, speed'),
      await t!.db.query('SELECT id, speed, increment_ms, rated FROM games ORDER BY id'),
    ];
    const before = await snapshot();
    expect(await migrate(t.db)).toEqual([]);
    await t.db.exec(readMigrations().find((m) => m.version === MIGRATION)!.sql);
    expect(await snapshot()).toEqual(before);

    // the next games: a 3+2 is rated in Blitz from 1500, a 10+0 in Rapid from the carried rating
    const next = (id: string, clockMs: number, incrementMs: number, endedAt: string): FinishedGame => ({
      id, kind: 'pool', white: { name: 'alice', accountId: alice, guestId: null }, black: { name: 'bob', accountId: bob, guestId: null },
      winner: 'black', reason: 'resignation', clockMs, incrementMs, startedAt: new Date(Date.parse(endedAt) - 60_000), endedAt: new Date(endedAt),
      moves: TEN_PLIES, clocksMs: TEN_PLIES.map(() => 1000), pgn: TEN_PLIES_PGN,
    });
    const blitz = await archiveGame(t.db, next('game_newblitz1', 180_000, 2_000, '2026-11-10T12:00:00Z'));
    expect(blitz).toMatchObject({ speed: 'blitz', ratings: { white: { before: 1500 }, black: { before: 1500 } } });
    expect(await currentRating(t.db, alice, 'rapid')).toMatchObject({ rating: 1662.3, games: 2 });
    const rapid = await archiveGame(t.db, next('game_newrapid1', 600_000, 0, '2026-11-11T12:00:00Z'));
    expect(rapid).toMatchObject({ speed: 'rapid', ratings: { white: { before: 1662.3 }, black: { before: 1337.7 } } });
    expect((await currentRatings(t.db, alice)).map((r) => [r.speed, r.games])).toEqual([['blitz', 1], ['rapid', 3]]);
  }, 120_000);
});
