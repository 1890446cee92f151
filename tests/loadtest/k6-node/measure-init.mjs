// Child process of init-cost.ts, run as `node --jitless --single-threaded --expose-gc`:
// evaluates each script (an IIFE bundle) in fresh V8 contexts, the way k6 evaluates a compiled
// script once per virtual user, and prints the CPU time and memory each evaluation added,
// less those of an empty script. argv: samples, then contexts-per-sample:file for each script.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const samples = Number(process.argv[2]);
const jobs = process.argv.slice(3).map((arg) => {
  const i = arg.indexOf(':');
  return { contexts: Number(arg.slice(0, i)), file: arg.slice(i + 1) };
});
const GLOBALS = { __ENV: {}, __VU: 0, __ITER: 0, console };

/**
 * Every context stays reachable to the end: one freed during a later measurement would hand
 * its memory back inside that measurement and make it look smaller.
 */
const kept = [];

function perContext(script, contexts) {
  const warmUp = vm.createContext({ ...GLOBALS });
  script.runInContext(warmUp); // compiles once, as k6 does before its VUs
  kept.push(warmUp);
  const ctxs = Array.from({ length: contexts }, () => vm.createContext({ ...GLOBALS }));
  globalThis.gc();
  globalThis.gc();
  const m0 = process.memoryUsage();
  const t0 = process.cpuUsage();
  for (const c of ctxs) script.runInContext(c);
  const t = process.cpuUsage(t0);
  globalThis.gc();
  globalThis.gc();
  const m1 = process.memoryUsage();
  const bytes = m1.heapUsed - m0.heapUsed + (m1.external - m0.external);
  kept.push(...ctxs);
  return { ms: (t.user + t.system) / 1000 / contexts, kb: bytes / 1024 / contexts };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * The samples are taken round by round (each script once per round, the empty one included), so
 * a passing disturbance of the machine falls on one sample of several scripts, which the median
 * drops, rather than on every sample of one script (which would make it look dearer than the
 * reference it is judged against).
 */
function measureAll(scripts) {
  const runs = scripts.map(() => []);
  for (let round = 0; round < samples; round++) {
    scripts.forEach(({ script, contexts }, i) => runs[i].push(perContext(script, contexts)));
  }
  return runs.map((r) => ({ ms: median(r.map((x) => x.ms)), kb: median(r.map((x) => x.kb)) }));
}

const scripts = [
  { script: new vm.Script('var script = (function () { return {}; })();'), contexts: 20 },
  ...jobs.map(({ contexts, file }) => ({ script: new vm.Script(readFileSync(file, 'utf8'), { filename: file }), contexts })),
];
const [empty, ...measured] = measureAll(scripts);
const out = {};
jobs.forEach(({ file }, i) => (out[file] = { ms: measured[i].ms - empty.ms, kb: measured[i].kb - empty.kb }));
process.stdout.write(JSON.stringify(out));
