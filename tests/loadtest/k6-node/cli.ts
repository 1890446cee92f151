/**
 * `npm run loadtest:node -- <scenario> [--vus N | --exec name=N,name=N] [--segment i/n] [-e NAME=value]…`
 *
 * Runs one of the k6 scenarios (loadtest/k6/scenarios/<scenario>.ts) without k6, in Node, with
 * the same stand-in the tests use: every player plays one game (no ramping, no DURATION), then
 * the script's own thresholds are evaluated. Prints a k6-like summary and exits 99 when a
 * threshold failed, as k6 does. Meant for a quick check against a running server:
 *
 *   npm run loadtest:node -- steady-play --vus 200 -e BASE_URL=http://localhost:3000
 *   npm run loadtest:node -- launch-rehearsal --exec lobby=20,play=100,reconnect=50,ai=5
 *
 * `--segment i/n` runs generator i (from 0) of n splitting the test the way k6's
 * `--execution-segment i/n:(i+1)/n` does: its share of the VUs, numbered as k6 numbers them.
 * The summary lists the generator's own thresholds apart from those that judge the server, and
 * the CPU both used during the run side by side: this process's own, with its event-loop delay,
 * and the server's `process_cpu_seconds_total` from its /metrics (when it answers).
 */
import { existsSync, readdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { GENERATOR_METRICS } from '../../../loadtest/k6/lib/generator-metrics';
import { aggregate, type ThresholdResult } from './thresholds';
import { runScenario } from './run-scenario';
import type { Segment } from './runtime';

function usage(message?: string): never {
  if (message) process.stderr.write(`${message}\n`);
  process.stderr.write('usage: npm run loadtest:node -- <scenario> [--vus N | --exec name=N,…] [--segment i/n] [-e NAME=value]…\n');
  process.exit(2);
}

const args = process.argv.slice(2);
const scenario = args.shift();
if (!scenario || scenario.startsWith('-')) usage();
const SCENARIO_DIR = resolve(import.meta.dirname, '../../../loadtest/k6/scenarios');
if (!existsSync(join(SCENARIO_DIR, `${scenario}.ts`))) {
  const known = readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
  usage(`no scenario "${scenario}"; there are: ${known.join(', ')}`);
}
const env: Record<string, string> = {};
let vus: number | Record<string, number> = 10;
let segment: Segment = { index: 0, count: 1 };
while (args.length > 0) {
  const a = args.shift()!;
  const value = args.shift() ?? usage(`${a} needs a value`);
  if (a === '--vus') {
    vus = Number(value);
    if (!Number.isInteger(vus) || vus < 1) usage(`--vus must be a whole number >= 1 (got "${value}")`);
  } else if (a === '--exec') {
    vus = {};
    for (const part of value.split(',')) {
      const [name, n] = part.split('=');
      if (!name || !Number.isInteger(Number(n))) usage(`--exec wants name=N,… (got "${value}")`);
      vus[name] = Number(n);
    }
  } else if (a === '--segment') {
    const m = /^(\d+)\/(\d+)$/.exec(value);
    if (!m || Number(m[1]) >= Number(m[2])) usage(`--segment wants i/n with 0 <= i < n (got "${value}")`);
    segment = { index: Number(m[1]), count: Number(m[2]) };
  } else if (a === '-e') {
    const i = value.indexOf('=');
    if (i <= 0) usage(`-e wants NAME=value (got "${value}")`);
    env[value.slice(0, i)] = value.slice(i + 1);
  } else usage(`unknown option ${a}`);
}
if (typeof vus === 'number' && env.VUS === undefined) env.VUS = String(vus);

/** The server's CPU seconds so far, from its /metrics; null when it does not answer. */
async function serverCpuSeconds(baseUrl: string): Promise<number | null> {
  try {
    // A production server shows /metrics only to its own machine or to the bearer of its token.
    const token = process.env.METRICS_TOKEN;
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const text = await (await fetch(`${baseUrl.replace(/\/+$/, '')}/metrics`, { headers, signal: AbortSignal.timeout(5_000) })).text();
    const m = /^process_cpu_seconds_total (\S+)$/m.exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

const baseUrl = env.BASE_URL ?? 'http://localhost:3000';
const serverCpu0 = await serverCpuSeconds(baseUrl);
/** The delay monitor's sampling interval, which its figures include and the summary takes off. */
const LOOP_RESOLUTION_MS = 10;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loopDelay.enable();
const cpu0 = process.cpuUsage();
const t0 = Date.now();
const run = await runScenario(scenario, env, vus, { staggerMs: 2, timeoutMs: 30 * 60_000, segment }).catch((err: unknown) => {
  // A bad setting stops the script in its init code, as in k6: show the message, not a stack.
  process.stderr.write(`${scenario}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
const seconds = (Date.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
loopDelay.disable();
const serverCpu1 = await serverCpuSeconds(baseUrl);
const share = (cpuSeconds: number) => `${cpuSeconds.toFixed(1)} s CPU, ${((cpuSeconds / seconds) * 100).toFixed(0)} % of a core`;
const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS).toFixed(0);
const out: string[] = [
  `\n${scenario}: ${seconds.toFixed(1)} s`,
  `  generator (this process): ${share((cpu.user + cpu.system) / 1e6)}; event-loop delay p50 ${ms(loopDelay.percentile(50))} ms, p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms`,
  `  server (its /metrics):    ${serverCpu0 === null || serverCpu1 === null ? 'no /metrics at BASE_URL' : share(serverCpu1 - serverCpu0)}\n`,
];
for (const [name, m] of [...run.metrics].sort(([a], [b]) => a.localeCompare(b))) {
  if (m.kind === 'trend') {
    const f = (agg: string) => aggregate(m, agg).toFixed(1);
    out.push(`  ${name.padEnd(22)} n=${m.values.length} avg=${f('avg')} med=${f('med')} p(95)=${f('p(95)')} p(99)=${f('p(99)')} max=${f('max')}`);
  } else if (m.kind === 'rate') {
    out.push(`  ${name.padEnd(22)} ${(aggregate(m, 'rate') * 100).toFixed(2)}% of ${m.values.length}`);
  } else {
    out.push(`  ${name.padEnd(22)} ${aggregate(m, 'count')}`);
  }
}
const line = (t: ThresholdResult) => `  ${t.ok ? '✓' : '✗'} ${t.metric} ${t.expression} (${t.value === null ? 'no data' : Number(t.value.toFixed(2))})`;
const ofGenerator = (t: ThresholdResult) => GENERATOR_METRICS.includes(t.metric);
out.push('\n  thresholds on the server:');
out.push(...run.thresholds.filter((t) => !ofGenerator(t)).map(line));
out.push('\n  thresholds on this load generator (if one fails, the figures above are suspect):');
out.push(...run.thresholds.filter(ofGenerator).map(line));
process.stdout.write(`${out.join('\n')}\n`);
process.exit(run.failed.length > 0 ? 99 : 0);
