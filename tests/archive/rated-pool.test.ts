/**
 * The rated pool on the real server: signed-in players search with their ratings (from the
 * archive) and are paired by rating, the window widening while they wait; guests pair with
 * anyone. The server runs on the test's clock, so a minute of waiting takes no time.
 */
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createAccounts, type AccountsModule } from '../../server/accounts';
import { nodeSupabaseClient } from '../accounts/harness';
import { TestClient, startTestServer, useTestClock, type TestClock } from '../server/helpers';
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

async function searching(username: string): Promise<TestClient> {
  const socket = await TestClient.connect(server.url);
  socket.send('identifyUser', { userId: ids[username]!.id, accessToken: ids[username]!.token });
  await socket.next('identified');
  socket.send('findGame', { username });
  await socket.next('matchmakingStatus', (m) => m.status === 'queued');
  return socket;
}

beforeAll(async () => {
  clock = useTestClock();
  dataDir = await freshDataDir('rated-pool-');
  accounts = await createAccounts({ logger: pino({ level: 'silent' }), dataDir, siteUrl: 'http://127.0.0.1', autoconfirm: true });
  server = await startTestServer({ accounts });
  for (const name of ['strong', 'weak', 'newA', 'newB']) await signUp(name);
  // ten rated wins of strong over weak, of ten plies each, a day apart (docs/ratings.md): about 1830 against 1170
  const moves = TEN_PLIES;
  for (let i = 0; i < 10; i++) {
    const at = new Date(Date.UTC(2026, 0, 1 + i));
    const stored = await accounts.archive!.store({
      id: `game_seedrated${i}`, kind: 'pool', winner: 'white', reason: 'resignation', clockMs: 600_000,
      white: { name: 'strong', accountId: ids.strong!.id, guestId: null },
      black: { name: 'weak', accountId: ids.weak!.id, guestId: null },
      startedAt: at, endedAt: at, moves, clocksMs: moves.map(() => 600_000), pgn: '',
    });
    expect(stored.ratings).not.toBeNull();
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
  await accounts?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the rated pool', () => {
  it('pairs players of close ratings at once and far ones only once the window has widened', async () => {
    expect((await accounts.archive!.ratingOf(ids.strong!.id)).rating).toBeGreaterThan(1750);
    expect((await accounts.archive!.ratingOf(ids.weak!.id)).rating).toBeLessThan(1250);
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
});
