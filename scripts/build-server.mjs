#!/usr/bin/env node
// `npm run build`: the client (vite build -> dist/client) and the server bundle
// (esbuild server/main.ts -> dist/server/main.js, node packages left external).
// The client build is skipped with a warning only while client/index.html does not exist.
// `--server-only` skips the client; `--outfile <path>` writes the server bundle elsewhere (the
// tests bundle the server once per run into a file of their own).
// Each build is skipped while its sources are as they were for the last one (a digest of their
// names and contents, kept beside the output): a restart with `npm start` builds only what
// changed (the client took 12-30 s to build again for nothing). `--force` builds anyway.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

/** What each build reads: the folders and files whose change makes it build again. */
const CLIENT_SOURCES = ['client', 'machines', 'vite.config.ts', 'server/http/compression.ts', 'tsconfig.json', 'package-lock.json'];
const SERVER_SOURCES = ['server', 'machines', 'scripts/build-server.mjs', 'tsconfig.json', 'package-lock.json'];

/** A digest of the names and contents of every file under `paths` (node_modules left out), and of NODE_ENV (Vite builds React's development build unless it is production). */
function digestOf(paths) {
  const hash = createHash('sha256');
  hash.update(`NODE_ENV=${process.env.NODE_ENV ?? ''}\0`);
  const walk = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== 'node_modules') walk(join(path, name));
      return;
    }
    hash.update(`${path}\0`);
    hash.update(readFileSync(path));
  };
  for (const path of paths) walk(path);
  return hash.digest('hex');
}

/** Runs `make` unless `output` exists and `stamp` holds the digest of `sources` as they are now; then stamps it. */
async function buildUnlessUnchanged(what, sources, output, stamp, make) {
  const digest = digestOf(sources);
  if (!force && existsSync(output) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
    console.log(`build: ${what} unchanged since its last build (${output})`);
    return;
  }
  await make();
  writeFileSync(stamp, digest);
}

const argv = process.argv.slice(2);
const args = new Set(argv);
const serverOnly = args.has('--server-only');
const force = args.has('--force');
const outfileAt = argv.indexOf('--outfile');
const outfile = outfileAt >= 0 ? argv[outfileAt + 1] : 'dist/server/main.js';
if (!outfile) {
  console.error('build: --outfile needs a path');
  process.exit(2);
}

if (!serverOnly) {
  if (existsSync('client/index.html')) {
    await buildUnlessUnchanged('the client', CLIENT_SOURCES, 'dist/client/index.html', 'dist/client.sources', () => {
      const r = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
      if (r.status !== 0) {
        console.error('build: the client build (vite build) failed');
        process.exit(r.status ?? 1);
      }
    });
  } else {
    console.warn('build: WARNING client/index.html does not exist yet; skipping the client build (the server will answer 503 for pages)');
  }
}

await buildUnlessUnchanged('the server', SERVER_SOURCES, outfile, `${outfile}.sources`, async () => {
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
});
