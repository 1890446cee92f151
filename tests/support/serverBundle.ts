/**
 * Global set-up of the tiers that start the server as a process of its own: the server is
 * bundled once per run, as `npm run build` bundles it, and every process those tests start runs
 * that bundle, as `npm start` runs dist/server/main.js. Started through tsx instead, each process
 * compiled and loaded the TypeScript sources again, about 0.7 s of CPU more per start.
 *
 * Each tier writes its own file under dist/test-server/: `npm start`'s test rebuilds
 * dist/server/main.js while the others run, and a process must never load a half-written file.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

const ROOT = resolve(import.meta.dirname, '..', '..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server bundle the tests' server processes run (see tests/support/serverBundle.ts). */
    serverEntry: string;
  }
}

export default function setup(project: TestProject): void {
  const entry = join(ROOT, 'dist', 'test-server', project.name, 'main.js');
  const r = spawnSync(process.execPath, ['scripts/build-server.mjs', '--server-only', '--outfile', entry], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the server bundle for the ${project.name} tests did not build:\n${r.stdout}\n${r.stderr}`);
  project.provide('serverEntry', entry);
}
