/**
 * What initialising one k6 virtual user costs, measured without k6 (none can be installed
 * here): each scenario is bundled as k6 gets it (light chess core, ES2017) with k6's modules
 * stubbed (init-stubs.ts), and evaluated in fresh contexts of `node --jitless` (V8's
 * interpreter, the closest thing to k6's) by measure-init.mjs.
 *
 * The budget. The target in k6 is at most 10 ms of CPU and 1 MB per VU. The one k6 figure we
 * have is for the chess core with its magic slider tables: 0.71 s for `k6 inspect` of a script
 * importing only that core against 0.01 s for an empty one (0.70 s), and 2.7-2.9 MB per VU
 * (k6 v0.48). Almost all of that is building the magic tables, the module this measurement
 * also takes as its reference (machines/chess/sliders.ts alone). Charging k6's whole 0.70 s and
 * 2.9 MB to that module alone gives the largest ratio k6/proxy, hence the strictest budget:
 *
 *   budget_ms = reference_ms × 10 ms / 700 ms        budget_kb = reference_kb × 1 MB / 2.9 MB
 *
 * Both sides are measured in the same run on the same machine, so a slow or busy machine
 * scales the reference and the bundles alike.
 *
 *   npm run loadtest:init-cost     prints the table (docs/operations.md has one)
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { CORE_ENTRY, CORE_SLIDERS, K6_TARGET, chessCore, k6Scenarios } from '../../../scripts/build-k6';
import { percentile } from './thresholds';
import { ROOT } from '../../support/root';

const OUT = join(ROOT, 'node_modules/.cache/k6-init-cost');

/** k6's measurement of the chess core with magic tables (see above), and item 1's targets. */
export const K6_REFERENCE = { ms: 700, kb: 2.9 * 1024 };
export const K6_TARGET_PER_VU = { ms: 10, kb: 1024 };

const k6Stubs: Plugin = {
  name: 'k6-init-stubs',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, () => ({ path: join(import.meta.dirname, 'init-stubs.ts') }));
  },
};

async function bundle(name: string, entry: string, light: boolean): Promise<string> {
  const outfile = join(OUT, `${name}.js`);
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: 'script', // the exports stay reachable, as a k6 VU keeps its module's
    platform: 'neutral',
    target: K6_TARGET,
    plugins: [k6Stubs, chessCore(light)],
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

export interface InitCost {
  ms: number;
  kb: number;
}

export interface InitCostReport {
  /** per light bundle: the scenarios and the chess core alone */
  bundles: Record<string, InitCost>;
  /** steady play with the magic-table core, as the bundles were before */
  magicSteadyPlay: InitCost;
  reference: InitCost;
  budget: InitCost;
}

/**
 * Measures every light bundle in `contexts` fresh contexts per sample (the heavy magic-table
 * bundles in a quarter as many: each takes over 100 ms), `samples` times, keeping the least CPU
 * time and the median memory.
 */
export async function measureInitCost(opts: { contexts?: number; samples?: number } = {}): Promise<InitCostReport> {
  const contexts = opts.contexts ?? 20;
  const heavy = Math.max(2, Math.round(contexts / 4));
  mkdirSync(OUT, { recursive: true });
  const files: Record<string, string> = {};
  for (const entry of k6Scenarios()) files[basename(entry, '.ts')] = await bundle(basename(entry, '.ts'), entry, true);
  files['chess core'] = await bundle('chess-core', CORE_ENTRY, true);
  const magic = await bundle('steady-play-magic', join(ROOT, 'loadtest/k6/scenarios/steady-play.ts'), false);
  const reference = await bundle('magic-sliders', CORE_SLIDERS, false);
  // One child process per sample, each measuring every script once: a passing disturbance of the
  // machine falls on one sample of several scripts, which the other samples outvote, rather than
  // on every sample of one script (which would make it look dearer than the reference it is
  // judged against); and each child keeps only its own contexts alive, so its collections stay
  // short.
  const jobs = [{ contexts: heavy, file: reference }, { contexts: heavy, file: magic }, ...Object.values(files).map((file) => ({ contexts, file }))];
  const runs: Record<string, InitCost>[] = [];
  for (let sample = 0; sample < (opts.samples ?? 3); sample++) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--jitless', '--single-threaded', '--expose-gc', join(import.meta.dirname, 'measure-init.mjs'), ...jobs.map((j) => `${j.contexts}:${j.file}`)],
      { cwd: ROOT, maxBuffer: 1 << 20 },
    );
    runs.push(JSON.parse(stdout) as Record<string, InitCost>);
  }
  // CPU time is the fastest sample's: a busy machine only ever adds to it (the reference swung
  // from 126 to 209 ms between runs of a loaded suite while its medians judged the bundles, so a
  // disturbance on the bundles' side failed a bundle far under budget). Memory does not drift
  // that way: its median.
  const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
  const measured = Object.fromEntries(
    jobs.map(({ file }) => [file, { ms: Math.min(...runs.map((r) => r[file].ms)), kb: median(runs.map((r) => r[file].kb)) }]),
  );
  const ref = measured[reference];
  return {
    bundles: Object.fromEntries(Object.entries(files).map(([name, f]) => [name, measured[f]])),
    magicSteadyPlay: measured[magic],
    reference: ref,
    budget: {
      ms: (ref.ms * K6_TARGET_PER_VU.ms) / K6_REFERENCE.ms,
      kb: (ref.kb * K6_TARGET_PER_VU.kb) / K6_REFERENCE.kb,
    },
  };
}

/** The report as a Markdown table, with each figure scaled to k6 by the same ratio. */
export function formatInitCost(r: InitCostReport): string {
  const toK6 = (c: InitCost) => ({ ms: (c.ms * K6_REFERENCE.ms) / r.reference.ms, kb: (c.kb * K6_REFERENCE.kb) / r.reference.kb });
  const row = (name: string, c: InitCost) => {
    const k = toK6(c);
    return `| ${name} | ${c.ms.toFixed(2)} ms | ${c.kb.toFixed(0)} KB | ≤ ${k.ms.toFixed(1)} ms | ≤ ${(k.kb / 1024).toFixed(2)} MB |`;
  };
  return [
    '| Per virtual user | CPU, node --jitless | Memory, node --jitless | CPU in k6 (estimate) | Memory in k6 (estimate) |',
    '|---|---|---|---|---|',
    row('reference: magic slider tables alone', r.reference),
    row('steady-play with the magic-table core (before)', r.magicSteadyPlay),
    ...Object.entries(r.bundles).map(([name, c]) => row(name, c)),
    `| budget (10 ms, 1 MB in k6) | ${r.budget.ms.toFixed(2)} ms | ${r.budget.kb.toFixed(0)} KB | 10 ms | 1 MB |`,
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  process.stdout.write(`${formatInitCost(await measureInitCost({ contexts: 20, samples: 5 }))}\n`);
}
