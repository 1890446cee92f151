/**
 * The k6 scripts are type-checked against @types/k6 (k6's own API, no DOM, no Node), with the
 * shared protocol types and the chess core's declarations. k6 itself cannot run here.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules/.bin/tsc');
const K6_TSCONFIG = join(ROOT, 'loadtest/k6/tsconfig.json');

async function tsc(project: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(TSC, ['-p', project, '--pretty', 'false'], { cwd: ROOT });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

// Inside the checkout, so the probes find node_modules/@types/k6 like the real config does.
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const scratch = mkdtempSync(join(ROOT, 'node_modules/.cache/k6-tsc-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project that extends the k6 tsconfig and checks one extra file. */
function projectWith(source: string): string {
  const file = join(scratch, `probe-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, source);
  const config = join(scratch, `tsconfig-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    config,
    JSON.stringify({ extends: K6_TSCONFIG, include: [relative(scratch, file), relative(scratch, join(ROOT, 'loadtest/k6/types'))] }),
  );
  return config;
}

describe('k6 scripts type-check against @types/k6', () => {
  it('the scenarios and helpers compile with zero errors', async () => {
    const { code, out } = await tsc(K6_TSCONFIG);
    expect(out.trim()).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('the check is real: a misuse of the k6 WebSocket API is reported', async () => {
    const { code, out } = await tsc(
      projectWith(`import { WebSocket } from 'k6/websockets';\nconst ws = new WebSocket(42);\nws.send({ not: 'text' });\n`),
    );
    expect(code).not.toBe(0);
    expect(out).toMatch(/TS2345/);
  }, 60_000);

  it('browser globals are not available to k6 scripts (no DOM library)', async () => {
    const { code, out } = await tsc(projectWith(`export const t: string = document.title;\n`));
    expect(code).not.toBe(0);
    expect(out).toMatch(/Cannot find name 'document'/);
  }, 60_000);

  it('a wrong protocol message is reported against machines/protocol/messages.ts', async () => {
    const { code, out } = await tsc(
      projectWith(
        `import type { ClientMessage } from '${join(ROOT, 'machines/protocol/messages.ts')}';\n` +
          `export const m: ClientMessage = { type: 'gameMove', payload: { gameId: 'g', move: { from: 'e2' } } };\n`,
      ),
    );
    expect(code).not.toBe(0);
    expect(out).toMatch(/'to'/);
  }, 60_000);
});
