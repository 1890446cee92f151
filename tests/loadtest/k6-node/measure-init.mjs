// Child process of init-cost.ts, run as `node --jitless --single-threaded --expose-gc`:
// evaluates each script (an IIFE bundle) in fresh V8 contexts, the way k6 evaluates a compiled
// script once per virtual user, and prints the CPU time and memory each evaluation added, less
// those of an empty script. One run is one sample of every script: init-cost.ts takes several
// runs and keeps the least CPU time and the median memory. argv: contexts-per-sample:file for
// each script.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const jobs = process.argv.slice(2).map((arg) => {
  const i = arg.indexOf(':');
  return { contexts: Number(arg.slice(0, i)), file: arg.slice(i + 1) };
});
const GLOBALS = { __ENV: {}, __VU: 0, __ITER: 0, console };

/**
 * Every context stays reachable to the end of the run: one freed during a later measurement
 * would hand its memory back inside that measurement and make it look smaller. (Each full
 * collection walks all of them, which is why a run measures each script once.)
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

const scripts = [
  { script: new vm.Script('var script = (function () { return {}; })();'), contexts: 20 },
  ...jobs.map(({ contexts, file }) => ({ script: new vm.Script(readFileSync(file, 'utf8'), { filename: file }), contexts })),
];
const [empty, ...measured] = scripts.map(({ script, contexts }) => perContext(script, contexts));
const out = {};
jobs.forEach(({ file }, i) => (out[file] = { ms: measured[i].ms - empty.ms, kb: measured[i].kb - empty.kb }));
process.stdout.write(JSON.stringify(out));
