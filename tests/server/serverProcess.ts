/** The real server process (server/main.ts run by tsx) for tests, with its stdout lines and exit. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SERVER_NODE_FLAGS } from '../../server/nodeFlags';

export interface Proc {
  child: ChildProcess;
  url: string;
  port: number;
  exit: Promise<number | null>;
  stderr: () => string;
  /** stdout lines so far (pino JSON) */
  lines: string[];
}

/**
 * Starts the server with quiet defaults (production, loopback, no AI, no accounts) under `env`;
 * a variable set to undefined in `env` is removed from the environment. Resolves once it listens.
 */
export function startProcess(env: Record<string, string | undefined>, nodeFlags: readonly string[] = SERVER_NODE_FLAGS): Promise<Proc> {
  const merged: Record<string, string | undefined> = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', STATIC_DIR: '/nonexistent', AI_ENABLED: '0', ACCOUNTS_ENABLED: '0', ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'server/main.ts'], {
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      lines.push(line);
      try {
        const j = JSON.parse(line);
        if (j.msg === 'server listening') resolve({ child, url: `http://127.0.0.1:${j.port}`, port: j.port, exit, stderr: () => err, lines });
      } catch {
        // not JSON
      }
    });
    exit.then((code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

