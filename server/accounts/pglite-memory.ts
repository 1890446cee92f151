/**
 * What the embedded database (PGlite) keeps resident in the server's process, and how to keep
 * it small (issue 24, item 8; BENCHMARKS.md, "Floods and memory at rest"):
 *
 * - Creating a data directory runs initdb inside PGlite's WebAssembly instance, which grows to
 *   about 600 MB; the instance's memory is garbage afterwards, but the server's V8 flags (no
 *   memory reducer) keep a quiet process from collecting it, so a first start sat at 850 MB for
 *   good. The directory is therefore created by a short-lived child process, and the server only
 *   ever opens an existing one. When the server's entry has said how to start itself
 *   (createDatabasesWithEntry), that child also applies the migrations, whose work leaves another
 *   20-40 MB of WebAssembly pages touched (WebAssembly memory never shrinks); otherwise (tests
 *   that create the accounts in their own process) a bare child runs initdb only.
 * - PostgreSQL's default shared_buffers (128 MB) end up resident in full in the WebAssembly
 *   memory; the accounts tables are a few MB, so 16 MB of buffers hold them many times over and
 *   save about 110 MB.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

export const PGLITE_SHARED_BUFFERS = '16MB';

/** PGlite's start parameters with the smaller shared buffers. */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}

/** The variables that make the server's entry create a database and exit (see server/main.ts). */
export const CREATE_DATABASE_ENV = 'CHESS_CREATE_DATABASE';
export const CREATE_DATABASE_SCHEMA_ENV = 'CHESS_CREATE_DATABASE_SCHEMA';

export interface ProcessEntry {
  command: string;
  args: string[];
}

let serverEntry: ProcessEntry | null = null;

/** Says how to start the server's own entry, which then creates and migrates new data directories. */
export function createDatabasesWithEntry(entry: ProcessEntry): void {
  serverEntry = entry;
}

/** The child's script: create (initdb) and close the database in argv[2] with PGlite from argv[1]. */
const CREATE_SCRIPT =
  "const { PGlite } = require(process.argv[1]); PGlite.create(process.argv[2]).then((db) => db.close()).catch((err) => { console.error(String(err && err.stack || err)); process.exit(1); });";

/** Creates the PGlite data directory `dir` (schema `schema`) in a child process unless it exists already. */
export async function createDataDirApart(dir: string, schema: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const child = serverEntry
    ? spawn(serverEntry.command, serverEntry.args, {
        env: { ...process.env, [CREATE_DATABASE_ENV]: dir, [CREATE_DATABASE_SCHEMA_ENV]: schema },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    : spawn(process.execPath, ['-e', CREATE_SCRIPT, createRequire(import.meta.url).resolve('@electric-sql/pglite'), dir], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`creating the embedded database in ${dir} failed (exit ${code}): ${stderr.trim()}`);
}
