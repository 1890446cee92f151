/**
 * Fresh data directories for tests that run the accounts on the embedded database (PGlite). A new
 * database costs an initdb, seconds of CPU in a child process (server/accounts/pglite-memory.ts);
 * here it is made once per machine and PGlite version, and each test gets a copy of it, which
 * takes a tenth of a second. The server opens such a directory as it opens one it created itself
 * (and applies its migrations to it, as ever). Tests of a first start on an empty directory use
 * an empty one instead.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataDirApart } from '../../server/accounts/pglite-memory';
import { ROOT } from './root';

/** Where the template lives: one per PGlite version (a database is only opened by the version that made it). */
function templateDir(): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  return join(tmpdir(), `chess-test-pglite-${manifest.version}`);
}

/** The template, made if missing; two test processes making it at once both succeed (the first rename wins). */
async function template(): Promise<string> {
  const dir = templateDir();
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  const building = mkdtempSync(`${dir}.building-`);
  try {
    await createDataDirApart(join(building, 'pg'), 'public');
    renameSync(join(building, 'pg'), dir);
  } catch (err) {
    if (!existsSync(join(dir, 'PG_VERSION'))) throw err;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

let made: Promise<string> | null = null;

/** A new data directory (named from `prefix`, under the system's temporary directory) whose embedded database exists already. */
export async function freshDataDir(prefix: string): Promise<string> {
  made ??= template();
  const source = await made;
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(source, join(dataDir, 'pg'), { recursive: true });
  return dataDir;
}
