/**
 * `npm run build` (and so `npm start`) builds only what changed since its last build: a restart
 * with unchanged sources starts at once instead of building the client and the server again.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root';

function buildServer(outfile: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, ['scripts/build-server.mjs', '--server-only', '--outfile', outfile, ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('the build', () => {
  it('skips a bundle whose sources are unchanged since it was built, and builds it again when it is missing or forced', () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'build-')), 'main.js');
    expect(buildServer(outfile)).toContain(`build: ${outfile} written`);
    const written = statSync(outfile).mtimeMs;
    expect(buildServer(outfile)).toContain('build: the server unchanged since its last build');
    expect(statSync(outfile).mtimeMs).toBe(written);
    expect(buildServer(outfile, '--force')).toContain(`build: ${outfile} written`);
    rmSync(outfile);
    expect(buildServer(outfile)).toContain(`build: ${outfile} written`);
  });
});
