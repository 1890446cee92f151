import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressDir } from './server/http/compression.ts';
import { filesOfTier } from './tests/tiers.ts';
import { LongFirstSequencer } from './tests/sequencer.ts';

/** The integration and exclusive tiers' server processes run a bundle built once per run. */
const SERVER_BUNDLE = 'tests/support/serverBundle.ts';
/** The browser and exclusive tiers' Chromium files load the site built once per run. */
const SITE_BUILD = 'tests/support/siteBuild.ts';
/** Every tier's setup file: the real clock comes back after each test. */
const REAL_CLOCK = 'tests/support/realClockAfterEach.ts';
/** The first group's workers (see below). */
const FIRST_GROUP_WORKERS = 5;

/** The client build writes each file's brotli and gzip encodings beside it, so the server reads them instead of compressing at every start. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = precompressDir(outDir);
      this.info(`precompressed ${files} files (brotli, gzip)`);
    },
  };
}

// One config for the browser build (client/) and for vitest (tests/).
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react(), precompress()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/socket': { target: 'ws://localhost:3000', ws: true },
      '/auth': 'http://localhost:3000',
      '/rest': 'http://localhost:3000',
      '/config.json': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
      '/api': 'http://localhost:3000',
    },
  },
  // The test tiers (tests/tiers.ts). Projects in one groupOrder share the workers; a higher
  // groupOrder starts when the lower ones are done. Five workers for the first group on two
  // cores: the background tier's two lanes hold two of them from the start, at the lowest CPU
  // priority, and the unit and integration files share the other three. Most of those wait on
  // sockets, timers or child processes, so a third worker overlaps that waiting (two workers kept
  // 1.7 of the cores busy and took 188-209 s, three 1.9 and 161-177 s; vitest's default would be
  // one, availableParallelism - 1), and the background lanes use what CPU they leave: with the
  // differential games first at the same priority, the integration files waited 65 s for them
  // and then left the cores half idle. Two workers for the browser tier, whose Chromium files use
  // about a core each.
  // The unit, integration and browser tiers' files share their workers' module cache (isolate:
  // false): a fresh process per file took twice as long for the unit tier, cost the integration
  // tier about 57 of its 277 core-seconds (importing the server, uWS, pino, zod and XState again
  // for every file), and each browser file about 0.7 s (playwright-core and the harness). So a
  // test must leave no module state behind: each server it starts is its own instance, it gives
  // the journal its faults by the journal's options rather than by mocking node:fs, the real
  // clock comes back after each test (the setup file), and a browser file's site and Chromium
  // close with the file (tests/e2e/siteSession.ts). The background tier's files each have a
  // process of their own, which runs at the lowest priority and ends with the file.
  test: {
    root: '.',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits as long as a user would for what it polls (a page drawn after a reload, a
    // move relayed): vitest's default of one second is shorter than Chromium takes to load the
    // site while the browser tier keeps both cores busy, and a poll that passes ends at once.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    setupFiles: [REAL_CLOCK],
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      { extends: true, test: { name: 'unit', include: filesOfTier('unit'), isolate: false, maxWorkers: FIRST_GROUP_WORKERS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'integration', include: filesOfTier('integration'), globalSetup: [SERVER_BUNDLE], isolate: false, maxWorkers: FIRST_GROUP_WORKERS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'background', include: filesOfTier('background'), setupFiles: [REAL_CLOCK, 'tests/support/lowestPriority.ts'], isolate: true, maxWorkers: FIRST_GROUP_WORKERS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'browser', include: filesOfTier('browser'), globalSetup: [SITE_BUILD], isolate: false, maxWorkers: 2, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'exclusive', include: filesOfTier('exclusive'), globalSetup: [SERVER_BUNDLE, SITE_BUILD], maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
