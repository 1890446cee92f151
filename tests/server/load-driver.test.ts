/**
 * The load driver in CI mode at small scale: 100 players queue, pair and play random legal moves
 * for 6 s against the real server process (the run's bundle of it). It exits non-zero on any
 * rejected legal move, any error message, any game without an end event, or a p99 relay latency
 * above the threshold (generous here: the test shares two cores with the rest of the suite).
 */
import { spawn } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';

describe('load driver (CI mode)', () => {
  it('plays 50 games of random legal moves with no rejection and no lost game', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'loadtest/driver/bench.ts', '--ci', '--server', 'built', '--players', '100', '--duration', '6', '--p99', '2000'],
      // the run's server bundle (tests/support/serverBundle.ts)
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BENCH_ENTRY: inject('serverEntry') } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(err, err).toContain('ok at 100 players');
    expect(code).toBe(0);
    const row = out.split('\n').find((l) => l.startsWith('| 100 |'));
    expect(row).toBeDefined();
    // every game ended with an event, and moves were relayed
    const result = JSON.parse(err.split('\n').find((l) => l.startsWith('{"chess"'))!).chess.interval;
    // 50 games at first; players whose game ends early (checkmate, stalemate…) queue again
    expect(result.pairedGames).toBeGreaterThanOrEqual(50);
    expect(result.lostGames).toBe(0);
    expect(result.moveRejected).toBe(0);
    expect(result.moves).toBeGreaterThan(100);
  }, 120_000);
});
