import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLICKO2_DEFAULTS, rateGame } from '../../machines/rating';
import type { GameEndReason, Winner } from '../../machines/protocol/messages';
import {
  accountGames,
  accountRecord,
  archiveGame,
  currentRating,
  currentRatings,
  getGame,
  leaderboard,
  ratingHistory,
  type ArchivedPlayer,
  type FinishedGame,
} from '../../server/archive/store';
import { BACKENDS, openTestDb, type TestDb } from './archiveDb';
import { TEN_PLIES, TEN_PLIES_PGN } from './ratedMoves';

const MOVES = TEN_PLIES;
const CLOCKS = MOVES.map((_, i) => 600_000 - 1_000 * i);
const PGN = `${TEN_PLIES_PGN} *`;

/** The test's games start 10 minutes apart: one pair's games are never rematches of each other. */
const GAME_SPACING_MS = 10 * 60_000;
const FIRST_START = Date.UTC(2026, 10, 1, 12);
let serial = 0;
function game(white: ArchivedPlayer, black: ArchivedPlayer, winner: Winner, reason: GameEndReason, extra: Partial<FinishedGame> = {}): FinishedGame {
  serial += 1;
  const startedAt = new Date(FIRST_START + serial * GAME_SPACING_MS);
  return {
    id: `game_test${String(serial).padStart(6, '0')}`,
    kind: 'pool',
    white,
    black,
    winner,
    reason,
    clockMs: 600_000,
    startedAt,
    endedAt: new Date(startedAt.getTime() + 60_000),
    moves: MOVES,
    clocksMs: CLOCKS,
    pgn: PGN,
    ...extra,
  };
}

const account = (accountId: string, name: string): ArchivedPlayer => ({ name, accountId, guestId: null });
const guest = (guestId: string, name: string): ArchivedPlayer => ({ name, accountId: null, guestId });

describe.each(BACKENDS)('game archive on %s', (backend) => {
  let t: TestDb;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await openTestDb(backend);
    alice = await t.addAccount('alice');
    bob = await t.addAccount('bob');
  });
  afterAll(async () => t?.destroy());

  it('stores a game with its moves, clocks and PGN, and reads it back', async () => {
    const g = game(guest('g1', 'Guest One'), account(alice, 'alice'), 'black', 'checkmate');
    expect(await archiveGame(t.db, g)).toEqual({ stored: true, ratings: null, unrated: 'guest' });
    const back = await getGame(t.db, g.id);
    expect(back).toMatchObject({ ...g, rated: false, ratings: null });
    expect(await getGame(t.db, 'game_nosuchgame')).toBeNull();
  });

  it("keeps a game's chat with its record, and reads it back to nobody", async () => {
    const chat = [
      { room: 'player' as const, name: 'alice', color: 'white' as const, text: 'good luck' },
      { room: 'spectator' as const, name: 'Zed', guest: true, text: '<b>hi</b>' },
    ];
    const g = game(account(alice, 'alice'), guest('player_chatguest01', 'Zed'), 'white', 'resignation', { chat });
    await archiveGame(t.db, g);
    expect((await t.db.query<{ chat: unknown }>('SELECT chat FROM games WHERE id = $1', [g.id]))[0].chat).toEqual(chat);
    expect(await getGame(t.db, g.id)).not.toHaveProperty('chat');
  });

  it('stores every end reason', async () => {
    const reasons: GameEndReason[] = [
      'checkmate', 'timeout', 'resignation', 'agreement', 'stalemate', 'threefold repetition',
      'insufficient material', 'disconnection', 'technical_draw', 'fifty-move rule',
      'fivefold repetition', 'aborted', 'max plies',
    ];
    for (const reason of reasons) {
      const g = game(guest('g2', 'A'), guest('g3', 'B'), 'draw', reason);
      expect((await archiveGame(t.db, g)).stored).toBe(true);
      expect((await getGame(t.db, g.id))?.reason).toBe(reason);
    }
  });

  it('rates a game between two accounts once, even when its end is reported twice', async () => {
    const g = game(account(alice, 'alice'), account(bob, 'bob'), 'white', 'resignation');
    const [first, second] = await Promise.all([archiveGame(t.db, g), archiveGame(t.db, g)]);
    const stored = [first, second].filter((r) => r.stored);
    expect(stored).toHaveLength(1);
    const { initial } = GLICKO2_DEFAULTS;
    const expected = rateGame(initial, initial, 1);
    expect(stored[0]!.speed).toBe('rapid');
    expect(stored[0]!.ratings).toEqual({
      white: { before: 1500, after: expected.white.rating },
      black: { before: 1500, after: expected.black.rating },
    });
    // the other report stored nothing, and says how the game was rated (its players' standing is the scoring write's to tell)
    const reported = first.stored ? second : first;
    expect(reported).toEqual({ stored: false, speed: 'rapid', ratings: stored[0]!.ratings, unrated: null });
    expect(await currentRating(t.db, alice, 'rapid')).toMatchObject({ rating: expected.white.rating, games: 1 });
    expect(await currentRating(t.db, bob, 'rapid')).toMatchObject({ rating: expected.black.rating, games: 1 });
    expect((await getGame(t.db, g.id))?.rated).toBe(true);
  });

  it('never rates aborted, AI, guest, imported or self games', async () => {
    const before = await currentRating(t.db, alice, 'rapid');
    const unrated = [
      game(account(alice, 'alice'), account(bob, 'bob'), 'draw', 'aborted'),
      game(account(alice, 'alice'), account(bob, 'bob'), 'white', 'checkmate', { kind: 'ai' }),
      game(account(alice, 'alice'), account(bob, 'bob'), 'white', 'checkmate', { kind: 'imported' }),
      game(account(alice, 'alice'), guest('g9', 'Guest'), 'white', 'checkmate'),
      game(account(alice, 'alice'), account(alice, 'alice'), 'white', 'checkmate'),
    ];
    for (const g of unrated) expect((await archiveGame(t.db, g)).ratings).toBeNull();
    expect(await currentRating(t.db, alice, 'rapid')).toEqual(before);
  });

  it("gives an account's record without aborted games, its games newest first and its rating history", async () => {
    const carol = await t.addAccount('carol');
    const dave = await t.addAccount('dave');
    const played = [
      game(account(carol, 'carol'), account(dave, 'dave'), 'white', 'checkmate'),
      game(account(dave, 'dave'), account(carol, 'carol'), 'white', 'timeout'),
      game(account(carol, 'carol'), account(dave, 'dave'), 'draw', 'agreement'),
      game(account(carol, 'carol'), account(dave, 'dave'), 'draw', 'aborted'),
    ];
    for (const g of played) await archiveGame(t.db, g);
    expect(await accountRecord(t.db, carol)).toEqual({ games: 4, wins: 1, losses: 1, draws: 1, aborted: 1 });
    const recent = await accountGames(t.db, carol, { limit: 3 });
    expect(recent.map((g) => g.id)).toEqual(played.slice(1).reverse().map((g) => g.id));
    const older = await accountGames(t.db, carol, { before: recent[2]!.endedAt });
    expect(older.map((g) => g.id)).toEqual([played[0]!.id]);
    const history = await ratingHistory(t.db, carol, 'rapid');
    expect(history).toHaveLength(4);
    expect(history[0]!.rating).toBe(1500);
    expect(history[3]!.rating).toBe((await currentRating(t.db, carol, 'rapid'))!.rating);
  });

  it('rates each game in its own speed: a 3+2 game moves Blitz only, with its own history, and is stored as blitz', async () => {
    const erin = await t.addAccount('erin');
    const fred = await t.addAccount('fred');
    const rapid = game(account(erin, 'erin'), account(fred, 'fred'), 'white', 'checkmate');
    expect(await archiveGame(t.db, rapid)).toMatchObject({ speed: 'rapid' });
    const rapidAfter = await currentRating(t.db, erin, 'rapid');
    const blitz = game(account(fred, 'fred'), account(erin, 'erin'), 'white', 'checkmate', { clockMs: 180_000, incrementMs: 2_000 });
    const r = await archiveGame(t.db, blitz);
    // both start Blitz at 1500, whatever their Rapid ratings
    expect(r).toMatchObject({ speed: 'blitz', ratings: { white: { before: 1500 }, black: { before: 1500 } } });
    expect(await currentRating(t.db, erin, 'rapid')).toEqual(rapidAfter);
    expect(await currentRating(t.db, erin, 'blitz')).toMatchObject({ rating: r.ratings!.black.after, games: 1 });
    expect(await currentRating(t.db, erin, 'bullet')).toBeNull();
    expect((await currentRatings(t.db, erin)).map((x) => [x.speed, x.games])).toEqual([['blitz', 1], ['rapid', 1]]);
    expect((await ratingHistory(t.db, erin, 'blitz')).map((p) => p.rating)).toEqual([1500, r.ratings!.black.after]);
    expect((await ratingHistory(t.db, erin, 'rapid')).map((p) => p.rating)).toEqual([1500, rapidAfter!.rating]);
    expect(await getGame(t.db, blitz.id)).toMatchObject({ speed: 'blitz', incrementMs: 2_000, clockMs: 180_000 });
  });

  it('keeps the speed of unrated timed games and none for untimed ones', async () => {
    const timed = game(guest('g6', 'A'), guest('g7', 'B'), 'white', 'checkmate', { clockMs: 60_000 });
    const untimed = game(account(alice, 'alice'), guest('g8', 'B'), 'white', 'checkmate', { kind: 'ai', clockMs: 0 });
    await archiveGame(t.db, timed);
    await archiveGame(t.db, untimed);
    expect(await getGame(t.db, timed.id)).toMatchObject({ speed: 'bullet', rated: false, incrementMs: 0 });
    expect(await getGame(t.db, untimed.id)).toMatchObject({ speed: null, rated: false });
  });

  it('refuses a game whose clocks do not match its moves, and stores nothing', async () => {
    const g = game(guest('g4', 'A'), guest('g5', 'B'), 'white', 'checkmate', { clocksMs: [1] });
    await expect(archiveGame(t.db, g)).rejects.toThrow(/10 moves but 1 clock/);
    expect(await getGame(t.db, g.id)).toBeNull();
  });

  it('lists established ratings with 30 rated games against 10 opponents, active in the last week, highest first', async () => {
    // eleven players meet each other three times (each pair once every 55 games, 9 hours apart)
    const players: ArchivedPlayer[] = [];
    for (let i = 0; i < 11; i++) players.push(account(await t.addAccount(`league_${i}`), `league_${i}`));
    const pairs = players.flatMap((a, i) => players.slice(i + 1).map((b, k) => [a, b, i + k] as const));
    const results: Winner[] = ['white', 'black', 'draw'];
    let last = new Date(0);
    for (let round = 0; round < 3; round++) {
      for (const [a, b, n] of pairs) {
        const g = game(round % 2 ? b : a, round % 2 ? a : b, results[(n + round) % 3]!, 'checkmate');
        expect((await archiveGame(t.db, g)).ratings).not.toBeNull();
        last = g.endedAt;
      }
      // after two rounds each has 20 rated games: not yet enough
      if (round === 1) expect(await leaderboard(t.db, 'rapid', { now: last })).toEqual([]);
    }
    const board = await leaderboard(t.db, 'rapid', { now: last });
    // a leaderboard per speed: these were all rapid games
    expect(await leaderboard(t.db, 'blitz', { now: last })).toEqual([]);
    const ratings = await Promise.all(players.map(async (p) => ({ name: p.name, ...(await currentRating(t.db, p.accountId!, 'rapid'))! })));
    expect(ratings.every((r) => r.deviation <= 110 && r.games === 30)).toBe(true);
    expect(board.map((e) => e.username)).toEqual(ratings.sort((x, y) => y.rating - x.rating).map((r) => r.name));
    // a week without a rated game takes everyone off
    expect(await leaderboard(t.db, 'rapid', { now: new Date(last.getTime() + 7 * 24 * 3_600_000 + 1) })).toEqual([]);
  });

  it('a two-account farm: 2-ply games are never rated, rematches only within the window, five rated games a day, and no leaderboard place', async () => {
    const farmer = account(await t.addAccount('farmer'), 'farmer');
    const feeder = account(await t.addAccount('feeder'), 'feeder');
    const start = Date.UTC(2026, 11, 1, 12);
    const at = (ms: number, extra: Partial<FinishedGame> = {}) => ({ startedAt: new Date(ms), endedAt: new Date(ms + 8_000), ...extra });
    // the reported attack: a chain of rematches resigned after two plies, one every 8 s
    const twoPlies = { moves: MOVES.slice(0, 2), clocksMs: CLOCKS.slice(0, 2) };
    for (let i = 0; i < 30; i++) {
      const r = await archiveGame(t.db, game(feeder, farmer, 'black', 'resignation', at(start + i * 8_000, twoPlies)));
      expect(r).toMatchObject({ ratings: null, unrated: 'too_short' });
    }
    expect(await currentRating(t.db, farmer.accountId!, 'rapid')).toBeNull();
    // ten plies each: the first is rated, the rematches after it are not (the ratings are far apart now)
    const chain = [];
    for (let i = 0; i < 5; i++) chain.push(await archiveGame(t.db, game(feeder, farmer, 'black', 'resignation', at(start + 3_600_000 + i * 10_000))));
    expect(chain.map((r) => r.unrated)).toEqual([null, 'rematch_outside_window', 'rematch_outside_window', 'rematch_outside_window', 'rematch_outside_window']);
    // draws keep the ratings close, so those rematches are rated, but only five games of the pair a day
    const draws = [];
    const other = account(await t.addAccount('drawer'), 'drawer');
    const partner = account(await t.addAccount('partner'), 'partner');
    for (let i = 0; i < 7; i++) draws.push(await archiveGame(t.db, game(other, partner, 'draw', 'agreement', at(start + i * 10_000))));
    expect(draws.map((r) => r.unrated)).toEqual([null, null, null, null, null, 'pair_daily_limit', 'pair_daily_limit']);
    // a day after the first of them, one more is rated
    const nextDay = await archiveGame(t.db, game(other, partner, 'draw', 'agreement', at(start + 24 * 3_600_000 + 1)));
    expect(nextDay.unrated).toBeNull();
    expect((await currentRating(t.db, other.accountId!, 'rapid'))!.games).toBe(6);
  });

  it('the reported leaderboard farm (45 draws, then 150 wins against one account) never reaches the leaderboard', async () => {
    const farmer = account(await t.addAccount('lb_farmer'), 'lb_farmer');
    const feeder = account(await t.addAccount('lb_feeder'), 'lb_feeder');
    // five hours apart: neither rematches nor over the daily limit, so every game is rated
    const start = Date.UTC(2027, 0, 1);
    let last = new Date(0);
    for (let i = 0; i < 195; i++) {
      const g = game(farmer, feeder, i < 45 ? 'draw' : 'white', i < 45 ? 'agreement' : 'resignation', {
        startedAt: new Date(start + i * 5 * 3_600_000),
        endedAt: last = new Date(start + i * 5 * 3_600_000 + 60_000),
      });
      expect((await archiveGame(t.db, g)).unrated).toBeNull();
    }
    const rating = (await currentRating(t.db, farmer.accountId!, 'rapid'))!;
    expect(rating.deviation).toBeLessThanOrEqual(110);
    expect(rating.rating).toBeGreaterThan(1800);
    expect((await leaderboard(t.db, 'rapid', { now: last })).map((e) => e.username)).not.toContain('lb_farmer');
  });
});
