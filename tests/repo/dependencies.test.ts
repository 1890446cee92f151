/**
 * The import graph stays a graph of layers (npm run check:deps prints the same report): no
 * import cycle anywhere in server/, machines/ or client/, type imports included, and machines/
 * (the rules the browser and the server share) imports nothing from server/ or client/. The
 * rules are in .dependency-cruiser.cjs; dependency-cruiser reads the sources, nothing runs.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root';

const SOURCES = ['server', 'machines', 'client'];
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

/** The violations dependency-cruiser reports for `sources` under the project's rules. */
async function violationsOf(sources: string[]): Promise<string[]> {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const { output } = await cruise(sources, { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true });
    const result = output as ICruiseResult;
    return result.summary.violations
      .filter((v) => v.rule.severity !== 'ignore')
      .map((v) => `${v.rule.name}: ${[v.from, ...(v.cycle?.map((c) => c.name) ?? [v.to])].join(' -> ')}`);
  } finally {
    process.chdir(cwd);
  }
}

describe('the import graph', () => {
  it('has no import cycle and machines/ imports nothing from server/ or client/', async () => {
    expect(await violationsOf(SOURCES)).toEqual([]);
  }, 60_000);

  it('sees a cycle for what it is, type imports included', async () => {
    const fixtures = 'tests/repo/fixtures/imports';
    const found = await violationsOf([fixtures]);
    expect(found).toContain(`no-circular: ${fixtures}/a.ts -> ${fixtures}/b.ts -> ${fixtures}/a.ts`);
  }, 60_000);
});
