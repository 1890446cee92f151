/**
 * `npm run bench:memory`: the server's memory at rest (issue 24, item 8), the built server as
 * `npm start` runs it (its own node flags), with accounts on the embedded database and the AI on:
 *
 *   first start   on an empty data directory, 5 s after its 'Ready: …' line
 *   normal start  on the same directory again, 5 s after ready, and after the engines' idle time
 *   floods        3,000 sockets from one address, then 1,000 bad-signature and 300 valid
 *                 identifications from 100 addresses; right after, and 20 s later
 *
 * Each reading: the main process's resident memory (VmRSS), V8's heap and external memory
 * (/metrics), and the engine processes (count and total RSS). Target: main process under
 * 250 MB after start, first start included.
 *
 *   tsx loadtest/memory/bench.ts [--runs 3] [--server built|tsx] [--idle-wait 70] [--malloc-env off]
 *
 * --malloc-env off starts the server without the allocator settings it runs with
 * (SERVER_MALLOC_ENV in server/nodeFlags.ts), to see what they change.
 *
 * The server is built first (server only) unless BENCH_ENTRY names a build. Linux only (/proc).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_MALLOC_ENV } from '../../server/nodeFlags';
import { floodChild, log, opt, sleep, startServer, tokens, type ServerUnderTest } from '../flood/flooding';

const MB = 1024 * 1024;
const SETTLE_MS = 5000;

interface Reading {
  label: string;
  rssMB: number;
  heapMB: number;
  externalMB: number;
  engines: number;
  enginesMB: number;
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? (Number(m[1]) * 1024) / MB : NaN;
}

/** The server's child processes (the engines; the database's creator has exited by ready). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function metric(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const m = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
  return m ? Number(m[1]) / MB : NaN;
}

async function read(label: string, server: ServerUnderTest): Promise<Reading> {
  const pid = server.proc.pid!;
  const engines = childrenOf(pid);
  const r: Reading = {
    label,
    rssMB: rssOf(pid),
    heapMB: await metric(server.port, 'nodejs_heap_size_total_bytes'),
    externalMB: await metric(server.port, 'nodejs_external_memory_bytes'),
    engines: engines.length,
    enginesMB: engines.reduce((sum, p) => sum + (rssOf(p) || 0), 0),
  };
  log(
    `  ${label.padEnd(34)} main RSS ${r.rssMB.toFixed(0)} MB (V8 heap ${r.heapMB.toFixed(0)}, external ${r.externalMB.toFixed(0)}); ` +
      `${r.engines} engine process(es), ${r.enginesMB.toFixed(0)} MB`,
  );
  return r;
}

async function stop(server: ServerUnderTest): Promise<void> {
  server.proc.kill('SIGTERM');
  await new Promise((r) => server.proc.once('exit', r));
}

/** 3,000 sockets from one address, then the identification floods from 100 addresses. */
async function floods(server: ServerUnderTest): Promise<void> {
  const base = `http://127.0.0.1:${server.port}`;
  const url = `ws://127.0.0.1:${server.port}/socket`;
  const t = await tokens(base);
  const many = Array.from({ length: 100 }, (_, i) => `127.0.1.${i + 1}`);
  const connections = await (await floodChild())({ url, count: 3000, sources: ['127.0.0.1'], userId: t.userId, token: t.badSignature });
  const bad = await (await floodChild())({ url, count: 1000, sources: many, userId: t.userId, token: t.badSignature });
  const valid = await (await floodChild())({ url, count: 300, sources: many, userId: t.userId, token: t.valid });
  log(`  floods: 3,000 sockets from one address: ${connections.opened} opened, ${connections.refused} refused; ` + `1,000 bad from 100 addresses: ${bad.identifyFailed} failed, ${bad.otherErrors.identify_rate_limited ?? 0} rate-limited; ` + `300 valid: ${valid.identified} identified`);
}

/** The server's environment: the AI on, and the allocator settings removed with --malloc-env off. */
function serverEnv(): NodeJS.ProcessEnv {
  const off = opt('malloc-env', 'on') === 'off';
  return { AI_ENABLED: '1', ...(off ? Object.fromEntries(Object.keys(SERVER_MALLOC_ENV).map((k) => [k, undefined])) : {}) };
}

async function oneRun(mode: string, idleWaitS: number): Promise<Reading[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'memory-data-'));
  const readings: Reading[] = [];
  let server = await startServer(mode, serverEnv(), dataDir);
  await sleep(SETTLE_MS);
  readings.push(await read(`first start (ready in ${(server.readyMs / 1000).toFixed(1)} s)`, server));
  await stop(server);
  server = await startServer(mode, serverEnv(), dataDir);
  try {
    await sleep(SETTLE_MS);
    readings.push(await read('normal start', server));
    await sleep(Math.max(0, idleWaitS * 1000 - SETTLE_MS));
    readings.push(await read(`normal start + ${idleWaitS} s (engines idle)`, server));
    await floods(server);
    readings.push(await read('right after the floods', server));
    await sleep(20_000);
    readings.push(await read('20 s after the floods', server));
  } finally {
    await stop(server);
  }
  return readings;
}

async function main(): Promise<void> {
  const runs = Math.max(1, Number(opt('runs', '3')));
  const mode = opt('server', 'built');
  const idleWaitS = Number(opt('idle-wait', '70'));
  if (mode === 'built' && !process.env.BENCH_ENTRY) execFileSync(process.execPath, ['scripts/build-server.mjs', '--server-only'], { stdio: 'inherit' });
  const all: Reading[][] = [];
  for (let r = 0; r < runs; r++) {
    log(`run ${r + 1}/${runs}`);
    all.push(await oneRun(mode, idleWaitS));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  log(`\nmedians over ${runs} run(s), allocator settings ${opt('malloc-env', 'on')}:`);
  for (let i = 0; i < all[0].length; i++) {
    const col = (k: keyof Omit<Reading, 'label'>) => median(all.map((run) => run[i][k] as number));
    log(
      `  ${all[0][i].label.replace(/ \(ready in .*\)/, '').padEnd(34)} main RSS ${col('rssMB').toFixed(0)} MB (V8 heap ${col('heapMB').toFixed(0)}, external ${col('externalMB').toFixed(0)}); ` +
        `${col('engines')} engine(s), ${col('enginesMB').toFixed(0)} MB`,
    );
  }
  const atStart = Math.max(median(all.map((run) => run[0].rssMB)), median(all.map((run) => run[1].rssMB)));
  log(atStart < 250 ? 'ok: main process under 250 MB after start, first start included' : `over target: ${atStart.toFixed(0)} MB after start (target 250)`);
}

void main();
