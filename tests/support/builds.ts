/**
 * The builds the tests need, each made at most once per test run, with the build script that
 * `npm run build` runs:
 * - the site (`buildSite`): the client (vite build) and the server bundle dist/server/main.js,
 *   as `npm start` builds them, for the files that drive Chromium;
 * - a server bundle of the tests' own (`buildServerBundle`, dist/test-server/main.js) for the
 *   files that start server processes. It is not dist/server/main.js because `npm start`'s own
 *   test rebuilds that file while the others run, and a process must never load a half-written
 *   file.
 * Each tier that needs a build asks for it in its global set-up. vitest runs those one tier after
 * another in one process, and imports each tier's set-up afresh, so what was built is
 * remembered on `globalThis`: a second tier that asks gets the first one's build.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './root';

/** Where the tests' server processes start from (see above). */
const SERVER_BUNDLE = join(ROOT, 'dist', 'test-server', 'main.js');

const BUILT = Symbol.for('chess-site.tests.built');
type WithBuilt = typeof globalThis & { [BUILT]?: Set<string> };

/** Runs `what` unless this test run has already run it. */
function oncePerRun(what: string, run: () => void): void {
  const built = ((globalThis as WithBuilt)[BUILT] ??= new Set<string>());
  if (built.has(what)) return;
  run();
  built.add(what);
}

function buildScript(what: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(process.execPath, ['scripts/build-server.mjs', ...args], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`the ${what} did not build:\n${r.stdout}\n${r.stderr}`);
}

/** Builds the site as `npm start` does. `E2E_SKIP_BUILD=1` reuses the dist/ already there. */
export function buildSite(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  // NODE_ENV=production as under `npm start`: vitest sets NODE_ENV=test, which would make Vite
  // bundle React's development build
  oncePerRun('site', () => buildScript('site', [], { ...process.env, NODE_ENV: 'production' }));
}

/** Bundles the server for the tests' server processes; returns the bundle's path. */
export function buildServerBundle(): string {
  oncePerRun('server bundle', () => buildScript('server bundle', ['--server-only', '--outfile', SERVER_BUNDLE]));
  return SERVER_BUNDLE;
}
