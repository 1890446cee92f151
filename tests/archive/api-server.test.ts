/**
 * The archive behind the real accounts module on a uWebSockets.js port, read with fetch and
 * attacked with the real supabase-js client: games and ratings are written by the server only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { profileSchema, publicGameSchema } from '../../machines/protocol/archive';
import { BACKENDS, startAccountsServer, type TestServer } from '../accounts/harness';
import { TEN_PLIES, TEN_PLIES_PGN } from './ratedMoves';

describe.each(BACKENDS)('archive API on the accounts server (%s)', (backend) => {
  let s: TestServer;
  const players: { c: SupabaseClient; id: string; username: string }[] = [];

  beforeAll(async () => {
    s = await startAccountsServer({ backend, autoconfirm: true });
    for (const name of ['arch_white', 'arch_black']) {
      const c = s.client();
      const { data, error } = await c.auth.signUp({ email: `${name}.${Date.now()}@example.test`, password: 'secret123' });
      if (error) throw error;
      await c.auth.setSession(data.session!);
      const up = await c.from('profiles').upsert({ id: data.user!.id, username: name }, { onConflict: 'id' });
      expect(up.error).toBeNull();
      players.push({ c, id: data.user!.id, username: name });
    }
    const [white, black] = players;
    await s.accounts.archive!.store({
      id: 'game_serverapi001',
      kind: 'pool',
      white: { name: 'arch_white', accountId: white!.id, guestId: null },
      black: { name: 'arch_black', accountId: black!.id, guestId: null },
      winner: 'black',
      reason: 'resignation',
      clockMs: 600_000,
      startedAt: new Date(Date.now() - 120_000),
      endedAt: new Date(),
      moves: TEN_PLIES,
      clocksMs: TEN_PLIES.map((_, i) => 600_000 - 1_000 * Math.floor(i / 2)),
      pgn: `${TEN_PLIES_PGN} 0-1`,
    });
  }, 180_000);
  afterAll(async () => s?.destroy());

  it('serves the rated game and both profiles with their new ratings', async () => {
    const game = publicGameSchema.parse(await (await fetch(`${s.url}/api/games/game_serverapi001`)).json());
    expect(game.rated).toBe(true);
    expect(game.black.rating!.after).toBeGreaterThan(1500);
    const res = await fetch(`${s.url}/api/players/ARCH_BLACK`);
    expect(res.status).toBe(200);
    const profile = profileSchema.parse(await res.json());
    expect(profile).toMatchObject({ username: 'arch_black', record: { wins: 1, losses: 0, draws: 0 } });
    expect(profile.ratings.map((r) => r.speed)).toEqual(['rapid']);
    expect(profile.ratings[0]!.rating).toBe(game.black.rating!.after);
    expect(profile.ratings[0]!.history.map((p) => p.rating)).toEqual([1500, game.black.rating!.after]);
  });

  it('refuses a client that tries to write a game or a rating through /rest/v1', async () => {
    const { c, id } = players[0]!;
    const forgedGame = await c.from('games').insert({ id: 'game_forged00001', winner: 'white' });
    expect(forgedGame.error).not.toBeNull();
    const forgedRating = await c.from('ratings').upsert({ user_id: id, rating: 3000, deviation: 45, volatility: 0.06 });
    expect(forgedRating.error).not.toBeNull();
    const forgedUpdate = await c.from('ratings').update({ rating: 3000 }).eq('user_id', id);
    expect(forgedUpdate.error).not.toBeNull();
    expect((await fetch(`${s.url}/api/games/game_forged00001`)).status).toBe(404);
    const post = await fetch(`${s.url}/api/games/game_serverapi001`, { method: 'POST', body: '{"winner":"white"}' });
    expect(post.status).toBe(405);
    const profile = profileSchema.parse(await (await fetch(`${s.url}/api/players/arch_white`)).json());
    expect(profile.ratings[0]!.rating).toBeLessThan(1500);
  });

  it('answers 400, not 500, to a page cursor the database cannot hold', async () => {
    const page = (before: string) => fetch(`${s.url}/api/players/arch_white/games?before=${encodeURIComponent(before)}`);
    for (const bad of ['-200000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-13-45T99:00:00Z', 'yesterday']) {
      const res = await page(bad);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'bad_request' });
    }
    const res = await page(new Date(Date.now() + 60_000).toISOString());
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(1);
  });
});
