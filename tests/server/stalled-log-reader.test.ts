/**
 * The reader of the server's stdout (`npm start | tee log`, a supervisor's pipe) may stop reading
 * or die, for example with the same Ctrl-C that stops the server: the games go on, and SIGTERM
 * still ends the server within its shutdown deadline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from './helpers';
import { killProcess, startProcess, type Proc } from './serverProcess';

const SHUTDOWN_TIMEOUT_MS = 3000;
/** about 2 MB of "message rejected" lines: more than the pipe and the server's log queue hold */
const REFUSED_FRAMES = 10_000;

let proc: Proc | undefined;
afterEach(async () => {
  if (proc) await killProcess(proc);
  proc = undefined;
});

/** The process's exit code, or 'still running' if it has not ended within `ms`. */
function exitWithin(p: Proc, ms: number): Promise<number | null | 'still running'> {
  return Promise.race([p.exit, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms))]);
}

describe('a log reader that stops reading', () => {
  it('neither stops the games nor keeps SIGTERM from ending the server once the reader has died', async () => {
    proc = await startProcess({ RATE_LIMIT_MESSAGES: '1000000', SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    proc.child.stdout!.pause(); // the reader stops reading: the pipe fills up
    const player = await TestClient.connect(proc.url);
    for (let i = 0; i < REFUSED_FRAMES; i++) player.sendRaw('{not json');
    // every refusal is answered (and logged) while nobody reads the log
    await expect.poll(() => player.received.filter((m) => m.type === 'error').length, { timeout: 20_000 }).toBe(REFUSED_FRAMES);
    expect((await fetch(`${proc.url}/healthz`, { signal: AbortSignal.timeout(2000) })).status).toBe(200);

    proc.child.kill('SIGTERM');
    proc.child.stdout!.destroy(); // and the reader dies
    expect((await player.closed).code).toBe(1001);
    expect(await exitWithin(proc, SHUTDOWN_TIMEOUT_MS + 2000)).toBe(0);
  }, 60_000);
});
