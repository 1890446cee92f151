import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

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
    },
  },
  test: {
    root: '.',
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
