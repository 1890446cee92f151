/** `npm run loadtest:node`: a k6 scenario without k6; exit 0 when the thresholds hold, 99 (as k6) when not. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { startScenarioServer } from './k6-node/in-process-server';
import { idInTest, vusInSegment } from './k6-node/runtime';
import { ROOT } from '../support/root';

const run = promisify(execFile);
let server: RunningServer;

beforeAll(async () => {
  server = await startScenarioServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'tests/loadtest/k6-node/cli.ts', ...args], { cwd: ROOT, timeout: 60_000 });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

describe('execution segments as k6 splits a test over n generators', () => {
  it('generator i runs every n-th VU of the test, starting at i + 1, under that exec.vu.idInTest', () => {
    const ids = (index: number, count: number, total: number) =>
      Array.from({ length: vusInSegment(total, { index, count }) }, (_, k) => idInTest(k + 1, { index, count }));
    expect(ids(0, 2, 7)).toEqual([1, 3, 5, 7]);
    expect(ids(1, 2, 7)).toEqual([2, 4, 6]);
    expect([...ids(0, 3, 20), ...ids(1, 3, 20), ...ids(2, 3, 20)].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(vusInSegment(1, { index: 1, count: 2 })).toBe(0);
  });
});

describe('npm run loadtest:node', () => {
  // Latency limits widened: this checks the command, not the machine's speed.
  const common = () => ['-e', `BASE_URL=${server.url}`, '-e', 'THINK_MIN_MS=10', '-e', 'THINK_MAX_MS=30', '-e', 'MAX_PLIES=6', '-e', 'P95_RELAY_MS=2000', '-e', 'P99_RELAY_MS=4000', '-e', 'P95_PAIRING_MS=5000', '-e', 'P99_PAIRING_MS=8000', '-e', 'P95_CONNECT_MS=5000', '-e', 'P99_TIMER_LAG_MS=2000'];

  it('plays the scenario, prints the summary and exits 0 when every threshold holds', async () => {
    const { code, out } = await cli('steady-play', '--vus', '4', ...common());
    expect(out).toMatch(/games_finished\s+4\b/);
    expect(out).toContain('✓ moves_rejected count==0 (0)');
    expect(out).not.toContain('✗');
    // The generator's own thresholds come after the server's, under their own heading.
    const generatorPart = out.slice(out.indexOf('thresholds on this load generator'));
    expect(generatorPart).toMatch(/✓ vu_timer_lag p\(99\)</);
    expect(out.indexOf('thresholds on the server')).toBeLessThan(out.indexOf('thresholds on this load generator'));
    expect(code).toBe(0);
  }, 90_000);

  it('two generators splitting one test (--segment 0/2 and 1/2) pair players across each other and both pass', async () => {
    // 3 players on each: at least one game has its players on different generators.
    const [first, second] = await Promise.all([
      cli('steady-play', '--vus', '6', '--segment', '0/2', ...common()),
      cli('steady-play', '--vus', '6', '--segment', '1/2', ...common()),
    ]);
    for (const { code, out } of [first, second]) {
      expect(out).toMatch(/games_finished\s+3\b/);
      expect(out).not.toContain('✗');
      expect(code).toBe(0);
    }
  }, 90_000);

  it('exits 99, like k6, when a threshold fails', async () => {
    // A server that allows two messages a minute: the players are cut off mid-game.
    const strict = await startScenarioServer({ rateLimit: { messages: 2, windowMs: 60_000 } });
    try {
      const { code, out } = await cli('steady-play', '--vus', '4', ...common(), '-e', `BASE_URL=${strict.url}`, '-e', 'GAME_TIMEOUT_MS=3000');
      expect(out).toMatch(/✗ games_unfinished count==0/);
      expect(code).toBe(99);
    } finally {
      await strict.close();
    }
  }, 90_000);

  it("stops with the script's own message on a bad setting", async () => {
    const { code, out } = await cli('reconnect-storm', '-e', 'OFFLINE_MAX_MS=400');
    expect(code).toBe(2);
    expect(out).toContain('OFFLINE_MAX_MS must be a whole number from 500 to 600000 (got "400")');
    expect(out).not.toMatch(/\n\s+at /); // no stack trace
  }, 30_000);

  it('names the scenarios when given an unknown one', async () => {
    const { code, out } = await cli('no-such-scenario');
    expect(code).toBe(2);
    expect(out).toContain('steady-play');
  }, 30_000);
});
