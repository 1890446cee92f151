#!/usr/bin/env node
// `npm run build`: the client (vite build -> dist/client) and the server bundle
// (esbuild server/main.ts -> dist/server/main.js, node packages left external).
// The client build is skipped with a warning only while client/index.html does not exist.
// `--server-only` skips the client; `--outfile <path>` writes the server bundle elsewhere (the
// tests bundle the server once per run into a file of their own).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

const argv = process.argv.slice(2);
const args = new Set(argv);
const serverOnly = args.has('--server-only');
const outfileAt = argv.indexOf('--outfile');
const outfile = outfileAt >= 0 ? argv[outfileAt + 1] : 'dist/server/main.js';
if (!outfile) {
  console.error('build: --outfile needs a path');
  process.exit(2);
}

if (!serverOnly) {
  if (existsSync('client/index.html')) {
    const r = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
    if (r.status !== 0) {
      console.error('build: the client build (vite build) failed');
      process.exit(r.status ?? 1);
    }
  } else {
    console.warn('build: WARNING client/index.html does not exist yet; skipping the client build (the server will answer 503 for pages)');
  }
}

await build({
  entryPoints: ['server/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`build: ${outfile} written`);
