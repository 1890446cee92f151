/**
 * The end of a game is as durable as its moves: the game journal keeps an ended game until its
 * archive row and rating are committed. With the real server (in-process, journaled), the real
 * accounts module on PGlite, real supabase-js sign-ups and real sockets:
 * - the database away for a while when a rated game ends: the game is archived once it answers,
 *   rated once, and each player gets the ratingChange when next online;
 * - the database away and the server restarted: the next start archives the game (once; a
 *   further restart does not store or rate it again).
 * The outage is the archive's store failing as a refused connection would (the test's fault). The
 * archive's retries are held for the test, which runs each when it says the time has come.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { profileSchema, publicGameSchema, type PublicGame } from '../../machines/protocol/archive';
import type { RatingChangeMsg } from '../../machines/protocol/messages';
import type { RunningServer } from '../../server/app';
import { ARCHIVE_RETRY_MS, type RetryTimer } from '../../server/archive/index';
import { createAccounts, type AccountsModule } from '../../server/accounts';
import type { AccountsModule as ServerAccounts } from '../../server/wiring';
import { nodeSupabaseClient } from '../accounts/harness';
import { TestClient, playMoves, startTestServer, type Pair } from '../server/helpers';
import { freshDataDir } from '../support/pgliteTemplate';
import { LEGALS_MATE } from './ratedMoves';

let dataDir: string;
let accounts: AccountsModule;
let servers: RunningServer[] = [];
/** while true the archive's writes fail, as with the database away */
let databaseDown = false;
const stores: string[] = [];
/** told of each game whose archive write was committed */
let onCommitted: (gameId: string) => void = () => {};

/** Resolves once the archive has committed this game's write. */
const committed = (gameId: string) => new Promise<void>((resolve) => (onCommitted = (id) => id === gameId && resolve()));

/** The accounts module, its archive writes failing while the database is "down". */
function withOutage(): ServerAccounts {
  const archive = accounts.archive!;
  return {
    ...accounts,
    // the server closes its accounts module; the test closes the real one once
    close: async () => {},
    archive: {
      ...archive,
      store: (game) => {
        stores.push(game.id);
        if (databaseDown) return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
        return archive.store(game).then((r) => (onCommitted(game.id), r));
      },
    },
  };
}

/** A retry the archive asked for: after how long, and running it. */
interface Retry {
  ms: number;
  run: () => void;
}

/** The archive's retry timer on the test's word: each retry waits until the test runs it. */
function heldRetries(): { timer: RetryTimer; next(): Promise<Retry> } {
  const waiting: Retry[] = [];
  let asked = () => {};
  return {
    timer(run, ms) {
      const retry = { ms, run };
      waiting.push(retry);
      asked();
      return () => {
        const i = waiting.indexOf(retry);
        if (i >= 0) waiting.splice(i, 1);
      };
    },
    /** the next retry the archive asks for, once it has */
    async next() {
      while (waiting.length === 0) await new Promise<void>((resolve) => (asked = resolve));
      return waiting.shift()!;
    },
  };
}
let retries = heldRetries();

interface Account {
  id: string;
  token: string;
  username: string;
}

async function signUp(url: string, username: string): Promise<Account> {
  const c = nodeSupabaseClient(url, accounts.info.anonKey);
  const { data, error } = await c.auth.signUp({ email: `${username}.${Date.now()}@example.test`, password: 'secret123' });
  if (error) throw error;
  await c.auth.setSession(data.session!);
  const up = await c.from('profiles').upsert({ id: data.user!.id, username }, { onConflict: 'id' });
  if (up.error) throw up.error;
  return { id: data.user!.id, token: data.session!.access_token, username };
}

async function online(url: string, a: Account): Promise<TestClient> {
  const socket = await TestClient.connect(url);
  socket.send('identifyUser', { userId: a.id, accessToken: a.token });
  await socket.next('identified');
  return socket;
}

/** Two signed-in players paired and Légal's mate played (long enough to be rated): white wins. */
async function ratedGame(url: string, a: Account, b: Account): Promise<Pair & { sockets: TestClient[] }> {
  const [sa, sb] = [await online(url, a), await online(url, b)];
  sa.send('findGame', {});
  await sa.next('matchmakingStatus', (m) => m.status === 'queued');
  sb.send('findGame', {});
  const [ga] = await Promise.all([sa.next('gameStart'), sb.next('gameStart')]);
  const white = ga.color === 'white' ? sa : sb;
  const pair: Pair = { white, black: white === sa ? sb : sa, gameId: ga.gameId as string };
  await playMoves(pair, LEGALS_MATE);
  await Promise.all([pair.white.next('gameEnd'), pair.black.next('gameEnd')]);
  return { ...pair, sockets: [sa, sb] };
}

/** The game as the archive's API shows it now; null while it is not there. */
async function archived(url: string, gameId: string): Promise<PublicGame | null> {
  const res = await fetch(`${url}/api/games/${gameId}`);
  return res.status === 200 ? publicGameSchema.parse(await res.json()) : null;
}

/** How many rated games the player's rating counts (0 before the first). */
async function ratedGames(url: string, username: string): Promise<number> {
  const res = await fetch(`${url}/api/players/${username}`);
  return profileSchema.parse(await res.json()).ratings.find((r) => r.speed === 'rapid')?.games ?? 0;
}

beforeAll(async () => {
  dataDir = await freshDataDir('archive-outbox-');
  accounts = await createAccounts({ logger: pino({ level: 'silent' }), dataDir, siteUrl: 'http://127.0.0.1', autoconfirm: true });
}, 120_000);

afterEach(async () => {
  databaseDown = false;
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  retries = heldRetries();
});

afterAll(async () => {
  await accounts?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(durableDir: string): Promise<RunningServer> {
  const server = await startTestServer({ accounts: withOutage(), durableDir, archiveRetryTimer: retries.timer });
  servers.push(server);
  return server;
}

describe('the end of a game is durable', () => {
  it('archives and rates a game that ended while the database was away once it answers, and tells each player when next online', async () => {
    const server = await start(mkdtempSync(join(tmpdir(), 'outbox-')));
    const [a, b] = [await signUp(server.url, 'outbox_a'), await signUp(server.url, 'outbox_b')];
    databaseDown = true;
    const game = await ratedGame(server.url, a, b);
    // the write failed: it is tried again after ARCHIVE_RETRY_MS, then twice as long each time
    const first = await retries.next();
    expect(first.ms).toBe(ARCHIVE_RETRY_MS);
    expect(await archived(server.url, game.gameId)).toBeNull();
    const pending = async () => Number(/^chess_archive_pending (\d+)/m.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1]);
    expect(await pending()).toBe(1);
    first.run();
    const second = await retries.next();
    expect(second.ms).toBe(2 * ARCHIVE_RETRY_MS);
    expect(await archived(server.url, game.gameId)).toBeNull();
    expect(await ratedGames(server.url, a.username)).toBe(0);
    // both players leave before the database is back
    await Promise.all(game.sockets.map((s) => s.close()));
    databaseDown = false;

    const back = committed(game.gameId);
    second.run();
    await back;
    const stored = await archived(server.url, game.gameId);
    expect(stored).toMatchObject({ id: game.gameId, winner: 'white', reason: 'checkmate', rated: true });
    expect(await ratedGames(server.url, a.username)).toBe(1);
    expect(await pending()).toBe(0);
    expect(await ratedGames(server.url, b.username)).toBe(1);
    const [ra, rb] = (await Promise.all([a, b].map(async (acc) => (await online(server.url, acc)).next('ratingChange')))) as RatingChangeMsg[];
    expect(ra).toEqual(rb);
    expect(ra.gameId).toBe(game.gameId);
  }, 60_000);

  it('archives at the next start a game that ended while the database was away, once across further restarts', async () => {
    const durableDir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const first = await start(durableDir);
    const [a, b] = [await signUp(first.url, 'outbox_c'), await signUp(first.url, 'outbox_d')];
    databaseDown = true;
    const game = await ratedGame(first.url, a, b);
    await first.close();
    servers = [];
    databaseDown = false;

    const archivedAtStart = committed(game.gameId);
    const second = await start(durableDir);
    await archivedAtStart;
    expect(await archived(second.url, game.gameId)).toMatchObject({ id: game.gameId, rated: true });
    expect(await ratedGames(second.url, a.username)).toBe(1);
    const [ra] = (await Promise.all([online(second.url, a).then((s) => s.next('ratingChange'))])) as RatingChangeMsg[];
    expect(ra.gameId).toBe(game.gameId);
    await second.close();
    servers = [];

    const triedBefore = stores.filter((id) => id === game.gameId).length;
    const third = await start(durableDir);
    await (await TestClient.connect(third.url)).roundTrip();
    expect(stores.filter((id) => id === game.gameId).length).toBe(triedBefore);
    expect(await ratedGames(third.url, b.username)).toBe(1);
  }, 60_000);
});
