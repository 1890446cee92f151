/**
 * `npm run bench:resume`: how long a node takes, after `kill -9`, to have every live game back.
 * Starts the built server (or server/main.ts with --server tsx) on a fresh DATA_DIR, pairs
 * --games games (two real WebSocket clients each), plays --plies plies in every one, kills the
 * server with SIGKILL and starts it again on the same DATA_DIR. Reports, per run:
 *   - start to listening: process start until it listens, which is after every live game was
 *     read back from the journal, compacted and resumed (the "game resumed" lines are counted);
 *   - start to all back: until every player has reconnected with its saved identity and got its
 *     game back (gameStart with the full move list) — what players wait for, less their
 *     client's own reconnect delay;
 *   - the journal's size before the restart, and per move.
 *
 *   tsx loadtest/driver/resume-bench.ts --games 500 --plies 10 --runs 3
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { SERVER_NODE_FLAGS } from '../../server/nodeFlags';
import { guestCookieHeader, type GuestCredentials } from '../../machines/protocol/guestClaim';

const argv = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : def;
};
const games = Number(opt('games', '500'));
const plies = Math.min(10, Number(opt('plies', '10')));
const runs = Math.max(1, Number(opt('runs', '1')));
const serverMode = opt('server', 'built') as 'built' | 'tsx';
const OPENING = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'd2d3', 'f8c5', 'c2c3', 'd7d6'];
const log = (s: string) => process.stderr.write(s + '\n');

interface Server {
  proc: ChildProcess;
  port: number;
  resumed: number;
  exited: Promise<void>;
}

function startServer(dataDir: string): Promise<Server> {
  const args = [...SERVER_NODE_FLAGS, ...(serverMode === 'built' ? ['dist/server/main.js'] : ['--import', 'tsx', 'server/main.ts'])];
  const proc = spawn(process.execPath, args, {
    env: {
      ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'info', DATA_DIR: dataDir, STATIC_DIR: '/nonexistent',
      AI_ENABLED: '0', ACCOUNTS_ENABLED: '0', MAX_SOCKETS_PER_ADDRESS: '0', CONNECTS_PER_ADDRESS_PER_SECOND: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const server: Server = { proc, port: 0, resumed: 0, exited };
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const j = JSON.parse(line) as { msg?: string; port?: number };
      if (j.msg === 'game resumed') server.resumed++;
      if (j.msg === 'server listening') {
        server.port = j.port!;
        resolve(server);
      }
    });
    void exited.then(() => reject(new Error('server exited before listening')));
  });
}

interface Player {
  ws: WebSocket;
  id: string;
  secret: string;
  inbox: Record<string, unknown>[];
  waiters: ((m: Record<string, unknown>) => boolean)[];
}

function connect(port: number, guest?: GuestCredentials): Promise<Player> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/socket`, guest ? { headers: { Cookie: guestCookieHeader(guest) } } : {});
  const p: Player = { ws, id: '', secret: '', inbox: [], waiters: [] };
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as Record<string, unknown>;
    const i = p.waiters.findIndex((w) => w(m));
    if (i >= 0) p.waiters.splice(i, 1);
    else p.inbox.push(m);
  });
  return next(p, (m) => m.type === 'connectionAck').then((ack) => {
    p.id = ack.playerId as string;
    p.secret = ack.secret as string;
    return p;
  });
}

function next(p: Player, pred: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const i = p.inbox.findIndex(pred);
  if (i >= 0) return Promise.resolve(p.inbox.splice(i, 1)[0]);
  return new Promise((resolve) => p.waiters.push((m) => (pred(m) ? (resolve(m), true) : false)));
}

async function inBatches<T>(items: T[], size: number, fn: (t: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function oneRun(): Promise<{ listenMs: number; allBackMs: number; resumed: number; journalBytes: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'resume-bench-'));
  const first = await startServer(dataDir);
  const pairs: { white: Player; black: Player; gameId: string }[] = [];
  for (let g = 0; g < games; g++) {
    const [a, b] = await Promise.all([connect(first.port), connect(first.port)]);
    a.ws.send(JSON.stringify({ type: 'findGame', payload: { username: 'A' } }));
    await next(a, (m) => m.type === 'matchmakingStatus' && m.status === 'queued');
    b.ws.send(JSON.stringify({ type: 'findGame', payload: { username: 'B' } }));
    const [sa] = await Promise.all([next(a, (m) => m.type === 'gameStart'), next(b, (m) => m.type === 'gameStart')]);
    const white = sa.color === 'white' ? a : b;
    pairs.push({ white, black: white === a ? b : a, gameId: sa.gameId as string });
  }
  log(`  ${games} games paired; playing ${plies} plies each`);
  await inBatches(pairs, 100, async (p) => {
    for (let ply = 0; ply < plies; ply++) {
      const uci = OPENING[ply];
      (ply % 2 ? p.black : p.white).ws.send(JSON.stringify({ type: 'gameMove', payload: { gameId: p.gameId, move: { from: uci.slice(0, 2), to: uci.slice(2, 4) } } }));
      await Promise.all([p.white, p.black].map((pl) => next(pl, (m) => m.type === 'gameMove' && m.seq === ply + 1)));
    }
  });
  const journalBytes = statSync(join(dataDir, 'games', 'journal')).size;
  first.proc.kill('SIGKILL');
  await first.exited;
  for (const p of pairs) for (const pl of [p.white, p.black]) pl.ws.terminate();

  const t0 = performance.now();
  const second = await startServer(dataDir);
  const listenMs = performance.now() - t0;
  await inBatches(pairs, 50, async (p) => {
    await Promise.all(
      [p.white, p.black].map(async (old) => {
        const back = await connect(second.port, { playerId: old.id, secret: old.secret });
        back.ws.send(JSON.stringify({ type: 'rejoinGame', payload: { gameId: p.gameId } }));
        const start = await next(back, (m) => m.type === 'gameStart');
        const moves = (start.currentState as { moves: unknown[] }).moves.length;
        if (moves !== plies) throw new Error(`game ${p.gameId} came back with ${moves} moves, not ${plies}`);
        back.ws.terminate();
      }),
    );
  });
  const allBackMs = performance.now() - t0;
  const resumed = second.resumed;
  second.proc.kill('SIGTERM');
  await second.exited;
  return { listenMs, allBackMs, resumed, journalBytes };
}

async function main(): Promise<void> {
  if (serverMode === 'built') {
    const r = spawnSync(process.execPath, ['scripts/build-server.mjs', '--server-only'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('server build failed');
  }
  const results: Awaited<ReturnType<typeof oneRun>>[] = [];
  for (let run = 1; run <= runs; run++) {
    log(`run ${run} of ${runs}: ${games} games, ${games * 2} players`);
    const r = await oneRun();
    log(`  ${JSON.stringify(r)}`);
    if (r.resumed !== games) throw new Error(`${r.resumed} of ${games} games resumed`);
    results.push(r);
  }
  const median = (k: 'listenMs' | 'allBackMs') => results.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
  const bytes = results[0].journalBytes;
  process.stdout.write(
    [
      `${games} live games (${games * 2} players), ${plies} plies each, kill -9 then start again; server: ${serverMode}; medians of ${runs} runs`,
      `- start to listening, every game resumed: ${median('listenMs').toFixed(0)} ms (runs: ${results.map((r) => r.listenMs.toFixed(0)).join(', ')})`,
      `- start to every player back in its game: ${median('allBackMs').toFixed(0)} ms (runs: ${results.map((r) => r.allBackMs.toFixed(0)).join(', ')})`,
      `- journal before the restart: ${bytes} bytes, ${(bytes / (games * plies)).toFixed(0)} bytes per move (start and disconnection records included)`,
      '',
    ].join('\n'),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    log(String((err as Error)?.stack ?? err));
    process.exit(1);
  },
);
