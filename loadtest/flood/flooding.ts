/**
 * The floods of issue 24 for the benchmarks (bench:flood, bench:memory): the server under test in
 * its own process, a user's tokens, and a child process that opens many sockets at once, each
 * sending identifyUser with a given token as soon as it is acknowledged.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BareSocket } from './bareSocket';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server/nodeFlags';

/** The benchmark's command-line words after the script. */
export const argv = process.argv.slice(2);
/** The value after `--name` on the command line, else `def`. */
export const opt = (name: string, def: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : def;
};
/** Progress on stderr, so stdout carries only the results. */
export const log = (s: string): void => void process.stderr.write(s + '\n');
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));


// ------------------------------------------------------------------------------------------------
// the flooding child: opens `count` sockets at once, each sends identifyUser once its ack came

export interface FloodOrder {
  url: string;
  count: number;
  sources: string[];
  userId: string;
  token: string;
  /** each socket sends its own variant of the token (its signature's last characters changed) */
  distinct?: boolean;
}
export interface FloodOutcome {
  opened: number;
  refused: number;
  refusedStatuses: Record<string, number>;
  identified: number;
  identifyFailed: number;
  otherErrors: Record<string, number>;
  unanswered: number;
  ms: number;
  /** the flooding process's CPU time over the flood, ms */
  cpuMs: number;
}

/** The token with the last characters of its signature replaced by `n` (a different, bad signature per n). */
function variant(token: string, n: number): string {
  const tag = Buffer.from(String(n).padStart(6, '0')).toString('base64url');
  return token.slice(0, token.length - tag.length) + tag;
}

async function runFlood(order: FloodOrder): Promise<FloodOutcome> {
  const out: FloodOutcome = { opened: 0, refused: 0, refusedStatuses: {}, identified: 0, identifyFailed: 0, otherErrors: {}, unanswered: 0, ms: 0, cpuMs: 0 };
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const url = new URL(order.url);
  const sockets: BareSocket[] = [];
  await Promise.all(
    Array.from({ length: order.count }, (_, i) => {
      return new Promise<void>((resolve) => {
        let settled = false;
        const settle = (f: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          f();
          resolve();
        };
        const timer = setTimeout(() => settle(() => out.unanswered++), 30_000);
        const identify = JSON.stringify({ type: 'identifyUser', payload: { userId: order.userId, accessToken: order.distinct ? variant(order.token, i) : order.token } });
        const socket = new BareSocket(url, order.sources[i % order.sources.length], {
          refused: (status) => settle(() => {
            out.refused++;
            out.refusedStatuses[status] = (out.refusedStatuses[status] ?? 0) + 1;
          }),
          ended: (how) =>
            settle(() => {
              if (how === 'error') {
                out.refused++;
                out.refusedStatuses.error = (out.refusedStatuses.error ?? 0) + 1;
              } else out.otherErrors.closed = (out.otherErrors.closed ?? 0) + 1;
            }),
          text: (text, ws) => {
            const m = JSON.parse(text) as { type: string; code?: string };
            if (m.type === 'connectionAck') {
              out.opened++;
              ws.send(identify);
            } else if (m.type === 'identified') settle(() => out.identified++);
            else if (m.type === 'error')
              settle(() => {
                if (m.code === 'identify_failed') out.identifyFailed++;
                else out.otherErrors[m.code ?? '?'] = (out.otherErrors[m.code ?? '?'] ?? 0) + 1;
              });
          },
        });
        sockets.push(socket);
      });
    }),
  );
  out.ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  out.cpuMs = (cpu.user + cpu.system) / 1000;
  for (const s of sockets) s.destroy();
  return out;
}

if (process.env.FLOOD_CHILD === '1') {
  process.send!('ready');
  process.once('message', (order: FloodOrder) => {
    void runFlood(order).then((outcome) => {
      process.send!(outcome);
      setTimeout(() => process.exit(0), 200);
    });
  });
}

// ------------------------------------------------------------------------------------------------
// the server under test

export interface ServerUnderTest {
  proc: ChildProcess;
  port: number;
  /** ms from spawning to its 'Ready: …' line */
  readyMs: number;
}

/**
 * Starts the server (`mode` built: BENCH_ENTRY or dist/server/main.js; tsx: server/main.ts) with
 * the server's own node flags and allocator settings, BENCH_NODE_ARGS (extra node flags, e.g. "--cpu-prof
 * --cpu-prof-dir=/tmp/prof" or "--trace-gc"), accounts on an embedded database in `dataDir` (a new one unless
 * given) and `env` over the defaults; resolves when it is ready.
 */
export function startServer(mode: string, env: NodeJS.ProcessEnv = {}, dataDir = mkdtempSync(join(tmpdir(), 'flood-data-'))): Promise<ServerUnderTest> {
  const args = [...SERVER_NODE_FLAGS, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(mode === 'built' ? [process.env.BENCH_ENTRY ?? 'dist/server/main.js'] : ['--import', 'tsx', 'server/main.ts'])];
  const started = performance.now();
  const logFile = join(mkdtempSync(join(tmpdir(), 'flood-log-')), 'stdout.log');
  const fd = openSync(logFile, 'w');
  const proc = spawn(process.execPath, args, {
    env: {
      ...process.env,
      ...SERVER_MALLOC_ENV,
      PORT: '0',
      HOST: '0.0.0.0',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info', // as in production: every refused identification is logged
      DATA_DIR: dataDir,
      STATIC_DIR: '/nonexistent',
      AI_ENABLED: '0',
      ACCOUNTS_ENABLED: '1',
      AUTH_AUTOCONFIRM: 'true',
      ...env,
    },
    stdio: ['ignore', fd, 'inherit'],
  });
  closeSync(fd);
  return (async () => {
    for (let waited = 0; waited < 90_000; waited += 200) {
      const port = readyPort(readFileSync(logFile, 'utf8'));
      if (port) return { proc, port, readyMs: performance.now() - started };
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${readFileSync(logFile, 'utf8')}`);
      await sleep(200);
    }
    proc.kill('SIGKILL');
    throw new Error('server did not start in 90 s');
  })();
}

/** The port of the server's 'server listening' log line, once its 'Ready: …' line follows it. */
function readyPort(logText: string): number | null {
  let port: number | null = null;
  for (const line of logText.split('\n')) {
    try {
      const j = JSON.parse(line) as { msg?: string; port?: number };
      if (j.msg === 'server listening' && j.port) port = j.port;
      if (typeof j.msg === 'string' && j.msg.startsWith('Ready: ')) return port;
    } catch {
      /* not a log line */
    }
  }
  return null;
}

/** A user signed up through the server's own auth API; its access token, and one with a broken signature. */
export async function tokens(base: string): Promise<{ userId: string; valid: string; badSignature: string }> {
  const { supabaseAnonKey } = (await (await fetch(`${base}/config.json`)).json()) as { supabaseAnonKey: string };
  const res = await fetch(`${base}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: supabaseAnonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `flood-${Date.now()}@example.com`, password: 'correct horse battery staple' }),
  });
  const body = (await res.json()) as { access_token?: string; user?: { id: string } };
  if (!body.access_token || !body.user) throw new Error(`signup gave no session (${res.status}): ${JSON.stringify(body)}`);
  const [h, p, s] = body.access_token.split('.');
  // same length and alphabet, different bytes: the signature check runs in full and fails
  const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
  return { userId: body.user.id, valid: body.access_token, badSignature: `${h}.${p}.${flipped}` };
}


/**
 * Pins a process and all its threads (and those it starts later) to one CPU with util-linux's
 * `taskset`, so that the server and the clients that load it do not share a core (--pin).
 */
export function pinToCpu(pid: number, cpu: number): void {
  const r = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset could not pin ${pid} to CPU ${cpu}: ${r.stderr || r.error?.message}`);
}

/**
 * A flooding child process, started and ready (its start-up is not part of the measured phase);
 * calling the result sends it its order and gives its outcome.
 */
export async function floodChild(cpu?: number): Promise<(order: FloodOrder) => Promise<FloodOutcome>> {
  const child = fork(new URL(import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, FLOOD_CHILD: '1' } });
  if (cpu !== undefined && child.pid) pinToCpu(child.pid, cpu);
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`flood child exited with ${code}`)));
  });
  return (order) =>
    new Promise((resolve, reject) => {
      child.once('message', (m) => resolve(m as FloodOutcome));
      child.once('exit', (code) => reject(new Error(`flood child exited with ${code}`)));
      child.send(order);
    });
}
