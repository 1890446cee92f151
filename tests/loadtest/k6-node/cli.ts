/**
 * `npm run loadtest:node -- <scenario> [--vus N | --exec name=N,name=N] [-e NAME=value]…`
 *
 * Runs one of the k6 scenarios (loadtest/k6/scenarios/<scenario>.ts) without k6, in Node, with
 * the same stand-in the tests use: every player plays one game (no ramping, no DURATION), then
 * the script's own thresholds are evaluated. Prints a k6-like summary and exits 99 when a
 * threshold failed, as k6 does. Meant for a quick check against a running server:
 *
 *   npm run loadtest:node -- steady-play --vus 200 -e BASE_URL=http://localhost:3000
 *   npm run loadtest:node -- launch-rehearsal --exec lobby=20,play=100,reconnect=50,ai=5
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { aggregate } from './thresholds';
import { runScenario } from './run-scenario';

function usage(message?: string): never {
  if (message) process.stderr.write(`${message}\n`);
  process.stderr.write('usage: npm run loadtest:node -- <scenario> [--vus N | --exec name=N,…] [-e NAME=value]…\n');
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
  } else if (a === '-e') {
    const i = value.indexOf('=');
    if (i <= 0) usage(`-e wants NAME=value (got "${value}")`);
    env[value.slice(0, i)] = value.slice(i + 1);
  } else usage(`unknown option ${a}`);
}
if (typeof vus === 'number' && env.VUS === undefined) env.VUS = String(vus);

const t0 = Date.now();
const run = await runScenario(scenario, env, vus, { staggerMs: 2, timeoutMs: 30 * 60_000 }).catch((err: unknown) => {
  // A bad setting stops the script in its init code, as in k6: show the message, not a stack.
  process.stderr.write(`${scenario}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
const out: string[] = [`\n${scenario}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`];
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
out.push('\n  thresholds:');
for (const t of run.thresholds) out.push(`  ${t.ok ? '✓' : '✗'} ${t.metric} ${t.expression} (${t.value === null ? 'no data' : Number(t.value.toFixed(2))})`);
process.stdout.write(`${out.join('\n')}\n`);
process.exit(run.failed.length > 0 ? 99 : 0);
