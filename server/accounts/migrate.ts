/**
 * Applies the versioned SQL files in ./migrations (0001_name.sql, 0002_…) once each, in order,
 * recording them in schema_migrations. Safe to run at every start and from several processes
 * (an advisory lock serialises concurrent starts on a shared PostgreSQL server).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './queryable';

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

const FILE_RE = /^(\d{4})_([a-z0-9_]+)\.sql$/;
const LOCK_KEY = 4_742_001;

export function migrationsDir(): string {
  const candidates = [
    process.env.ACCOUNTS_MIGRATIONS_DIR,
    fileURLToPath(new URL('./migrations/', import.meta.url)),
    join(process.cwd(), 'server/accounts/migrations'),
  ];
  for (const dir of candidates) if (dir && existsSync(dir)) return dir;
  throw new Error('accounts migrations directory not found (set ACCOUNTS_MIGRATIONS_DIR)');
}

export function readMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .filter((f) => FILE_RE.test(f))
    .sort()
    .map((f) => {
      const m = FILE_RE.exec(f)!;
      return { version: m[1], name: m[2], sql: readFileSync(join(dir, f), 'utf8') };
    });
}

/** Returns the versions applied by this call. */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
