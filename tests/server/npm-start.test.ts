/**
 * `npm start` as an operator (or Docker, systemd, a terminal's Ctrl-C) runs it: a signal to npm
 * must reach the server, which tells its players, closes their sockets and exits, releasing the
 * data directory, so that the next start succeeds.
 */
import { describe, expect, it } from 'vitest';
import { TestClient } from './helpers';
import { startWithNpm, type Proc } from './serverProcess';
import { processAlive } from '../support/processes';
import { freshDataDir } from '../support/pgliteTemplate';

async function stopsOn(signal: NodeJS.Signals, proc: Proc): Promise<void> {
  const player = await TestClient.connect(proc.url);
  const t0 = Date.now();
  proc.child.kill(signal); // to npm, the process the operator started
  const [notice, closed] = await Promise.all([player.next('serverShutdown'), player.closed]);
  expect(notice.message).toBeTruthy();
  expect(closed.code).toBe(1001);
  await proc.exit;
  await expect.poll(() => processAlive(proc.serverPid), { timeout: 5_000 }).toBe(false);
  expect(Date.now() - t0).toBeLessThan(5_000);
}

describe('npm start', () => {
  it('SIGTERM and SIGINT to npm stop the server within 5 s with the shutdown message, and the next start succeeds', async () => {
    // accounts on: the embedded database locks the data directory while a server holds it (a copy
    // of a made database: a first start on an empty directory, which makes one, is
    // tests/server/memory.test.ts's)
    const env = { DATA_DIR: await freshDataDir('npm-start-'), ACCOUNTS_ENABLED: '1' };
    await stopsOn('SIGTERM', await startWithNpm(env));
    await stopsOn('SIGINT', await startWithNpm(env));
    const third = await startWithNpm(env);
    third.child.kill('SIGTERM');
    await third.exit;
  }, 240_000);
});
