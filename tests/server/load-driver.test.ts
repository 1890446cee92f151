/**
 * The load driver in CI mode at small scale: 100 players queue, pair and play random legal moves
 * for 6 s against the real server process (the run's bundle of it). It exits non-zero on any
 * rejected legal move, any error message, any game without an end event, or a p99 relay latency
 * above the threshold (generous here: the test shares two cores with the rest of the suite).
 */
import { spawn } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';

/** Runs the driver in CI mode on the run's server bundle (tests/support/serverBundle.ts) with `args`; its exit code and outputs. */
async function drive(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'loadtest/driver/bench.ts', '--ci', '--server', 'built', '--duration', '6', '--p99', '2000', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BENCH_ENTRY: inject('serverEntry') },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return { code, out, err };
}

const chessResults = (err: string) => JSON.parse(err.split('\n').find((l) => l.startsWith('{"chess"'))!).chess;

describe('load driver (CI mode)', () => {
  it('plays 50 games of random legal moves with no rejection and no lost game', async () => {
    const { code, out, err } = await drive(['--players', '100']);
    expect(err, err).toContain('ok at 100 players');
    expect(code).toBe(0);
    const row = out.split('\n').find((l) => l.startsWith('| 100 |'));
    expect(row).toBeDefined();
    // every game ended with an event, and moves were relayed
    const result = chessResults(err).interval;
    // 50 games at first; players whose game ends early (checkmate, stalemate…) queue again
    expect(result.pairedGames).toBeGreaterThanOrEqual(50);
    expect(result.lostGames).toBe(0);
    expect(result.moveRejected).toBe(0);
    expect(result.moves).toBeGreaterThan(100);
  }, 120_000);

  it('plays a server with the journal and one without it at the same time, and compares them over the same window', async () => {
    const { code, out, err } = await drive(['--players', '60', '--durable', 'interval,off', '--together', '60']);
    expect(err, err).toContain('journal interval and off, together');
    expect(code).toBe(0);
    const { interval, off } = chessResults(err);
    for (const r of [interval, off]) {
      expect(r.pairedGames).toBeGreaterThanOrEqual(30);
      expect(r.lostGames).toBe(0);
      expect(r.moves).toBeGreaterThan(50);
    }
    // the journal wrote the one server's moves, and nothing the other's
    expect(interval.journalBytesPerMove).toBeGreaterThan(100);
    expect(off.journalBytesPerMove).toBe(0);
    const intervalRow = out.split('\n').find((l) => l.startsWith('| 60 | interval |'));
    expect(intervalRow).toMatch(/\| \d+\.\d\dx \|/);
  }, 120_000);
});
