import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { perft } from '../../machines/chess';

import { parseEpd } from '../../machines/chess/bench/epd';

// The perft reference suite as shipped in EPD form with the chess core.
const suite = parseEpd(readFileSync(new URL('../../machines/chess/bench/perft-suite.epd', import.meta.url), 'utf8'))
  .map((e) => ({ name: `line ${e.line}: ${e.fen}`, fen: e.fen, depths: Object.fromEntries(e.depths) as Record<string, number> }));
/** Depths whose node count stays under this run in the tests; the benchmark runs the whole file. */
const MAX_NODES = 5_000_000;

describe('perft suite (exact node counts)', () => {
  for (const entry of suite) {
    const depths = Object.entries(entry.depths).filter(([, n]) => n <= MAX_NODES);
    it(`${entry.name}: depths ${depths.map(([d]) => d).join(', ')}`, () => {
      for (const [d, n] of depths) expect(perft(entry.fen, Number(d)), `${entry.name} depth ${d}`).toBe(n);
    }, 120_000);
  }

  it('depth 0 is one node', () => {
    expect(perft(suite[0].fen, 0)).toBe(1);
  });

  it('covers en passant discovered checks along the rank and promotions (known counts)', () => {
    // well-known perft positions beyond the suite: ep exposing the king on the 5th rank, promotions into check
    // Ka4, Ka6, Kb6, b6; bxc6 e.p. would expose the king to the rook along the fifth rank
    expect(perft('8/8/8/KPp4r/8/8/8/7k w - c6 0 2', 1)).toBe(4);
    expect(perft('3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1', 6)).toBe(1134888);
    expect(perft('8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1', 6)).toBe(1015133);
    expect(perft('8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1', 6)).toBe(1440467);
    expect(perft('5k2/8/8/8/8/8/8/4K2R w K - 0 1', 6)).toBe(661072);
    expect(perft('3k4/8/8/8/8/8/8/R3K3 w Q - 0 1', 6)).toBe(803711);
    expect(perft('r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1', 4)).toBe(1274206);
    expect(perft('r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1', 4)).toBe(1720476);
    expect(perft('4k3/1P6/8/8/8/8/K7/8 w - - 0 1', 6)).toBe(217342);
    expect(perft('8/P1k5/K7/8/8/8/8/8 w - - 0 1', 6)).toBe(92683);
    expect(perft('K1k5/8/P7/8/8/8/8/8 w - - 0 1', 6)).toBe(2217);
    expect(perft('8/k1P5/8/1K6/8/8/8/8 w - - 0 1', 7)).toBe(567584);
    expect(perft('8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1', 4)).toBe(23527);
  }, 120_000);
});

const run = promisify(execFile);
const cli = ['--import', 'tsx', 'machines/chess/cli/perft.ts'];
const root = new URL('../..', import.meta.url).pathname;

describe('perft command line', () => {
  it('prints the node count and the per-move split', { timeout: 60_000 }, async () => {
    const { stdout } = await run(process.execPath, [...cli, '--fen', suite[1].fen, '--depth', '2', '--divide'], { cwd: root });
    expect(stdout).toContain('e1g1: 43');
    expect(stdout.trim().split('\n').at(-1)).toBe('Nodes: 2039');
  });

  it('runs an EPD file, reports mismatches and exits 1', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perft-'));
    const file = join(dir, 'suite.epd');
    writeFileSync(file, `${suite[0].fen} ;D1 20 ;D2 400 ;D3 8903\n8/8/8/8/8/8/8/8 w - - 0 1 ;D1 1\n${suite[2].fen} ;D1 14 ;D6 11030083\n`);
    const err = await run(process.execPath, [...cli, '--epd', file, '--max-nodes', '100000'], { cwd: root }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stdout).toContain('MISMATCH line 1 depth 3: expected 8903, got 8902');
    expect(err.stdout).toContain('line 2: Invalid FEN: missing white king');
    expect(err.stdout.trim().split('\n').at(-1)).toBe('3 passed, 2 failed');
  });

  it('exits 0 when the shipped EPD suite matches', { timeout: 60_000 }, async () => {
    const { stdout } = await run(process.execPath, [...cli, '--epd', 'machines/chess/bench/perft-suite.epd', '--max-nodes', '200000'], { cwd: root });
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  });
});
