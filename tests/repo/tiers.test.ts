/**
 * The unit tier (`npm run test:unit`) keeps its promise: none of its files, nor the test helpers
 * they import, starts a server, a browser, an engine or a database. A unit test that starts
 * one belongs in the integration tier (tests/tiers.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesOfTier, LONG_FILES, longFirst, longRank, testFiles, tierOf } from '../tiers';
import { ROOT } from '../support/root';

/** Module names whose import means a server, a browser, an engine or a database. */
const HEAVY_MODULE =
  /(^|\/)server\/app$|^uWebSockets\.js$|^playwright|^@electric-sql\/pglite|^pg$|(^|\/)server\/accounts|(^|\/)server\/ai\/(engine|service|index)|^stockfish|(^|\/)tests\/(server|ai)\/helpers$|(^|\/)tests\/e2e\//;
/** Starting a process by hand. */
const STARTS_PROCESS = /\b(spawn|fork|exec)\s*\(/;

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*(['"])([^'"]+)\1/g)].map((m) => m[2]);
}

/** What makes a test file (with the test helpers it imports) heavy, if anything. */
function heavyParts(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = STARTS_PROCESS.test(text) ? [`${file} starts a process`] : [];
  for (const spec of importsOf(text)) {
    const target = spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)).split('\\').join('/') : spec;
    if (HEAVY_MODULE.test(target)) found.push(`${file} imports ${spec}`);
    else if (target.startsWith('tests/')) found.push(...heavyParts(/\.tsx?$/.test(target) ? target : `${target}.ts`, seen));
  }
  return found;
}

describe('test tiers', () => {
  it('no unit-tier file starts a server, a browser, an engine, a database or a process', () => {
    const unit = filesOfTier('unit');
    expect(unit.length).toBeGreaterThan(20);
    expect(unit.flatMap((f) => heavyParts(f))).toEqual([]);
  });

  it('no background file starts one either: what it started would run at the lowest CPU priority', () => {
    const background = filesOfTier('background');
    expect(background).toEqual(['tests/chess/differential-1.test.ts', 'tests/chess/differential-2.test.ts']);
    expect(background.flatMap((f) => heavyParts(f))).toEqual([]);
  });

  it('the check sees the heavy tests for what they are', () => {
    expect(heavyParts('tests/server/game.test.ts')).toContain('tests/server/game.test.ts imports ./helpers');
    expect(heavyParts('tests/e2e/site.test.ts').length).toBeGreaterThan(0);
    expect(tierOf('tests/e2e/site.test.ts')).toBe('browser');
    expect(tierOf('tests/loadtest/k6-init-budget.test.ts')).toBe('exclusive');
    // a Chromium file that times the page's main thread runs alone
    expect(tierOf('tests/e2e/analysis.test.ts')).toBe('exclusive');
    expect(tierOf('tests/chess/differential-2.test.ts')).toBe('background');
    expect(tierOf('tests/chess/perft.test.ts')).toBe('integration');
  });

  it('each pattern of the long files that start first names a test file', () => {
    const files = testFiles();
    expect(LONG_FILES.filter((re) => !files.some((f) => re.test(f)))).toEqual([]);
    // the sequencer asks by the absolute path vitest has
    expect(longRank(join(ROOT, 'tests/chess/differential-1.test.ts'))).toBeGreaterThanOrEqual(0);
    expect(longRank(join(ROOT, 'tests/chess/fen.test.ts'))).toBe(-1);
  });

  it('the background lanes start before the long files that wait on processes, so they hold two workers from the start', () => {
    const differential = longRank(join(ROOT, 'tests/chess/differential-2.test.ts'));
    expect(differential).toBe(0);
    for (const waits of ['tests/server/npm-start.test.ts', 'tests/server/durable.test.ts', 'tests/loadtest/k6-scenarios.test.ts', 'tests/ai/engine-pool.test.ts']) {
      expect(longRank(join(ROOT, waits)), waits).toBeGreaterThan(differential);
    }
  });

  it("the sequencer's order: long files first, in the list's order; the rest as vitest gave them", () => {
    const vitestOrder = [
      'tests/chess/fen.test.ts',
      'tests/server/npm-start.test.ts',
      'tests/machines/gameLog.test.ts',
      'tests/chess/differential-2.test.ts',
      'tests/typecheck.test.ts',
      'tests/chess/differential-1.test.ts',
    ];
    expect(longFirst(vitestOrder, (f) => join(ROOT, f))).toEqual([
      'tests/chess/differential-2.test.ts',
      'tests/chess/differential-1.test.ts',
      'tests/server/npm-start.test.ts',
      'tests/typecheck.test.ts',
      'tests/chess/fen.test.ts',
      'tests/machines/gameLog.test.ts',
    ]);
  });
});
