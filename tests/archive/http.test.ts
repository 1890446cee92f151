import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaderboardSchema, ownProfileSchema, profileSchema, publicGameSchema } from '../../machines/protocol/archive';
import { createArchiveHandler } from '../../server/archive/http';
import { archiveGame, type FinishedGame } from '../../server/archive/store';
import type { Handler, Reply } from '../../server/accounts/http';
import { openTestDb, type TestDb } from './archiveDb';

async function get(handler: Handler, url: string, method = 'GET', headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const u = new URL(url, 'http://site.test');
  const reply: Reply = await handler({ method, path: u.pathname, query: u.searchParams, headers, ip: '127.0.0.1', peer: '127.0.0.1', body: Buffer.alloc(0) });
  return { status: reply.status, body: JSON.parse(String(reply.body)) };
}

describe('archive API', () => {
  let t: TestDb;
  let handler: Handler;
  let aliceId: string;
  const g: FinishedGame = {
    id: 'game_apitest0001',
    kind: 'pool',
    white: { name: 'Alice', accountId: '', guestId: null },
    black: { name: 'Guest 42', accountId: null, guestId: 'guest_secretid' },
    winner: 'white',
    reason: 'checkmate',
    clockMs: 600_000,
    startedAt: new Date('2026-11-01T12:00:00Z'),
    endedAt: new Date('2026-11-01T12:03:00Z'),
    moves: ['f2f3', 'e7e5', 'g2g4', 'd8h4'],
    clocksMs: [600_000, 600_000, 599_000, 598_000],
    pgn: '1. f3 e5 2. g4 Qh4# 0-1',
  };
  beforeAll(async () => {
    t = await openTestDb('pglite');
    aliceId = await t.addAccount('Alice_1');
    await archiveGame(t.db, { ...g, white: { ...g.white, accountId: aliceId } });
    handler = createArchiveHandler(t.db, async (token) => (token === 'alice-token' ? { sub: aliceId } : null));
  });
  afterAll(async () => t?.destroy());

  it('serves a game by id with usernames and without account or guest ids', async () => {
    const r = await get(handler, '/api/games/game_apitest0001');
    expect(r.status).toBe(200);
    const game = publicGameSchema.parse(r.body);
    expect(game.white).toEqual({ name: 'Alice', username: 'Alice_1', guest: false, rating: null });
    expect(game.black).toEqual({ name: 'Guest 42', username: null, guest: true, rating: null });
    expect(game.moves).toEqual(g.moves);
    expect(game).toMatchObject({ clockMs: 600_000, incrementMs: 0, speed: 'rapid' });
    expect(JSON.stringify(r.body)).not.toMatch(new RegExp(`${aliceId}|guest_secretid|@example`));
  });

  it("serves a player's profile whatever the case of the name, and 404 for unknown ones", async () => {
    const r = await get(handler, '/api/players/alice_1');
    expect(r.status).toBe(200);
    const profile = profileSchema.parse(r.body);
    expect(profile).toMatchObject({ username: 'Alice_1', ratings: [], record: { games: 1, wins: 1, losses: 0, draws: 0, aborted: 0 } });
    expect(profile.recent.map((s) => s.id)).toEqual([g.id]);
    expect(JSON.stringify(r.body)).not.toContain(aliceId);
    expect((await get(handler, '/api/players/nobody_here')).status).toBe(404);
    expect((await get(handler, '/api/players/%E0%A4%A')).status).toBe(404);
  });

  it('pages games, lists the leaderboard, answers bad input with 4xx and refuses writes', async () => {
    const page = await get(handler, `/api/players/Alice_1/games?before=${encodeURIComponent('2026-11-01T12:03:00Z')}`);
    expect(page).toEqual({ status: 200, body: [] });
    expect((await get(handler, '/api/players/Alice_1/games?before=yesterday')).status).toBe(400);
    expect(leaderboardSchema.parse((await get(handler, '/api/leaderboard')).body)).toEqual([]);
    expect(leaderboardSchema.parse((await get(handler, '/api/leaderboard?speed=ultraBullet')).body)).toEqual([]);
    expect(await get(handler, '/api/leaderboard?speed=correspondence')).toEqual({
      status: 400,
      body: { error: 'bad_request', message: 'speed must be one of ultraBullet, bullet, blitz, rapid, classical' },
    });
    expect((await get(handler, '/api/games/..%2F..%2Fetc')).status).toBe(404);
    expect((await get(handler, '/api/games/game_apitest0001', 'POST')).status).toBe(405);
  });

  it("serves the signed-in player's own games only with a valid access token", async () => {
    expect((await get(handler, '/api/me')).status).toBe(401);
    expect((await get(handler, '/api/me', 'GET', { authorization: 'Bearer forged' })).status).toBe(401);
    const r = await get(handler, '/api/me', 'GET', { authorization: 'Bearer alice-token' });
    expect(r.status).toBe(200);
    const own = ownProfileSchema.parse(r.body);
    expect(own).toMatchObject({ username: 'Alice_1', record: { games: 1, wins: 1 } });
    expect(own.recent.map((g) => g.id)).toEqual([g.id]);
  });
});
