/**
 * The real server process for tests (the server bundle of tests/support/serverBundle.ts, or
 * `npm start`), with its stdout lines and exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../server/nodeFlags';

export interface Proc {
  child: ChildProcess;
  url: string;
  port: number;
  /** pid of the node process that serves (the child itself, or npm's child under `npm start`) */
  serverPid: number;
  exit: Promise<number | null>;
  stderr: () => string;
  /** stdout lines so far (pino JSON) */
  lines: string[];
}

/** Quiet defaults (production, loopback, no AI, no accounts) under `env`; undefined removes a variable. */
function serverEnv(env: Record<string, string | undefined>): Record<string, string> {
  const merged: Record<string, string | undefined> = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', STATIC_DIR: '/nonexistent', AI_ENABLED: '0', ACCOUNTS_ENABLED: '0', ...env };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) out[k] = v;
  return out;
}

/** Kills the process with SIGKILL unless it has already ended; resolves once it has. */
export async function killProcess(p: Proc): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await p.exit.catch(() => null);
}

/** Stops the process as an operator does (SIGTERM) and resolves with its exit code. */
export function stopProcess(p: Proc): Promise<number | null> {
  p.child.kill('SIGTERM');
  return p.exit;
}

/** Starts the server (the run's bundle of server/main.ts) with node and resolves once it listens. */
export function startProcess(env: Record<string, string | undefined>, nodeFlags: readonly string[] = SERVER_NODE_FLAGS): Promise<Proc> {
  return listening(spawn(process.execPath, [...nodeFlags, inject('serverEntry')], { env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Runs `npm start` (build, then the server) as an operator would, and resolves once it listens. */
export function startWithNpm(env: Record<string, string | undefined>): Promise<Proc> {
  return listening(spawn('npm', ['start'], { env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
}

function listening(child: ChildProcess): Promise<Proc> {
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
        if (j.msg === 'server listening') {
          resolve({ child, url: `http://127.0.0.1:${j.port}`, port: j.port, serverPid: j.pid, exit, stderr: () => err, lines });
        }
      } catch {
        // not JSON
      }
    });
    exit.then((code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}
