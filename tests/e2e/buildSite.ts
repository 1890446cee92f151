/**
 * Builds the site as `npm start` does: the client (vite build) and the server bundle
 * (dist/server/main.js). `E2E_SKIP_BUILD=1` reuses the dist/ already there.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The repository's root, where the build runs. */
export const ROOT = join(import.meta.dirname, '..', '..');

export function build(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  // NODE_ENV=production as under `npm start`: vitest sets NODE_ENV=test, which would make Vite
  // bundle React's development build
  const r = spawnSync('node', ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}
