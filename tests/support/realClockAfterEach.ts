/**
 * A setup file of every tier (vite.config.ts): after each test the real clock is back, whatever
 * the test faked. It is a setup file because vitest runs those before every test file, also
 * where one worker runs several files in one module cache (isolate: false); a hook registered
 * when a helper module is imported would follow only the first file that imported it.
 */
import { afterEach, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
});
