/** An archive database for tests: PGlite in a temporary directory, or a fresh PostgreSQL schema. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db } from '../../server/accounts/db';
import { migrate, readMigrations } from '../../server/accounts/migrate';
import { freshDataDir } from '../support/pgliteTemplate';

export type Backend = 'pglite' | 'postgres';
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDb {
  db: Db;
  /** an account with a username, as sign-up makes one */
  addAccount(username: string): Promise<string>;
  destroy(): Promise<void>;
}

/** `before`: apply only the migrations older than this version (a database with an earlier schema). */
export async function openTestDb(backend: Backend, opts: { before?: string } = {}): Promise<TestDb> {
  // PGlite: a copy of an initialised database (tests/support/pgliteTemplate.ts), not a new initdb
  const dataDir = backend === 'pglite' ? await freshDataDir('archive-') : mkdtempSync(join(tmpdir(), 'archive-'));
  const schema = backend === 'postgres' ? `archive_${process.pid}_${randomBytes(4).toString('hex')}` : 'public';
  const databaseUrl = backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  const db = await openDb({ dataDir, schema, ...(databaseUrl ? { databaseUrl } : {}) });
  await migrate(db, readMigrations().filter((m) => !opts.before || m.version < opts.before));
  return {
    db,
    async addAccount(username) {
      const id = randomUUID();
      await db.query(`INSERT INTO users (id, email, encrypted_password) VALUES ($1, $2, 'x')`, [id, `${id}@example.test`]);
      await db.query('INSERT INTO profiles (id, username) VALUES ($1, $2)', [id, username]);
      return id;
    },
    async destroy() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (backend === 'postgres') {
        const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
    },
  };
}
