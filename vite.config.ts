import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { filesOfTier } from './tests/tiers.ts';

// One config for the browser build (client/) and for vitest (tests/).
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react()],
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
  // groupOrder starts when the lower ones are done. Two workers: on two cores most files wait on
  // sockets, timers or child processes, so two at a time overlap that waiting (vitest's default
  // would be one, availableParallelism - 1). The unit tier's files share their workers' module
  // cache (isolate: false): they are pure, each restores what it stubs, and a fresh process per
  // file took twice as long.
  test: {
    root: '.',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: filesOfTier('unit'), isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'integration', include: filesOfTier('integration'), maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'browser', include: filesOfTier('browser'), globalSetup: ['tests/e2e/globalSetup.ts'], maxWorkers: 2, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'exclusive', include: filesOfTier('exclusive'), maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
