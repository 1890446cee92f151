/**
 * The whole project type-checks under strict TypeScript (tsconfig.json): client, server,
 * machines, tests and scripts. A type error anywhere fails the suite.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from './support/root';

it('tsc -p tsconfig.json reports no errors', async () => {
  let out = '';
  let code = 0;
  try {
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], { cwd: ROOT });
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    code = typeof err.code === 'number' ? err.code : 1;
    out = `${err.stdout ?? ''}${err.stderr ?? ''}`;
  }
  expect(out).toBe('');
  expect(code).toBe(0);
}, 120_000);
