/**
 * Memory at rest (issue 24): the real server process on an empty data directory, with the
 * embedded accounts database. A first start used to sit at about 850 MB resident (the database's
 * one-time set-up kept in the process). The targets (under 250 MB for the built server) are
 * measured by `npm run bench:memory`; this run under tsx, whose loader adds its own tens of MB,
 * holds the first start to a bound only the old behaviour breaks.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProcess } from './serverProcess';

const MB = 1024 * 1024;

async function residentBytes(url: string): Promise<number> {
  const text = await (await fetch(url + '/metrics')).text();
  return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1]);
}

describe('memory at rest', () => {
  it('a first start on an empty data directory does not keep the database set-up in the server process', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memory-first-start-'));
    const first = await startProcess({ ACCOUNTS_ENABLED: '1', DATA_DIR: dataDir });
    try {
      const rss = await residentBytes(first.url);
      expect(rss).toBeGreaterThan(50 * MB);
      expect(rss).toBeLessThan(450 * MB);
    } finally {
      first.child.kill('SIGTERM');
      await first.exit;
    }
  });
});
