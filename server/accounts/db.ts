/**
 * A tiny database interface with two back-ends speaking the same SQL:
 * embedded PGlite (PostgreSQL in WASM, files in a data directory) or a PostgreSQL server via `pg`.
 */
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ACCOUNTS_DEFAULTS } from '../config/accounts';
import { createDataDirApart, pgliteStartParams } from './pglite-memory';
import { migrate } from './migrate';
import type { Db, Queryable } from './queryable';

export type { Db, Queryable };

/** A PostgreSQL error as both drivers report it (SQLSTATE in `code`). */
export interface PgError extends Error {
  code?: string;
  constraint?: string;
  detail?: string;
  column?: string;
}

export function isPgError(err: unknown): err is PgError {
  return err instanceof Error && typeof (err as PgError).code === 'string';
}

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

export interface DbTimeouts {
  /** a query gives up after this long (ms); PostgreSQL also cancels it on its side */
  queryMs: number;
  /** opening a connection gives up after this long (ms) */
  connectMs: number;
}

export async function openDb(opts: { dataDir: string; databaseUrl?: string; schema?: string; timeouts?: DbTimeouts }): Promise<Db> {
  const schema = opts.schema ?? 'public';
  if (!SCHEMA_RE.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  if (opts.databaseUrl) return openPgPool(opts.databaseUrl, schema, opts.timeouts ?? ACCOUNTS_DEFAULTS.dbTimeouts);
  return openPglite(opts.dataDir, schema);
}

/** Start time of a process in clock ticks since boot (Linux), to tell a recycled pid apart. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Data dirs opened by this process (PGlite has no locking of its own). */
const openDirs = new Set<string>();

/**
 * PGlite would corrupt a data dir written by two processes at once: take a pid lock file and
 * refuse to start while another live process holds it.
 */
function lockDataDir(dir: string): () => void {
  const abs = resolve(dir);
  if (openDirs.has(abs)) throw new Error(`database directory ${abs} is already open in this process`);
  const lockFile = join(abs, 'accounts.lock');
  const me = `${process.pid} ${processStart(process.pid) ?? ''}`;
  if (existsSync(lockFile)) {
    const [pidText, started = ''] = readFileSync(lockFile, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    let alive = false;
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch (err) {
        alive = (err as NodeJS.ErrnoException).code === 'EPERM';
      }
      // a recycled pid (e.g. after a container restart) is not the process that wrote the lock
      if (alive && started && processStart(pid) !== undefined && processStart(pid) !== started) alive = false;
    }
    if (alive) throw new Error(`database directory ${abs} is in use by process ${pid} (remove ${lockFile} if it is stale)`);
  }
  writeFileSync(lockFile, me);
  openDirs.add(abs);
  return () => {
    openDirs.delete(abs);
    try {
      if (readFileSync(lockFile, 'utf8').trim() === me.trim()) unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}

async function openPglite(dataDir: string, schema: string): Promise<Db> {
  const dir = pgliteDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let db: PGlite;
  try {
    await createDataDirApart(dir, schema);
    // A commit outlives a crash of this process (kill -9) because PGlite writes its WAL to the
    // real file, a synchronous write, before the query returns, so before anybody is answered.
    // Nothing is ever synced to disk (PGlite's `-F`, and its file layer has no sync to give), so a
    // power loss can cost recent commits: docs/operations.md, Durability.
    db = await PGlite.create(dir, { startParams: pgliteStartParams() });
  } catch (err) {
    unlock();
    throw err;
  }
  return pgliteDb(db, schema, unlock);
}

/** Where in a data directory the embedded database lives. */
function pgliteDir(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, '')}/pg`;
}

/**
 * Creates the embedded database in `dir` and applies the migrations, in this process; for the
 * child process that server/accounts/pglite-memory.ts starts, while its parent holds the lock.
 */
export async function createMigratedPglite(dir: string, schema: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const db = await pgliteDb(await PGlite.create(dir, { startParams: pgliteStartParams() }), schema, () => {});
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

async function pgliteDb(db: PGlite, schema: string, onClose: () => void): Promise<Db> {
  await db.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"; SET search_path TO "${schema}"`);
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await db.query<T>(sql, params);
      return r.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(async (tx) =>
        fn({
          async query<R>(sql: string, params: unknown[] = []) {
            const r = await tx.query<R>(sql, params);
            return r.rows;
          },
          async exec(sql: string) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async close() {
      try {
        await db.close();
      } finally {
        onClose();
      }
    },
  };
}

/**
 * A frozen or unreachable database must not hang every request for as long as it lasts: a query
 * times out on the client (and the connection it used is thrown away) and is cancelled on the
 * server (statement_timeout); getting a connection times out too. TCP keep-alive notices a
 * peer that vanished.
 */
async function openPgPool(url: string, schema: string, timeouts: DbTimeouts): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: `-c search_path="${schema}" -c statement_timeout=${timeouts.queryMs}`,
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.queryMs + 1_000,
    keepAlive: true,
  });
  // Surface connection problems at start with a clear message (and create the schema).
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  pool.on('error', () => {
    /* idle client errors are reported on the next query */
  });
  return {
    kind: 'pg',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await pool.query(sql, params);
      return r.rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<R>(sql: string, params: unknown[] = []) {
            const r = await client.query(sql, params);
            return r.rows as R[];
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (err) {
        // A connection that failed below SQL (timeout, reset) is discarded, not handed out again.
        const broken = !isPgError(err) || (await client.query('ROLLBACK').then(() => false, () => true));
        client.release(broken ? (err as Error) : undefined);
        throw err;
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/** The database could not be opened at start (unreachable, locked by another process, unreadable). */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/**
 * An error that says the database is out of reach rather than that a statement was wrong:
 * a time limit, a refused or lost connection, a server shutting down or refusing connections.
 */
export function isDbUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof DatabaseUnavailableError) return true;
  if (/timeout|Connection terminated|connect(ion)? (refused|closed|ended)/i.test(err.message)) return true;
  const code = (err as PgError).code ?? '';
  // SQLSTATE 08xxx connection exceptions, 57014 statement timeout, 57P0x shutdown/cannot connect, 53300 too many connections
  if (/^(08...|57014|57P0.|53300)$/.test(code)) return true;
  return /^E[A-Z]+$/.test(code); // a Node socket error: ECONNREFUSED, ECONNRESET, ETIMEDOUT, ...
}

/** Whether the database refused a write for want of disk space (SQLSTATE 53100 disk_full, or the file system's ENOSPC). */
export function isStorageFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as PgError).code ?? '';
  return code === '53100' || code === 'ENOSPC' || /no space left on device/i.test(err.message);
}

/** Whether the database answers within `withinMs` (for /healthz). */
export async function databaseAnswers(db: Queryable, withinMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
  try {
    return await Promise.race([db.query('SELECT 1').then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
