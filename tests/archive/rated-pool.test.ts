/**
 * The rated pool on the real server: signed-in players search with their ratings in the pool's
 * speed (from the archive) and are paired by rating, the window widening while they wait; guests
 * pair with anyone. The server runs on the test's clock, so a minute of waiting takes no time.
 */
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createAccounts, type AccountsModule } from '../../server/accounts';
import { nodeSupabaseClient } from '../accounts/harness';
import { TestClient, lobbyUntil, playMoves, startTestServer, useTestClock, watchLobby, type Pair, type TestClock } from '../server/helpers';
import { ownProfileSchema } from '../../machines/protocol/archive';
import type { Challenge, GameRatings, RatingChangeMsg, TimeControl } from '../../machines/protocol/messages';
import { freshDataDir } from '../support/pgliteTemplate';
import { TEN_PLIES } from './ratedMoves';

let dataDir: string;
let accounts: AccountsModule;
let server: RunningServer;
let clock: TestClock;
const ids: Record<string, { id: string; token: string }> = {};

async function signUp(username: string): Promise<void> {
  const c = nodeSupabaseClient(server.url, accounts.info.anonKey);
  const { data, error } = await c.auth.signUp({ email: `${username}.${Date.now()}@example.test`, password: 'secret123' });
  if (error) throw error;
  ids[username] = { id: data.user!.id, token: data.session!.access_token };
}

async function signedIn(username: string): Promise<TestClient> {
  const socket = await TestClient.connect(server.url);
  socket.send('identifyUser', { userId: ids[username]!.id, accessToken: ids[username]!.token });
  await socket.next('identified');
  return socket;
}

async function searching(username: string, timeControl?: TimeControl): Promise<TestClient> {
  const socket = await signedIn(username);
  socket.send('findGame', { username, ...(timeControl ? { timeControl } : {}) });
  await socket.next('matchmakingStatus', (m) => m.status === 'queued');
  return socket;
}

beforeAll(async () => {
  clock = useTestClock();
  dataDir = await freshDataDir('rated-pool-');
  accounts = await createAccounts({ logger: pino({ level: 'silent' }), dataDir, siteUrl: 'http://127.0.0.1', autoconfirm: true });
  server = await startTestServer({ accounts });
  for (const name of ['strong', 'weak', 'newA', 'newB', 'rapidStrong', 'rapidWeak', 'hookStrong', 'hookWeak']) await signUp(name);
  // ten rated 10+0 (rapid) wins of strong over weak, of ten plies each, a day apart (docs/ratings.md): about 1830 against 1170
  const moves = TEN_PLIES;
  for (const [white, black] of [['strong', 'weak'], ['rapidStrong', 'rapidWeak'], ['hookStrong', 'hookWeak']] as const) {
    for (let i = 0; i < 10; i++) {
      const at = new Date(Date.UTC(2026, 0, 1 + i));
      const stored = await accounts.archive!.store({
        id: `game_seed${white}${i}`, kind: 'pool', winner: 'white', reason: 'resignation', clockMs: 600_000,
        white: { name: white, accountId: ids[white]!.id, guestId: null },
        black: { name: black, accountId: ids[black]!.id, guestId: null },
        startedAt: at, endedAt: at, moves, clocksMs: moves.map(() => 600_000), pgn: '',
      });
      expect(stored.ratings).not.toBeNull();
    }
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
  await accounts?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the rated pool', () => {
  it('pairs players of close ratings at once and far ones only once the window has widened', async () => {
    expect((await accounts.archive!.ratingOf(ids.strong!.id, 'rapid')).rating).toBeGreaterThan(1750);
    expect((await accounts.archive!.ratingOf(ids.weak!.id, 'rapid')).rating).toBeLessThan(1250);
    const weak = await searching('weak');
    const strong = await searching('strong');
    const newA = await searching('newA');
    expect(await weak.gets('gameStart', 200)).toBe(false);
    const newB = await searching('newB');
    const [a, b] = await Promise.all([newA.next('gameStart'), newB.next('gameStart')]);
    expect(a.gameId).toBe(b.gameId);
    expect(await strong.gets('gameStart', 200)).toBe(false);

    clock.settleWith(weak);
    await clock.advance(59_000, 1_000);
    expect(await weak.gets('gameStart', 100)).toBe(false);
    await clock.advance(2_000, 1_000);
    const [w, s] = await Promise.all([weak.next('gameStart'), strong.next('gameStart')]);
    expect(w.gameId).toBe(s.gameId);
    await Promise.all([weak, strong, newA, newB].map((c) => c.close()));
  });

  it("a blitz search pairs by the Blitz rating: players 660 apart in Rapid, both new in Blitz, are paired at once, and the game moves Blitz only", async () => {
    const rapidOf = (name: string) => accounts.archive!.ratingOf(ids[name]!.id, 'rapid');
    const [strongRapid, weakRapid] = [await rapidOf('rapidStrong'), await rapidOf('rapidWeak')];
    expect(strongRapid.rating - weakRapid.rating).toBeGreaterThan(600);
    const blitz: TimeControl = { initial: 180, increment: 2 };
    const weak = await searching('rapidWeak', blitz);
    const strong = await searching('rapidStrong', blitz);
    const [w, s] = await Promise.all([weak.next('gameStart'), strong.next('gameStart')]);
    expect(w.gameId).toBe(s.gameId);
    expect(w.timeControl).toEqual(blitz);
    // the game shows the Blitz ratings: both new
    expect(w.ratings).toEqual({ white: { rating: 1500, provisional: true }, black: { rating: 1500, provisional: true } });
    const p: Pair = w.color === 'white' ? { white: weak, black: strong, gameId: w.gameId as string } : { white: strong, black: weak, gameId: w.gameId as string };
    await playMoves(p, TEN_PLIES);
    weak.send('resign', { gameId: p.gameId });
    const [cw, cs] = await Promise.all([weak.next('ratingChange'), strong.next('ratingChange')]);
    expect(cw).toEqual(cs);
    expect(cw).toMatchObject({ gameId: p.gameId, speed: 'blitz', white: { before: 1500 }, black: { before: 1500 } });
    // Rapid did not move; Blitz did
    expect(await rapidOf('rapidStrong')).toEqual(strongRapid);
    expect(await rapidOf('rapidWeak')).toEqual(weakRapid);
    expect((await accounts.archive!.ratingOf(ids.rapidStrong!.id, 'blitz')).rating).toBeGreaterThan(1500);
    const own = await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${ids.rapidStrong!.token}` } });
    const profile = ownProfileSchema.parse(await own.json());
    expect(profile.ratings.map((r) => [r.speed, r.games])).toEqual([['blitz', 1], ['rapid', 10]]);
    // their rematch (3+2 again) starts with the Blitz ratings the game left
    weak.send('offerRematch', { gameId: p.gameId });
    await strong.next('rematchOffer');
    strong.send('offerRematch', { gameId: p.gameId });
    const [rw] = await Promise.all([weak.next('gameStart'), strong.next('gameStart')]);
    // weak played `w.color` in the game; their ratings after it, by who they are
    const change = cw as RatingChangeMsg;
    const after = { weak: change[w.color as 'white' | 'black'].after, strong: change[w.color === 'white' ? 'black' : 'white'].after };
    const weakSide = rw.color as 'white' | 'black';
    const ratings = rw.ratings as GameRatings;
    expect(ratings[weakSide]).toEqual({ rating: after.weak, provisional: true });
    expect(ratings[weakSide === 'white' ? 'black' : 'white']).toEqual({ rating: after.strong, provisional: true });
    await Promise.all([weak.close(), strong.close()]);
  });

  it("a custom game shows and starts with the ratings in its speed: a 5+0 hook and its game show Blitz's 1500, a 10+0 challenge the Rapid rating", async () => {
    const rapid = await accounts.archive!.ratingOf(ids.hookStrong!.id, 'rapid');
    expect(rapid.rating).toBeGreaterThan(1750);
    const strong = await signedIn('hookStrong');
    const weak = await signedIn('hookWeak');
    await watchLobby(weak);
    strong.send('postHook', { options: { timeControl: { initial: 300, increment: 0 }, rated: true, color: 'white' } });
    const [hook] = await lobbyUntil(weak, 'the strong player\'s game', (h) => h.length === 1);
    expect(hook.by.rating).toEqual({ rating: 1500, provisional: true });
    weak.send('joinHook', { hookId: hook.id });
    const [s, w] = await Promise.all([strong.next('gameStart'), weak.next('gameStart')]);
    expect(s.gameId).toBe(w.gameId);
    expect(s.ratings).toEqual({ white: { rating: 1500, provisional: true }, black: { rating: 1500, provisional: true } });
    strong.send('resign', { gameId: s.gameId });
    await weak.next('gameEnd');
    strong.send('createChallenge', { options: { timeControl: { initial: 600, increment: 0 }, rated: true, color: 'white' } });
    const challenge = (await strong.next('challenge')).challenge as Challenge;
    expect(challenge.by.rating).toEqual({ rating: rapid.rating, provisional: rapid.provisional });
    await Promise.all([strong.close(), weak.close()]);
  });
});
