/**
 * npm run bench:archive — the archive's cost with 100,000 stored games, on PGlite (a temp dir)
 * and on PostgreSQL (BENCH_DATABASE_URL, a fresh schema), each next to a peer measured in the
 * same run on the same database:
 *  - storing a finished rated game (row + both ratings, one transaction) vs a bare insert of
 *    the same row (no transaction, no rating): the floor of a write;
 *  - a profile page's queries (record, 20 recent games, rating history, rating) for an account
 *    with ~200 games vs a point read of one game by id.
 * Options: --games 100000 --runs 3 --writes 200 --reads 200
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db } from '../../accounts/db';
import { migrate } from '../../accounts/migrate';
import { percentile } from '../../ai/bench/stats';
import { accountGames, accountRecord, archiveGame, currentRatings, getGame, ratingHistory, type FinishedGame } from '../store';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const GAMES = opt('games', 100_000);
const RUNS = opt('runs', 3);
const WRITES = opt('writes', 200);
const READS = opt('reads', 200);
const ACCOUNTS = 500;
const MOVES = 'e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8';

async function timeEach(n: number, op: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const lat: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await op(i);
    lat.push(performance.now() - t);
  }
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

/** Accounts, then GAMES games among them with random results, written in bulk by SQL. */
async function seed(db: Db): Promise<string[]> {
  const ids = Array.from({ length: ACCOUNTS }, () => randomUUID());
  await db.query(
    `INSERT INTO users (id, email, encrypted_password) SELECT u, u::text || '@bench.test', 'x' FROM unnest($1::uuid[]) AS u`,
    [ids],
  );
  await db.query(`INSERT INTO profiles (id, username) SELECT u, 'p' || substr(replace(u::text, '-', ''), 1, 12) FROM unnest($1::uuid[]) AS u`, [ids]);
  await db.query(
    `INSERT INTO games (id, kind, white_account, white_name, black_account, black_name, winner, reason, rated, clock_ms,
                        started_at, ended_at, moves, clocks_ms, pgn)
     SELECT 'game_seed' || lpad(i::text, 7, '0'), 'pool', a[1 + (i * 7) % $2], 'w', a[1 + (i * 13 + 1) % $2], 'b',
            (ARRAY['white','black','draw'])[1 + i % 3], 'checkmate', false, 600000,
            now() - make_interval(mins => $3 - i), now() - make_interval(mins => $3 - i) + interval '10 minutes',
            $4, array_fill(590000, ARRAY[16]), '1. e4 e5 *'
     FROM generate_series(1, $3) AS i, (SELECT $1::uuid[] AS a) AS accounts`,
    [ids, ACCOUNTS, GAMES, MOVES],
  );
  await db.exec('ANALYZE');
  return ids;
}

function newGame(white: string, black: string): FinishedGame {
  const endedAt = new Date();
  return {
    id: `game_${randomBytes(9).toString('base64url')}`,
    kind: 'pool',
    white: { name: 'w', accountId: white, guestId: null },
    black: { name: 'b', accountId: black, guestId: null },
    winner: 'white',
    reason: 'checkmate',
    clockMs: 600_000,
    startedAt: new Date(endedAt.getTime() - 600_000),
    endedAt,
    moves: MOVES.split(' '),
    clocksMs: Array(16).fill(590_000),
    pgn: '1. e4 e5 *',
  };
}

async function bareInsert(db: Db, g: FinishedGame): Promise<void> {
  await db.query(
    `INSERT INTO games (id, kind, white_account, white_name, black_account, black_name, winner, reason, rated, clock_ms,
                        started_at, ended_at, moves, clocks_ms, pgn)
     VALUES ($1, 'pool', $2, 'w', $3, 'b', 'white', 'checkmate', false, 600000, $4, $5, $6, $7, $8)`,
    [g.id, g.white.accountId, g.black.accountId, g.startedAt, g.endedAt, g.moves.join(' '), [...g.clocksMs], g.pgn],
  );
}

async function profile(db: Db, account: string): Promise<void> {
  await Promise.all([accountRecord(db, account), accountGames(db, account), ratingHistory(db, account, 'rapid'), currentRatings(db, account)]);
}

async function benchBackend(kind: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'archive-bench-'));
  const schema = kind === 'postgres' ? `bench_archive_${randomBytes(4).toString('hex')}` : 'public';
  const url = process.env.BENCH_DATABASE_URL;
  const db = await openDb({ dataDir, schema, ...(kind === 'postgres' && url ? { databaseUrl: url } : {}) });
  try {
    await migrate(db);
    const t0 = performance.now();
    const ids = await seed(db);
    console.log(`${kind}: seeded ${GAMES} games among ${ACCOUNTS} accounts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const someGame = 'game_seed' + String(Math.ceil(GAMES / 2)).padStart(7, '0');
    const rows: string[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const write = await timeEach(WRITES, (i) => archiveGame(db, newGame(ids[i % ACCOUNTS]!, ids[(i + 1) % ACCOUNTS]!)));
      const bare = await timeEach(WRITES, (i) => bareInsert(db, newGame(ids[i % ACCOUNTS]!, ids[(i + 1) % ACCOUNTS]!)));
      const read = await timeEach(READS, (i) => profile(db, ids[i % ACCOUNTS]!));
      const point = await timeEach(READS, () => getGame(db, someGame));
      rows.push(
        `run ${run}: archive write p50 ${write.p50.toFixed(2)} ms (p99 ${write.p99.toFixed(2)}) vs bare insert ${bare.p50.toFixed(2)} ms -> ${(write.p50 / bare.p50).toFixed(2)}x; ` +
          `profile p50 ${read.p50.toFixed(2)} ms (p99 ${read.p99.toFixed(2)}) vs game by id ${point.p50.toFixed(2)} ms -> ${(read.p50 / point.p50).toFixed(2)}x`,
      );
    }
    for (const r of rows) console.log(`${kind}: ${r}`);
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres' && url) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  }
}

async function main(): Promise<void> {
  console.log(`archive bench: ${new Date().toISOString()}, ${cpus()[0]?.model} x${cpus().length}, load ${loadavg()[0].toFixed(1)}`);
  await benchBackend('pglite');
  if (process.env.BENCH_DATABASE_URL) await benchBackend('postgres');
  else console.log('postgres: skipped (set BENCH_DATABASE_URL)');
}

await main();
