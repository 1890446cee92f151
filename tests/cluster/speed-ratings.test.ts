/**
 * Ratings per speed on a site of two nodes (real Redis, real PostgreSQL, the real archive in the
 * site's schema): two accounts far apart in Rapid, searching the 3+2 pool from different nodes,
 * are paired at once by their Blitz ratings (both new), the game shows those, and scoring it
 * moves Blitz only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { openDb, type Db } from '../../server/accounts/db';
import { migrate } from '../../server/accounts/migrate';
import { createArchive } from '../../server/archive/index';
import type { RatingChangeMsg, TimeControl } from '../../machines/protocol/messages';
import { TestClient, playMoves, startTestServer, type Pair } from '../server/helpers';
import { tokenAccounts } from '../server/tokenAccounts';
import { TEN_PLIES } from '../archive/ratedMoves';
import { DATABASE_URL, testSite, type TestSite } from './site';

const STRONG = '0b8a2f0e-54a4-4f0e-9d3a-7a0b1c2d3e01';
const WEAK = '0b8a2f0e-54a4-4f0e-9d3a-7a0b1c2d3e02';
const BLITZ: TimeControl = { initial: 180, increment: 2 };

/** What the test started, stopped after it whatever happened: sockets, nodes, the database, the site's Redis keys and schema. */
const started = { site: undefined as TestSite | undefined, db: undefined as Db | undefined, dataDir: '', servers: [] as RunningServer[], clients: [] as TestClient[] };

afterEach(async () => {
  const { site, db, dataDir, servers, clients } = started;
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
  await db?.close();
  await site?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('ratings per speed across nodes', () => {
  it('pairs a 3+2 search from two nodes by the Blitz ratings, shows them, and moves Blitz only', async () => {
    const site = (started.site = testSite());
    const dataDir = (started.dataDir = mkdtempSync(join(tmpdir(), 'speed-ratings-')));
    const db = (started.db = await openDb({ dataDir, databaseUrl: DATABASE_URL, schema: site.options.databaseSchema }));
    await migrate(db);
    const archive = createArchive(db, pino({ level: 'silent' }), async () => null);
    for (const id of [STRONG, WEAK]) await db.query(`INSERT INTO users (id, email, encrypted_password) VALUES ($1, $2, 'x')`, [id, `${id}@example.test`]);
    // ten rated 10+0 wins of strong over weak, a day apart: Rapid about 1830 against 1170
    for (let i = 0; i < 10; i++) {
      const at = new Date(Date.UTC(2026, 0, 1 + i));
      await archive.store({
        id: `game_clusterseed${i}`, kind: 'pool', winner: 'white', reason: 'resignation', clockMs: 600_000,
        white: { name: 'strong', accountId: STRONG, guestId: null }, black: { name: 'weak', accountId: WEAK, guestId: null },
        startedAt: at, endedAt: at, moves: TEN_PLIES, clocksMs: TEN_PLIES.map(() => 600_000), pgn: '',
      });
    }
    const rapid = { strong: await archive.ratingOf(STRONG, 'rapid'), weak: await archive.ratingOf(WEAK, 'rapid') };
    expect(rapid.strong.rating - rapid.weak.rating).toBeGreaterThan(600);

    const { accounts, sign } = await tokenAccounts();
    const servers = started.servers;
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32), accounts: { ...accounts, archive } }));
    const searching = async (server: RunningServer, id: string, name: string) => {
      const c = await TestClient.connect(server.url);
      started.clients.push(c);
      c.send('identifyUser', { userId: id, accessToken: await sign({ sub: id }) });
      await c.next('identified');
      c.send('findGame', { username: name, timeControl: BLITZ });
      await c.next('matchmakingStatus', (m) => m.status === 'queued');
      return c;
    };
    const weak = await searching(servers[0]!, WEAK, 'weak');
    const strong = await searching(servers[1]!, STRONG, 'strong');
    const [w, s] = await Promise.all([weak.next('gameStart'), strong.next('gameStart')]);
    expect(w.gameId).toBe(s.gameId);
    expect(w.ratings).toEqual({ white: { rating: 1500, provisional: true }, black: { rating: 1500, provisional: true } });
    expect(s.ratings).toEqual(w.ratings);

    const p: Pair = w.color === 'white' ? { white: weak, black: strong, gameId: w.gameId as string } : { white: strong, black: weak, gameId: w.gameId as string };
    await playMoves(p, TEN_PLIES);
    weak.send('resign', { gameId: p.gameId });
    const [cw, cs] = await Promise.all([weak.next('ratingChange'), strong.next('ratingChange')]);
    expect(cs).toEqual(cw);
    const change = cw as RatingChangeMsg;
    expect(change).toMatchObject({ speed: 'blitz', white: { before: 1500 }, black: { before: 1500 } });
    expect(change[w.color as 'white' | 'black'].after).toBeLessThan(1500);
    expect(await archive.ratingOf(STRONG, 'rapid')).toEqual(rapid.strong);
    expect(await archive.ratingOf(WEAK, 'rapid')).toEqual(rapid.weak);
    expect((await archive.ratingOf(STRONG, 'blitz')).rating).toBeGreaterThan(1500);
  }, 60_000);
});
