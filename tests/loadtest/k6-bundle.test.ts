/**
 * `npm run build:k6` bundles the chess core for k6 (loadtest/k6/dist/chess.js: ESM, no Node or
 * browser APIs) and each scenario into a single file that imports nothing but k6's modules.
 * The chess bundle is the light core (the magic slider tables swapped for a ray walk, see
 * loadtest/k6/README.md) and must still give the simulated players exactly the legal moves.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Chess } from 'chess.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseEpd } from '../../machines/chess/bench/epd';
import { GENERATOR_METRICS } from '../../loadtest/k6/lib/generator-metrics';
import { seeded } from '../../server/seeded';
import { loadScenario } from './k6-node/run-scenario';
import { evaluate } from './k6-node/thresholds';
import { ROOT } from '../support/root';

const run = promisify(execFile);
const DIST = join(ROOT, 'loadtest/k6/dist');
const SCENARIOS = readdirSync(join(ROOT, 'loadtest/k6/scenarios')).filter((f) => f.endsWith('.ts'));

interface BundledGame {
  legalMoves(): string[];
  play(m: string): unknown;
  fen(): string;
  turn(): string;
  status(): { over: boolean };
}
let ChessGame: new (fen?: string) => BundledGame;
let bundledPerft: (fen: string, depth: number) => number;

/** Module specifiers a built ES module imports (static and dynamic). */
function importsOf(code: string): string[] {
  const specs = new Set<string>();
  for (const m of code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"']+)["']/g)) specs.add(m[1]);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) specs.add(m[1]);
  for (const m of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) specs.add(m[1]);
  return [...specs];
}

beforeAll(async () => {
  await run('npm', ['run', '--silent', 'build:k6'], { cwd: ROOT });
  ({ ChessGame, perft: bundledPerft } = await import(pathToFileURL(join(DIST, 'chess.js')).href));
}, 120_000);

describe('k6 chess bundle (loadtest/k6/dist/chess.js)', () => {
  it('is the light core: no magic slider tables, the ray walk in their place', () => {
    const code = readFileSync(join(DIST, 'chess.js'), 'utf8');
    // The first rook magic of machines/chess/magics.ts, as esbuild prints it.
    expect(code).not.toMatch(/2155888672|0x80804020/i);
    expect(code).toContain('rayAttacksInto');
  });

  it('the ray slider module has exactly the exports of the magic one it replaces', async () => {
    const magic = await import('../../machines/chess/sliders');
    const ray = await import('../../loadtest/k6/chess/ray-sliders');
    expect(Object.keys(ray).sort()).toEqual(Object.keys(magic).sort());
  });

  it('counts the perft suite exactly (every depth up to 1,000,000 nodes)', () => {
    const suite = parseEpd(readFileSync(join(ROOT, 'machines/chess/bench/perft-suite.epd'), 'utf8'));
    let checked = 0;
    for (const entry of suite) {
      for (const [depth, nodes] of entry.depths) {
        if (nodes > 1_000_000) continue;
        expect(bundledPerft(entry.fen, depth), `${entry.fen} depth ${depth}`).toBe(nodes);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  }, 120_000);

  it('is a self-contained ES module without Node or browser APIs', () => {
    const code = readFileSync(join(DIST, 'chess.js'), 'utf8');
    expect(importsOf(code)).toEqual([]);
    expect(code).toMatch(/export\s*\{[^}]*ChessGame/);
    for (const nodeOnly of [/\bprocess\./, /\bBuffer\./, /\bwindow\./, /\bdocument\./, /\bnode:/]) {
      expect(code).not.toMatch(nodeOnly);
    }
  });

  it('gives the 20 opening moves of the start position', () => {
    const moves = new ChessGame().legalMoves();
    expect(moves).toHaveLength(20);
    expect(moves).toEqual(expect.arrayContaining(['e2e4', 'g1f3', 'a2a3', 'b1c3']));
  });

  it('agrees with chess.js on the legal moves along random games', () => {
    let plies = 0;
    const rand = seeded(12345);
    for (let g = 0; g < 5; g++) {
      const ours = new ChessGame();
      const ref = new Chess();
      for (let ply = 0; ply < 80 && !ref.isGameOver(); ply++) {
        const refMoves = ref.moves({ verbose: true }).map((m) => m.from + m.to + (m.promotion ?? '')).sort();
        expect(ours.legalMoves().slice().sort()).toEqual(refMoves);
        const pick = refMoves[Math.floor(rand() * refMoves.length)];
        expect(ours.play(pick)).toBeTruthy();
        ref.move({ from: pick.slice(0, 2), to: pick.slice(2, 4), promotion: pick[4] });
        expect(ours.fen().split(' ').slice(0, 4)).toEqual(ref.fen().split(' ').slice(0, 4));
        plies++;
      }
    }
    expect(plies).toBeGreaterThan(250);
  });

  it('lists all four promotions and both castlings as UCI', () => {
    expect(new ChessGame('8/P7/8/8/8/8/8/k6K w - - 0 1').legalMoves()).toEqual(
      expect.arrayContaining(['a7a8q', 'a7a8r', 'a7a8b', 'a7a8n']),
    );
    expect(new ChessGame('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').legalMoves()).toEqual(
      expect.arrayContaining(['e1g1', 'e1c1']),
    );
  });

  it('refuses an illegal move and leaves the position unchanged', () => {
    const game = new ChessGame();
    const before = game.fen();
    expect(game.play('e2e5')).toBeNull();
    expect(game.fen()).toBe(before);
  });
});

describe('k6 scenario bundles', () => {
  it.each(SCENARIOS)('%s builds into one file that imports only k6 modules', async (file) => {
    const code = readFileSync(join(DIST, file.replace(/\.ts$/, '.js')), 'utf8');
    const imports = importsOf(code);
    expect(imports.length).toBeGreaterThan(0);
    for (const spec of imports) expect(spec).toMatch(/^k6(\/[a-z-]+)*$/);
    // The protocol is imported for its types only: no schema library is bundled.
    expect(code).not.toMatch(/\bzod\b|ZodError/);
    expect(imports).toContain('k6/experimental/websockets');
    expect(imports).toContain('k6/timers');
    expect(imports).toContain('k6/metrics');
    // k6 needs the options export, and each scenario's exec function (default: "default").
    const exported = /export\s*\{([^}]*)\}/.exec(code)?.[1] ?? '';
    expect(exported).toMatch(/\boptions\b/);
    const mod = await loadScenario(file.replace(/\.ts$/, ''), {});
    const scenarios = Object.values(mod.options.scenarios ?? {});
    expect(scenarios.length).toBeGreaterThan(0);
    for (const sc of scenarios) {
      const exec = sc.exec ?? 'default';
      expect(typeof mod[exec], `${file}: exec ${exec}`).toBe('function');
      expect(exported).toMatch(exec === 'default' ? /\bas default\b/ : new RegExp(`\\b${exec}\\b`));
    }
    // Every threshold names a metric the scripts define (or k6's checks) and parses.
    const metricsSource = readFileSync(join(ROOT, 'loadtest/k6/lib/metrics.ts'), 'utf8');
    const defined = new Set([...metricsSource.matchAll(/new (?:Trend|Counter|Rate|Gauge)\('([a-z_]+)'/g)].map((m) => m[1]));
    defined.add('checks');
    defined.add('dropped_iterations'); // k6's own
    const thresholds = mod.options.thresholds ?? {};
    expect(Object.keys(thresholds)).toContain('moves_rejected');
    // The generator's health is judged in every scenario, dropped arrivals where there are any.
    expect(Object.keys(thresholds)).toContain('vu_timer_lag');
    const arrivals = scenarios.some((sc) => sc.executor.endsWith('arrival-rate'));
    expect(Object.keys(thresholds).includes('dropped_iterations')).toBe(arrivals);
    // and the stand-in's summary files both under the generator
    expect(GENERATOR_METRICS).toEqual(expect.arrayContaining(['vu_timer_lag', 'dropped_iterations']));
    for (const metric of Object.keys(thresholds)) expect(defined, `threshold on ${metric}`).toContain(metric);
    expect(() => evaluate(thresholds, new Map())).not.toThrow();
  });
});
