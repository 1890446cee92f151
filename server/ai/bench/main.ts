/**
 * npm run bench:ai -- [flags]
 *
 *   --only ladder|latency|throughput   run one part (default: all three)
 *   --games N            ladder games per pair (default 40)
 *   --pairs 1-0,2-1      ladder pairs upper-lower, 0 = greedy bot (default: all ten)
 *   --movetime-scale X   multiply every level's movetime in the ladder (default 1)
 *   --engine native|wasm engine for the ladder (default: as the product chooses)
 *   --replies N          latency samples per level (default 30)
 *   --concurrent N       games for the throughput part (default 50)
 *   --seconds S          throughput measuring time (default 20)
 *   --seed N             random seed (default 1)
 *
 * Prints Markdown tables (for BENCHMARKS.md). Each part compares with a peer in the same run:
 * the ladder compares each level with the one below, latency and throughput compare the
 * native engine with the embedded WASM build (ratios printed).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { EnginePool } from '../engine/pool';
import { findOnPath, resolveEngine, wasmEngineSpec, type EngineSpec } from '../engine/locate';
import { AI_LEVELS } from '../levels';
import { runPair, type PairResult } from './ladder';
import { measureLatency, type LatencyRow } from './latency';
import { measureThroughput, type ThroughputResult } from './throughput';
import { seeded } from '../../seeded';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    games: { type: 'string', default: '40' },
    pairs: { type: 'string' },
    'movetime-scale': { type: 'string', default: '1' },
    engine: { type: 'string' },
    replies: { type: 'string', default: '30' },
    concurrent: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
  },
});

const random = seeded(Number(args.seed));
const cores = os.cpus().length;
const nativePath = findOnPath('stockfish');
const log = (s: string) => process.stdout.write(s + '\n');
const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const name = (c: number) => (c === 0 ? 'greedy bot' : `level ${c}`);

function ladderSpec(): EngineSpec {
  if (args.engine === 'wasm') return wasmEngineSpec();
  if (args.engine === 'native') {
    if (!nativePath) throw new Error('--engine native: no stockfish binary found');
    return { command: nativePath, args: [], kind: 'native', label: nativePath };
  }
  return resolveEngine();
}

async function ladder(): Promise<PairResult[]> {
  const spec = ladderSpec();
  const pairs = (args.pairs ?? '1-0,2-1,3-2,4-3,5-4,6-5,7-6,8-7,9-8,10-9')
    .split(',')
    .map((p) => p.split('-').map(Number) as [number, number]);
  const games = Number(args.games);
  const scale = Number(args['movetime-scale']);
  const pool = await EnginePool.create({ spec, size: cores, logger: pino({ level: 'warn' }) });
  log(`\n### Strength ladder (${games} games per pair, colours alternating, engine ${spec.label}, movetime x${scale}, ${cores} games at once)\n`);
  const results: PairResult[] = [];
  try {
    for (const [upper, lower] of pairs) {
      const r = await runPair(upper, lower, {
        pool,
        gamesPerPair: games,
        movetimeScale: scale,
        concurrency: cores,
        random,
        onGame: (_p, n, s, plies, reason) =>
          process.stderr.write(`  ${name(upper)} vs ${name(lower)} game ${n + 1}: ${s} (${plies} plies, ${reason})\n`),
      });
      results.push(r);
      process.stderr.write(`${name(upper)} vs ${name(lower)}: ${pct(r.score.score)} (95% CI ${pct(r.score.low)} … ${pct(r.score.high)}) in ${fmt(r.seconds)} s\n`);
    }
  } finally {
    await pool.close();
  }
  log('| match | games | +/=/− | score | 95% CI (Wilson) | lower bound > 50%? | Elo diff (95% CI) | avg plies | ends | time |');
  log('|---|---:|---:|---:|---:|:---:|---:|---:|---|---:|');
  for (const r of results) {
    const s = r.score;
    const ends = Object.entries(r.reasons)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    log(
      `| ${name(r.upper)} vs ${name(r.lower)} | ${s.games} | ${s.wins}/${s.draws}/${s.losses} | ${pct(s.score)} | ${pct(s.low)} … ${pct(s.high)} | ${s.low > 0.5 ? 'yes' : 'no'} | ${fmt(s.elo)} (${fmt(s.eloLow)} … ${fmt(s.eloHigh)}) | ${fmt(r.avgPlies)} | ${ends} | ${fmt(r.seconds)} s |`,
    );
  }
  return results;
}

function engines(): { label: string; path: string | undefined }[] {
  const list: { label: string; path: string | undefined }[] = [];
  if (nativePath) list.push({ label: `native (${nativePath})`, path: nativePath });
  list.push({ label: 'WASM (npm stockfish 19 lite single)', path: 'wasm' });
  return list;
}

async function latency(): Promise<void> {
  const replies = Number(args.replies);
  const levels = AI_LEVELS.map((l) => l.level);
  const byEngine: { label: string; rows: LatencyRow[] }[] = [];
  for (const e of engines()) {
    process.stderr.write(`latency: ${e.label}\n`);
    byEngine.push({ label: e.label, rows: await measureLatency({ enginePath: e.path, levels, repliesPerLevel: replies, random }) });
  }
  log(`\n### Reply latency per level (${replies} replies per level, one game at a time, human-like pause off; ms)\n`);
  const head = byEngine.map((b) => `${b.label} p50 | p95`).join(' | ');
  const ratio = byEngine.length === 2 ? ' | WASM/native p50 |' : ' |';
  log(`| level | movetime cap | ${head}${ratio}`);
  log(`|---:|---:|${byEngine.map(() => '---:|---:').join('|')}|${byEngine.length === 2 ? '---:|' : ''}`);
  for (const level of levels) {
    const cells = byEngine.map((b) => {
      const r = b.rows.find((x) => x.level === level)!;
      return `${fmt(r.p50)} | ${fmt(r.p95)}`;
    });
    let extra = '';
    if (byEngine.length === 2) {
      const a = byEngine[0].rows.find((x) => x.level === level)!;
      const w = byEngine[1].rows.find((x) => x.level === level)!;
      extra = ` ${fmt(w.p50 / a.p50, 2)}x |`;
    }
    log(`| ${level} | ${AI_LEVELS[level - 1].movetimeMs} | ${cells.join(' | ')} |${extra}`);
  }
}

async function throughput(): Promise<void> {
  const games = Number(args.concurrent);
  const seconds = Number(args.seconds);
  const rows: { label: string; r: ThroughputResult }[] = [];
  for (const level of [5, 10]) {
    for (const e of engines()) {
      process.stderr.write(`throughput: ${e.label}, level ${level}\n`);
      rows.push({
        label: e.label,
        r: await measureThroughput({ enginePath: e.path, games, level, seconds, poolSize: cores, random }),
      });
    }
  }
  log(`\n### Throughput: ${games} concurrent AI games over real sockets (${cores} engines, pause off, ${seconds} s)\n`);
  log('| level | engine | AI moves/s | games finished | server event-loop delay p99 | vs native |');
  log('|---:|---|---:|---:|---:|---:|');
  for (const { label, r } of rows) {
    const native = rows.find((x) => x.r.level === r.level && x.label.startsWith('native'));
    const vs = native ? `${fmt(r.movesPerSecond / native.r.movesPerSecond, 2)}x` : '—';
    log(`| ${r.level} | ${label} | ${fmt(r.movesPerSecond, 1)} | ${r.gamesFinished} | ${fmt(r.loopDelayP99Ms, 1)} ms | ${vs} |`);
  }
}

const only = args.only;
const started = Date.now();
log(`## AI bench run ${new Date().toISOString()} — node ${process.version}, ${cores} cores, flags: ${process.argv.slice(2).join(' ') || '(none)'}`);
if (!only || only === 'ladder') await ladder();
if (!only || only === 'latency') await latency();
if (!only || only === 'throughput') await throughput();
log(`\n(total ${fmt((Date.now() - started) / 1000)} s)`);
