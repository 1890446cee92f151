import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLICKO2_DEFAULTS, rateGame } from '../../machines/rating';
import type { GameEndReason, Winner } from '../../machines/protocol/messages';
import {
  accountGames,
  accountRecord,
  archiveGame,
  currentRating,
  getGame,
  leaderboard,
  ratingHistory,
  type ArchivedPlayer,
  type FinishedGame,
} from '../../server/archive/store';
import { BACKENDS, openTestDb, type TestDb } from './archiveDb';

let serial = 0;
function game(white: ArchivedPlayer, black: ArchivedPlayer, winner: Winner, reason: GameEndReason, extra: Partial<FinishedGame> = {}): FinishedGame {
  serial += 1;
  const startedAt = new Date(Date.UTC(2026, 10, 1, 12, serial));
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
    moves: ['e2e4', 'e7e5', 'g1f3'],
    clocksMs: [600_000, 600_000, 598_500],
    pgn: '1. e4 e5 2. Nf3 *',
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
    expect(await archiveGame(t.db, g)).toEqual({ stored: true, ratings: null });
    const back = await getGame(t.db, g.id);
    expect(back).toMatchObject({ ...g, rated: false, ratings: null });
    expect(await getGame(t.db, 'game_nosuchgame')).toBeNull();
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
    expect(stored[0]!.ratings).toEqual({
      white: { before: 1500, after: expected.white.rating },
      black: { before: 1500, after: expected.black.rating },
    });
    expect(await currentRating(t.db, alice)).toMatchObject({ rating: expected.white.rating, games: 1 });
    expect(await currentRating(t.db, bob)).toMatchObject({ rating: expected.black.rating, games: 1 });
    expect((await getGame(t.db, g.id))?.rated).toBe(true);
  });

  it('never rates aborted, AI, guest, imported or self games', async () => {
    const before = await currentRating(t.db, alice);
    const unrated = [
      game(account(alice, 'alice'), account(bob, 'bob'), 'draw', 'aborted'),
      game(account(alice, 'alice'), account(bob, 'bob'), 'white', 'checkmate', { kind: 'ai' }),
      game(account(alice, 'alice'), account(bob, 'bob'), 'white', 'checkmate', { kind: 'imported' }),
      game(account(alice, 'alice'), guest('g9', 'Guest'), 'white', 'checkmate'),
      game(account(alice, 'alice'), account(alice, 'alice'), 'white', 'checkmate'),
    ];
    for (const g of unrated) expect(await archiveGame(t.db, g)).toEqual({ stored: true, ratings: null });
    expect(await currentRating(t.db, alice)).toEqual(before);
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
    const history = await ratingHistory(t.db, carol);
    expect(history).toHaveLength(4);
    expect(history[0]!.rating).toBe(1500);
    expect(history[3]!.rating).toBe((await currentRating(t.db, carol))!.rating);
  });

  it('refuses a game whose clocks do not match its moves, and stores nothing', async () => {
    const g = game(guest('g4', 'A'), guest('g5', 'B'), 'white', 'checkmate', { clocksMs: [1] });
    await expect(archiveGame(t.db, g)).rejects.toThrow(/3 moves but 1 clock/);
    expect(await getGame(t.db, g.id)).toBeNull();
  });

  it('lists only established ratings on the leaderboard, highest first', async () => {
    const strong = await t.addAccount('strong');
    const weak = await t.addAccount('weak');
    // Two new players become established (deviation <= 110) after about 22 games with each other.
    for (let i = 0; i < 24; i++) {
      await archiveGame(t.db, game(account(strong, 'strong'), account(weak, 'weak'), i % 3 ? 'white' : 'draw', 'checkmate'));
      if (i === 10) expect(await leaderboard(t.db)).toEqual([]);
    }
    const board = await leaderboard(t.db);
    expect(board.map((e) => e.username)).toEqual(['strong', 'weak']);
    expect(board[0]!.rating).toBeGreaterThan(board[1]!.rating);
    expect(board.every((e) => e.deviation <= 110)).toBe(true);
  });
});
