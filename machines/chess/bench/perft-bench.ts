/**
 * npm run bench:perft            our perft vs chessops and chess.js in one process, plus is-legal cost
 * npm run bench:perft -- --quick  fewer runs and chess.js at one ply less (a fast look)
 * npm run bench:perft -- --suite [--max-nodes N]   our perft over the whole suite, deeper (default 200M nodes)
 *
 * All three count leaves in bulk where they can (chessops: destination counting at depth 1,
 * ours: popcount of the legal destinations at depth 1, chess.js: its own perft()).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Chess } from 'chess.js';
import { Chess as OpsChess } from 'chessops/chess';
import { perft as opsPerft } from 'chessops/debug';
import { parseFen } from 'chessops/fen';
import { ChessGame, Position, perftPosition } from '../index';
import { parseEpd } from './epd';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const MIDDLEGAME = 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10';

const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Wall time and CPU time (user + system) of one call, in ms. */
function measure(f: () => number): { wall: number; cpu: number; result: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000, result };
}

/**
 * Runs the contenders in turn, round after round (ours, chessops, chess.js, ours, ...), so a
 * change in machine load hits all of them alike; returns median wall and CPU ms per contender.
 * CPU time is also reported because the machine is shared: wall time includes waiting for a core.
 */
function interleaved(runs: number, contenders: { f: () => number; expected: number }[]): { wall: number; cpu: number }[] {
  const wall: number[][] = contenders.map(() => []);
  const cpu: number[][] = contenders.map(() => []);
  for (let r = 0; r < runs; r++) {
    contenders.forEach((c, i) => {
      const m = measure(c.f);
      wall[i].push(m.wall);
      cpu[i].push(m.cpu);
      if (m.result !== c.expected) throw new Error(`wrong node count ${m.result}, expected ${c.expected}`);
    });
  }
  return contenders.map((_, i) => ({ wall: median(wall[i]), cpu: median(cpu[i]) }));
}

const fmt = (nodesPerSec: number): string => `${(nodesPerSec / 1e6).toFixed(2)} M nodes/s`;

function perftComparison(quick: boolean): void {
  const runs = quick ? 3 : 5;
  const cases = [
    { name: 'start position', fen: START, depth: 5, nodes: 4865609, jsDepth: quick ? 4 : 5, jsNodes: quick ? 197281 : 4865609 },
    { name: 'Kiwipete', fen: KIWIPETE, depth: 4, nodes: 4085603, jsDepth: quick ? 3 : 4, jsNodes: quick ? 97862 : 4085603 },
  ];
  console.log(`perft, median of ${runs} runs (Node ${process.version})`);
  for (const c of cases) {
    const pos = Position.fromFen(c.fen);
    const opsPos = OpsChess.fromSetup(parseFen(c.fen).unwrap()).unwrap();
    const js = new Chess(c.fen);
    // warm up all three
    perftPosition(pos, c.depth - 1);
    opsPerft(opsPos, c.depth - 2, false);
    js.perft(Math.max(1, c.jsDepth - 2));
    const [ours, ops, js_] = interleaved(runs, [
      { f: () => perftPosition(pos, c.depth), expected: c.nodes },
      { f: () => opsPerft(opsPos, c.depth, false), expected: c.nodes },
      { f: () => js.perft(c.jsDepth), expected: c.jsNodes },
    ]);
    const nps = (nodes: number, ms: number): number => (nodes / ms) * 1000;
    const line = (name: string, nodes: number, t: { wall: number; cpu: number }, ratioTo?: string): string => {
      const w = nps(nodes, t.wall);
      const u = nps(nodes, t.cpu);
      let text = `    ${name.padEnd(9)} ${t.wall.toFixed(0).padStart(6)} ms wall ${fmt(w).padStart(16)} | cpu ${t.cpu.toFixed(0).padStart(6)} ms ${fmt(u).padStart(16)}`;
      if (ratioTo) {
        const ow = nps(c.nodes, ours.wall);
        const ou = nps(c.nodes, ours.cpu);
        text += `   ours/${ratioTo} = ${(ow / w).toFixed(1)}x wall, ${(ou / u).toFixed(1)}x cpu`;
      }
      return text;
    };
    console.log(`  ${c.name} depth ${c.depth} (${c.nodes} nodes)`);
    console.log(line('ours', c.nodes, ours));
    console.log(line('chessops', c.nodes, ops, 'chessops'));
    console.log(line('chess.js', c.jsNodes, js_, 'chess.js') + (c.jsDepth !== c.depth ? ` (chess.js at depth ${c.jsDepth})` : ''));
  }
}

function isLegalCost(quick: boolean): void {
  const game = new ChessGame(MIDDLEGAME);
  // a mix of legal and illegal moves, as a server sees them
  const probes = ['c3d5', 'f3e5', 'g5f6', 'c4f7', 'e2e3', 'a1a2', 'h2h4', 'c3e4', 'g1h1', 'f1e1', 'e1e2', 'c4a6', 'd3d5', 'g5h7', 'a3a5', 'e4e5'];
  const legal = probes.map((p) => game.isLegal(p));
  const rounds = quick ? 5 : 9;
  const n = 200_000;
  const per: number[] = [];
  let sink = 0;
  const perCpu: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const m = measure(() => {
      for (let i = 0; i < n; i++) if (game.isLegal(probes[i & 15])) sink++;
      return 0;
    });
    per.push((m.wall * 1e6) / n);
    perCpu.push((m.cpu * 1e6) / n);
  }
  const ops = new Chess(MIDDLEGAME);
  const perJs: number[] = [];
  const m = 2_000;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < m; i++) {
      const p = probes[i & 15];
      if (ops.moves({ square: p.slice(0, 2) as 'a1', verbose: true }).some((x) => x.to === p.slice(2, 4))) sink++;
    }
    perJs.push(((performance.now() - t0) * 1e6) / m);
  }
  const setup = parseFen(MIDDLEGAME).unwrap();
  const cops = OpsChess.fromSetup(setup).unwrap();
  const perOps: number[] = [];
  const k = 50_000;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < k; i++) {
      const p = probes[i & 15];
      const from = p.charCodeAt(0) - 97 + (p.charCodeAt(1) - 49) * 8;
      const to = p.charCodeAt(2) - 97 + (p.charCodeAt(3) - 49) * 8;
      if (cops.isLegal({ from, to })) sink++;
    }
    perOps.push(((performance.now() - t0) * 1e6) / k);
  }
  console.log(`is-legal on a middlegame position (${MIDDLEGAME}), ${legal.filter(Boolean).length}/16 probes legal, median of ${rounds}:`);
  console.log(`    ours      ChessGame.isLegal(uci)         ${median(per).toFixed(0)} ns/call wall, ${median(perCpu).toFixed(0)} ns/call cpu`);
  console.log(`    chessops  Chess.isLegal({from, to})       ${median(perOps).toFixed(0)} ns/call`);
  console.log(`    chess.js  moves({square, verbose}) + find ${median(perJs).toFixed(0)} ns/call`);
  if (sink < 0) console.log(sink);
}

function suite(maxNodes: number): void {
  const text = readFileSync(new URL('./perft-suite.epd', import.meta.url), 'utf8');
  let total = 0;
  let ms = 0;
  let cpuMs = 0;
  let failed = 0;
  for (const e of parseEpd(text)) {
    const pos = Position.fromFen(e.fen);
    for (const [d, want] of e.depths) {
      if (want > maxNodes) continue;
      const m = measure(() => perftPosition(pos, d));
      const got = m.result;
      const dt = m.wall;
      total += got;
      ms += dt;
      cpuMs += m.cpu;
      if (got !== want) failed++;
      console.log(`${got === want ? 'ok      ' : 'MISMATCH'} depth ${d} ${String(got).padStart(11)} ${dt.toFixed(0).padStart(7)} ms ${fmt((got / dt) * 1000)}  ${e.fen}`);
    }
  }
  console.log(`suite: ${total} nodes in ${(ms / 1000).toFixed(1)} s wall (${fmt((total / ms) * 1000)}), ${(cpuMs / 1000).toFixed(1)} s cpu (${fmt((total / cpuMs) * 1000)}), ${failed} mismatches`);
  if (failed) process.exitCode = 1;
}

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, suite: { type: 'boolean', default: false }, 'max-nodes': { type: 'string' } },
});
if (values.suite) suite(Number(values['max-nodes'] ?? 200_000_000));
else {
  perftComparison(values.quick);
  isLegalCost(values.quick);
}
