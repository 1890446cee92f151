/**
 * Fresh data directories for tests that run the accounts on the embedded database (PGlite). A new
 * database costs an initdb, seconds of CPU in a child process (server/accounts/pglite-memory.ts);
 * here it is made once per machine and PGlite version, and each test gets a copy of it, which
 * takes a tenth of a second. The server opens such a directory as it opens one it created itself
 * (and applies its migrations to it, as ever). Tests of a first start on an empty directory use
 * an empty one instead.
 *
 * Tests that only need a site to run against (the browser tier) get a copy of a migrated one
 * (`migratedDataDir`), as a server's first start leaves its directory: a server process's first
 * migration took about a second of CPU of the three its start took (PostgreSQL's code paths
 * compiled afresh in each process), paid again by every file that starts a site.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../server/accounts/db';
import { migrate, readMigrations } from '../../server/accounts/migrate';
import { createDataDirApart } from '../../server/accounts/pglite-memory';
import { ROOT } from './root';

/** Where the templates live: one per PGlite version (a database is only opened by the version that made it). */
function templateDir(): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  return join(tmpdir(), `chess-test-pglite-${manifest.version}`);
}

/**
 * The template `dir`, made by `make` (given the database directory to create) if missing; two
 * test processes making it at once both succeed (the first rename wins).
 */
async function templateAt(dir: string, make: (pgDir: string) => Promise<void>): Promise<string> {
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  const building = mkdtempSync(`${dir}.building-`);
  try {
    await make(join(building, 'pg'));
    renameSync(join(building, 'pg'), dir);
  } catch (err) {
    if (!existsSync(join(dir, 'PG_VERSION'))) throw err;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** The initialised database, without the accounts' migrations. */
function bareTemplate(): Promise<string> {
  return templateAt(templateDir(), (pgDir) => createDataDirApart(pgDir, 'public'));
}

/** The migrations' versions and text, hashed: a migrated template is made again when they change. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const m of readMigrations()) hash.update(`${m.version}\0${m.name}\0${m.sql}\0`);
  return hash.digest('hex').slice(0, 12);
}

/** The initialised database with every migration applied. */
function migratedTemplate(): Promise<string> {
  return templateAt(`${templateDir()}-migrated-${migrationsHash()}`, async (pgDir) => {
    cpSync(await bare(), pgDir, { recursive: true });
    // openDb opens the database under <data dir>/pg
    const db = await openDb({ dataDir: join(pgDir, '..') });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
  });
}

let bareMade: Promise<string> | null = null;
let migratedMade: Promise<string> | null = null;
const bare = () => (bareMade ??= bareTemplate());

/** A copy of `template` as `pg` in a new directory named from `prefix`, under the system's temporary directory. */
function copyOf(template: string, prefix: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(template, join(dataDir, 'pg'), { recursive: true });
  return dataDir;
}

/** A new data directory (named from `prefix`, under the system's temporary directory) whose embedded database exists already. */
export async function freshDataDir(prefix: string): Promise<string> {
  return copyOf(await bare(), prefix);
}

/** A new data directory whose embedded database exists and has every migration applied, as a server's first start leaves it. */
export async function migratedDataDir(prefix: string): Promise<string> {
  return copyOf(await (migratedMade ??= migratedTemplate()), prefix);
}
