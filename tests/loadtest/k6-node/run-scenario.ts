/**
 * Runs a k6 scenario script of loadtest/k6/scenarios in Node, at a small scale, against a real
 * server: esbuild bundles it with k6's modules replaced by the stand-ins in this folder
 * (`ws` sockets, Node timers, recorded metrics) and the chess core taken from source. Every
 * simulated VU runs the script's default function once; the run ends when no socket or timer
 * is left, and the script's own thresholds are evaluated on what was recorded.
 *
 * The scenario code under test is exactly what k6 runs; only k6's runtime is stood in for,
 * because no k6 binary can be installed here.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { lightChessCore } from '../../../scripts/build-k6';
import { evaluate, type ThresholdResult } from './thresholds';
import { record, resetRuntime, runtime, vusInSegment, whenIdle, type K6Quirks, type MetricSamples, type Segment } from './runtime';
import { ROOT } from '../../support/root';

const HERE = import.meta.dirname;

const SHIMS: Record<string, string> = {
  k6: join(HERE, 'shim-k6.ts'),
  'k6/metrics': join(HERE, 'shim-metrics.ts'),
  'k6/timers': join(HERE, 'shim-timers.ts'),
  'k6/websockets': join(HERE, 'shim-websockets.ts'),
  'k6/experimental/websockets': join(HERE, 'shim-websockets.ts'),
  'k6/execution': join(HERE, 'shim-execution.ts'),
};

const k6Stand_in: Plugin = {
  name: 'k6-stand-in',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
      const path = SHIMS[args.path];
      if (!path) return { errors: [{ text: `no stand-in for ${args.path}` }] };
      return { path };
    });
  },
};

export interface ScenarioRun {
  thresholds: ThresholdResult[];
  failed: ThresholdResult[];
  metrics: Map<string, MetricSamples>;
  /** sum of a counter, number of samples of a trend */
  count(metric: string, tags?: Record<string, string>): number;
  samples(metric: string): number[];
}

let serial = 0;

export type ScenarioModule = Record<string, unknown> & {
  options: {
    scenarios?: Record<string, { exec?: string; executor: string }>;
    thresholds?: Record<string, (string | { threshold: string })[]>;
  };
};

/** Bundles a scenario with the k6 stand-ins and imports it (its init code runs with `env`). */
export async function loadScenario(scenario: string, env: Record<string, string>): Promise<ScenarioModule> {
  const outDir = join(ROOT, 'node_modules/.cache/k6-node');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${scenario}-${process.pid}-${serial++}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'loadtest/k6/scenarios', `${scenario}.ts`)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outfile,
    // The chess core as the k6 build has it (from source, with the light slider module).
    plugins: [k6Stand_in, lightChessCore],
    logLevel: 'silent',
  });
  const g = globalThis as unknown as Record<string, unknown>;
  g.__ENV = { ...env };
  g.__VU = 0;
  g.__ITER = 0;
  return (await import(pathToFileURL(outfile).href)) as ScenarioModule;
}

/** Whether the k6 scenario that runs `exec` uses an arrival-rate executor. */
function arrivalRate(mod: ScenarioModule, exec: string): boolean {
  return Object.values(mod.options.scenarios ?? {}).some((sc) => (sc.exec ?? 'default') === exec && sc.executor.endsWith('arrival-rate'));
}

export async function runScenario(
  scenario: string,
  env: Record<string, string>,
  /**
   * VUs of the default function, or VUs per exported function (started group after group), in
   * the whole test: with a segment, this generator runs its share of each.
   */
  vus: number | Record<string, number>,
  opts: { staggerMs?: number; groupGapMs?: number; timeoutMs?: number; quirks?: K6Quirks; segment?: Segment } = {},
): Promise<ScenarioRun> {
  const segment = opts.segment ?? { index: 0, count: 1 };
  resetRuntime(opts.quirks, segment);
  const mod = await loadScenario(scenario, env);
  const g = globalThis as unknown as Record<string, unknown>;

  // k6 runs setup() once (per generator) and hands its result to every iteration.
  const data = typeof mod.setup === 'function' ? (mod.setup as () => unknown)() : undefined;
  const groups = typeof vus === 'number' ? { default: vus } : vus;
  let vu = 0;
  for (const [exec, total] of Object.entries(groups)) {
    const fn = mod[exec];
    if (typeof fn !== 'function') throw new Error(`${scenario} exports no function ${exec}`);
    // Every arrival is started here: k6's dropped_iterations of an arrival-rate scenario is 0.
    if (arrivalRate(mod, exec)) record('dropped_iterations', 'counter', 0);
    const n = vusInSegment(total, segment);
    for (let i = 0; i < n; i++) {
      g.__VU = ++vu;
      g.__ITER = 0;
      (fn as (data: unknown) => void)(data);
      if (opts.staggerMs) await new Promise((r) => setTimeout(r, opts.staggerMs));
    }
    if (opts.groupGapMs) await new Promise((r) => setTimeout(r, opts.groupGapMs));
  }
  const idle = whenIdle();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    idle,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`scenario ${scenario} still busy after ${timeoutMs} ms: ${JSON.stringify({ sockets: runtime().liveSockets, timers: runtime().pendingTimers })}`)), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));

  const metrics = new Map(runtime().metrics);
  const thresholds = evaluate(mod.options.thresholds ?? {}, metrics);
  return {
    thresholds,
    failed: thresholds.filter((t) => !t.ok),
    metrics,
    count(metric, tags) {
      const m = metrics.get(metric);
      if (!m) return 0;
      let n = 0;
      m.values.forEach((v, i) => {
        if (tags && !Object.entries(tags).every(([k, val]) => m.tags[i][k] === val)) return;
        n += m.kind === 'counter' ? v : 1;
      });
      return n;
    },
    samples(metric) {
      return metrics.get(metric)?.values.slice() ?? [];
    },
  };
}
