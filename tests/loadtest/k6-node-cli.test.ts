/** `npm run loadtest:node`: a k6 scenario without k6; exit 0 when the thresholds hold, 99 (as k6) when not. */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1', staticDir: join(ROOT, 'node_modules/.cache/no-client') });
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

describe('npm run loadtest:node', () => {
  // Latency limits widened: this checks the command, not the machine's speed.
  const common = () => ['-e', `BASE_URL=${server.url}`, '-e', 'THINK_MIN_MS=10', '-e', 'THINK_MAX_MS=30', '-e', 'MAX_PLIES=6', '-e', 'P95_RELAY_MS=2000', '-e', 'P99_RELAY_MS=4000', '-e', 'P95_PAIRING_MS=5000', '-e', 'P99_PAIRING_MS=8000', '-e', 'P95_CONNECT_MS=5000'];

  it('plays the scenario, prints the summary and exits 0 when every threshold holds', async () => {
    const { code, out } = await cli('steady-play', '--vus', '4', ...common());
    expect(out).toMatch(/games_finished\s+4\b/);
    expect(out).toContain('✓ moves_rejected count==0 (0)');
    expect(out).not.toContain('✗');
    expect(code).toBe(0);
  }, 90_000);

  it('exits 99, like k6, when a threshold fails', async () => {
    // A server that allows two messages a minute: the players are cut off mid-game.
    const strict = await startServer({
      port: 0,
      host: '127.0.0.1',
      staticDir: join(ROOT, 'node_modules/.cache/no-client'),
      rateLimit: { messages: 2, windowMs: 60_000 },
    });
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
