/**
 * The production entry (server/main.ts, configured by environment variables) in its own
 * process, so load runs measure a server that has its own event loop, as in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';
import type { AdmissionLimits } from '../../../server/realtime/admission';

/**
 * Every simulated player connects from this one machine: a server under load test from it
 * takes any number of sockets from one address (the defaults suit a household behind one NAT).
 */
export const ONE_MACHINE_ADMISSION: AdmissionLimits = { maxSockets: 0, socketsPerAddress: 0, connectRate: null };

const ROOT = resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then the exit code */
  stop(): Promise<number | null>;
}

export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [inject('serverEntry')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info', // 'chess server ready' (with the URL) is an info line
      STATIC_DIR: join(ROOT, 'node_modules/.cache/no-client'),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'k6-node-data-')),
      ACCOUNTS_ENABLED: 'false',
      // ONE_MACHINE_ADMISSION, and AI games to match
      MAX_SOCKETS_PER_ADDRESS: String(ONE_MACHINE_ADMISSION.socketsPerAddress),
      CONNECTS_PER_ADDRESS_PER_SECOND: '0',
      AI_GAMES_PER_ADDRESS: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolvePromise, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      try {
        const j = JSON.parse(line) as { msg?: string; url?: string };
        if (j.msg === 'chess server ready' && j.url) {
          resolvePromise({
            url: j.url,
            child,
            stop: () => {
              child.kill('SIGTERM');
              return exit;
            },
          });
        }
      } catch {
        // not a log line
      }
    });
    void exit.then((code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}
