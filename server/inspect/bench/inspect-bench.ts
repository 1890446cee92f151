/**
 * `npm run bench:inspect`: what the XState inspector costs the server, in CPU per relayed move.
 * The server load benchmark (loadtest/driver/bench.ts: simulated players in worker processes
 * against the real server process, its CPU read from /proc) runs with inspection off, with
 * INSPECT=1 and nobody watching, and with INSPECT=1 and one viewer reading the whole node's stream
 * from the relay; the three take turns, RUNS times, so that a noisy machine weighs on each alike.
 * Prints each run's server CPU per move and the medians, with each mode's ratio to "off".
 *
 *   PLAYERS=1000 SECONDS=20 RUNS=3 npm run bench:inspect
 *
 * The relay listens on INSPECT_PORT (default 3401).
 */
import { spawn, spawnSync } from 'node:child_process';
import WebSocket from 'ws';

const PLAYERS = Number(process.env.PLAYERS ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 20);
const WARMUP = Number(process.env.WARMUP ?? 10);
const RUNS = Number(process.env.RUNS ?? 3);
const RELAY_PORT = Number(process.env.INSPECT_PORT ?? 3401);
const ENTRY = 'dist/bench-inspect/main.js';
const MODES = ['off', 'on, nobody watching', 'on, one viewer of the node'] as const;
type Mode = (typeof MODES)[number];
const out = (s: string) => process.stdout.write(`${s}\n`);
/** CPU is what is measured here: the server benchmark's relay latency target is not this bench's. */
const NO_LATENCY_LIMIT_MS = 3_600_000;

/** A viewer of the whole node: connects once the relay is up and counts what it is sent. */
function watch(): { messages: () => number; stop: () => void } {
  let messages = 0;
  let stopped = false;
  let ws: WebSocket | null = null;
  const connect = () => {
    if (stopped) return;
    ws = new WebSocket(`ws://127.0.0.1:${RELAY_PORT}/`);
    ws.on('message', () => messages++);
    ws.on('error', () => undefined);
    ws.on('close', () => setTimeout(connect, 200));
  };
  connect();
  return { messages: () => messages, stop: () => { stopped = true; ws?.close(); } };
}

/** One server benchmark run in `mode`: the server's CPU per relayed move (µs) and the moves relayed. */
async function measure(mode: Mode): Promise<{ cpuUs: number; moves: number; viewed: number }> {
  const env = { ...process.env, BENCH_ENTRY: ENTRY, ...(mode === 'off' ? { INSPECT: '0' } : { INSPECT: '1', INSPECT_PORT: String(RELAY_PORT) }) };
  const viewer = mode === 'on, one viewer of the node' ? watch() : null;
  const args = ['--import', 'tsx', 'loadtest/driver/bench.ts', '--players', String(PLAYERS), '--duration', String(SECONDS), '--warmup', String(WARMUP), '--durable', 'interval', '--no-echo', '--p99', String(NO_LATENCY_LIMIT_MS)];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (d) => (text += d));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  viewer?.stop();
  if (code !== 0) throw new Error(`the server benchmark failed (${code}) in mode "${mode}":\n${text}`);
  // | players | journal | connects/s | games | moves relayed | relay p50/p99 ms | server CPU µs/move | …
  const row = text.split('\n').find((l) => l.startsWith(`| ${PLAYERS} |`));
  const cells = row?.split('|').map((c) => c.trim());
  if (!cells) throw new Error(`no result row in:\n${text}`);
  return { cpuUs: Number(cells[7]), moves: Number(cells[5]?.replace(/,/g, '')), viewed: viewer?.messages() ?? 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--server-only', '--outfile', ENTRY], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('server build failed');
  const results = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  out(`| run | inspection | moves relayed | server CPU µs/move | messages to the viewer |`);
  out(`|---|---|---|---|---|`);
  for (let run = 1; run <= RUNS; run++) {
    for (const mode of MODES) {
      const r = await measure(mode);
      results.get(mode)!.push(r.cpuUs);
      out(`| ${run} | ${mode} | ${r.moves} | ${r.cpuUs} | ${mode === 'on, one viewer of the node' ? r.viewed : '–'} |`);
    }
  }
  const off = median(results.get('off')!);
  out('');
  out(`Medians over ${RUNS} runs, ${PLAYERS} players, ${WARMUP} s warm-up then ${SECONDS} s measured:`);
  out('');
  out('| inspection | server CPU µs/move | to off |');
  out('|---|---|---|');
  for (const mode of MODES) {
    const m = median(results.get(mode)!);
    out(`| ${mode} | ${m} | ${(m / off).toFixed(2)}x |`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
