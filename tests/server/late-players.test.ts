/**
 * Signed-in players on the real server with an archive that rates their games (an in-memory
 * stand-in for the accounts database, so that time and ratings are the test's): the ratings a
 * game shows survive a restart from the journal, a player who was away when their rated game
 * ended gets its rating change with the rejoin's gameEnd, and the game's spectators hear when
 * its record is in the archive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerRating } from '../../machines/protocol/messages';
import type { Archive, FinishedGame, StoreResult } from '../../server/archive/index';
import type { RunningServer } from '../../server/app';
import type { AccountsModule } from '../../server/wiring';
import { TestClient, playMoves, startTestServer, type Msg, type Pair } from './helpers';

const RATINGS: Record<string, PlayerRating> = { 'user-white': { rating: 1520, provisional: false }, 'user-black': { rating: 1500, provisional: true } };
const SCORED = { white: { before: 1520, after: 1511.5 }, black: { before: 1500, after: 1530.2 } };
const SECRET = 's'.repeat(40);

/** The archive's contract in memory: every game is stored and rated as SCORED. */
class MemoryArchive implements Archive {
  readonly stored: FinishedGame[] = [];
  async store(game: FinishedGame): Promise<StoreResult> {
    this.stored.push(game);
    return {
      stored: true, speed: 'rapid', ratings: SCORED,
      standing: { white: { rating: SCORED.white.after, provisional: false }, black: { rating: SCORED.black.after, provisional: true } },
    };
  }
  async ratingOf(accountId: string): Promise<PlayerRating> {
    return RATINGS[accountId] ?? { rating: 1500, provisional: true };
  }
  async claimGuestGames(): Promise<number> {
    return 0;
  }
  readonly handler = () => ({ status: 404 });
}

/** An access token naming the user (the stand-in accounts below trust it unsigned). */
const tokenFor = (userId: string) => new UnsecuredJWT({}).setSubject(userId).setExpirationTime('1h').encode();

/** Accounts that take an unsigned token at its word; each user has a username and an e-mail address. */
function accountsWith(archive: Archive): AccountsModule {
  return {
    mount() {},
    async verifyAccessToken(token) {
      const sub = decodeJwt(token).sub ?? '';
      return { sub, username: sub.replace('user-', ''), email: `${sub}@example.test` };
    },
    async close() {},
    archive,
  };
}

const servers: RunningServer[] = [];
const clients: TestClient[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function started(opts: Parameters<typeof startTestServer>[0]): Promise<RunningServer> {
  const s = await startTestServer(opts);
  servers.push(s);
  return s;
}

async function signedIn(url: string, userId: string): Promise<TestClient> {
  const c = await TestClient.connect(url);
  clients.push(c);
  c.send('identifyUser', { userId, accessToken: tokenFor(userId) });
  await c.next('identified');
  return c;
}

/** The two accounts through matchmaking into one game; white searched first. */
async function ratedPair(url: string): Promise<{ pair: Pair; start: Msg }> {
  const white = await signedIn(url, 'user-white');
  const black = await signedIn(url, 'user-black');
  white.send('findGame', { username: 'white' });
  await white.next('matchmakingStatus', (m) => m.status === 'queued');
  black.send('findGame', { username: 'black' });
  const [start] = await Promise.all([white.next('gameStart'), black.next('gameStart')]);
  expect(start.color).toBe('white');
  return { pair: { white, black, gameId: start.gameId as string }, start };
}

describe('ratings of a live game', () => {
  it('survive a restart from the journal: the rejoin and a spectator see the ratings gameStart showed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'late-ratings-'));
    dirs.push(dataDir);
    const first = await started({ accounts: accountsWith(new MemoryArchive()), durableDir: dataDir, serverSecret: SECRET });
    const { pair, start } = await ratedPair(first.url);
    expect(start.ratings).toEqual({ white: RATINGS['user-white'], black: RATINGS['user-black'] });
    await playMoves(pair, ['e2e4', 'e7e5']);
    await first.close();

    const second = await started({ accounts: accountsWith(new MemoryArchive()), durableDir: dataDir, serverSecret: SECRET });
    const white = await signedIn(second.url, 'user-white');
    white.send('rejoinGame', { gameId: pair.gameId });
    const again = await white.next('gameStart');
    expect(again).toMatchObject({ gameId: pair.gameId, color: 'white', currentState: { seq: 2 } });
    expect(again.ratings).toEqual(start.ratings);

    const watcher = await TestClient.connect(second.url);
    clients.push(watcher);
    watcher.send('watchGame', { gameId: pair.gameId });
    const watched = await watcher.next('watchStart');
    expect(watched.ratings).toEqual(start.ratings);
    expect(watched).toMatchObject({ white: { name: 'white', guest: false }, black: { name: 'black', guest: false } });
    // the accounts' ids and e-mail addresses stay private
    expect(JSON.stringify(watched)).not.toMatch(/user-|@example/);
  });
});

describe('a player away when their rated game ends', () => {
  it('gets the ratingChange after the gameEnd when rejoining; a spectator hears when the game is archived', async () => {
    const archive = new MemoryArchive();
    const server = await started({ accounts: accountsWith(archive) });
    const { pair } = await ratedPair(server.url);
    await playMoves(pair, ['d2d4', 'd7d5']);
    const watcher = await TestClient.connect(server.url);
    clients.push(watcher);
    watcher.send('watchGame', { gameId: pair.gameId });
    await watcher.next('watchStart');

    await pair.white.close();
    pair.black.send('resign', { gameId: pair.gameId });
    expect(await pair.black.next('gameEnd')).toMatchObject({ winner: 'white', reason: 'resignation' });
    expect(await pair.black.next('ratingChange')).toEqual({ type: 'ratingChange', gameId: pair.gameId, speed: 'rapid', ...SCORED });
    expect(await watcher.next('gameEnd')).toMatchObject({ gameId: pair.gameId, winner: 'white' });
    expect(await watcher.next('gameArchived')).toEqual({ type: 'gameArchived', gameId: pair.gameId });
    expect(archive.stored.map((g) => g.id)).toEqual([pair.gameId]);
    // the rating change is the players' alone
    expect(watcher.received.some((m) => m.type === 'ratingChange')).toBe(false);

    const back = await signedIn(server.url, 'user-white');
    back.send('rejoinGame', { gameId: pair.gameId });
    const end = await back.next('gameEnd');
    expect(end).toMatchObject({ gameId: pair.gameId, winner: 'white', reason: 'resignation' });
    expect(await back.next('ratingChange')).toEqual({ type: 'ratingChange', gameId: pair.gameId, speed: 'rapid', ...SCORED });
    const order = back.received.map((m) => m.type).filter((t) => t === 'gameEnd' || t === 'ratingChange');
    expect(order).toEqual(['gameEnd', 'ratingChange']);
  });
});
