/**
 * `npm run bench:flood`: the identification flood of issue 24 against the real server (a separate
 * process with accounts on an embedded database), while a bystander game is played on it.
 *
 * Phases, each measured on the bystander games (--games pairs of players from another loopback
 * address, 127.0.0.2, playing random legal moves, 250 ms a move): quiet; 1,000 sockets from
 * 127.0.0.1 each sending identifyUser with a bad-signature token; 300 sockets each sending it
 * with a valid token. The relay time is from a player's send to the opponent's receipt of the
 * gameMove; its p99 per phase is the figure of the issue (target: under 50 ms in both floods).
 * The flooding sockets live in a child process so their work does not delay the bystander's
 * clock readings.
 *
 *   tsx loadtest/flood/bench.ts [--bad 1000] [--valid 300] [--runs 3] [--sources 1] [--p99 50]
 *                               [--games 10] [--server tsx|built] [--distinct] [--pin]
 *
 * Each phase also reports, from the server's /metrics, how many of its journal commits (write +
 * fdatasync, which a move waits for) and of its server-side move relays took over 25 and 100 ms,
 * so that a slow relay can be told apart from a slow disk.
 *
 * --pin gives the server a core of its own (util-linux taskset): the server on CPU 0, every
 * client (the flooding child and this process with the bystanders) on CPU 1, as when the clients
 * are on other machines. Without it every process runs on any core, and on a 2-core machine the
 * flooding clients' own work delays the server as much as the flood's messages do. The flooding
 * clients are bare TCP sockets (bareSocket.ts), so they take as little of CPU 1 from the
 * bystanders as a flood can.
 *
 * --sources N spreads the flood over N loopback addresses (127.0.1.1 …): the per-address limits
 * then bind less and the global identification budget is what is left. --distinct gives every
 * bad-signature socket its own token, so that no answer is cached and each one costs a check. Exit 1 when a flood
 * phase's median relay p99 is over --p99 or a bystander move was lost.
 * BENCH_ENTRY=path/main.js drives another build (for before/after runs).
 */
import WebSocket from 'ws';
import { ChessGame } from '../../machines/chess';
import { argv, floodChild, log, opt, pinToCpu, sleep, startServer, tokens, type FloodOutcome } from './flooding';

const BYSTANDER_ADDRESS = '127.0.0.2';
/** think time per move: a socket may send 100 messages in 20 s (5 a second) before it is closed */
const THINK_MS = 250;
/** a flood phase is measured for at least this long, so that the bystanders make enough moves */
const PHASE_MIN_MS = 5000;
/** --distinct: a different bad token per socket */
let distinct = false;
/** --pin: the server on CPU 0, the clients (the bystanders and the flood) on CPU 1 */
let pinned = false;
const SERVER_CPU = 0;
const CLIENT_CPU = 1;

// ------------------------------------------------------------------------------------------------
// the bystander game: relay times from a send to the opponent's receipt

class Bystander {
  relays: number[] = [];
  lost = 0;
  private players: { ws: WebSocket; color?: string; gameId?: string }[] = [];
  private chess = new ChessGame();
  private sentAt = 0;
  /** the player whose move is in flight */
  private sender: { ws: WebSocket } | null = null;
  private stopped = false;

  async start(url: string): Promise<void> {
    for (let i = 0; i < 2; i++) {
      const ws = new WebSocket(url, { localAddress: BYSTANDER_ADDRESS });
      const p: { ws: WebSocket; color?: string; gameId?: string } = { ws };
      this.players.push(p);
      await new Promise<void>((resolve, reject) => {
        ws.once('error', reject);
        ws.on('message', (data) => {
          const m = JSON.parse(data.toString()) as { type: string; [k: string]: unknown };
          if (m.type === 'connectionAck') resolve();
          this.onMessage(p, m);
        });
      });
    }
    for (const p of this.players) {
      p.ws.send(JSON.stringify({ type: 'findGame', payload: { username: 'bystander' } }));
      await sleep(50);
    }
    for (let i = 0; i < 100 && !this.players.every((p) => p.gameId); i++) await sleep(50);
    if (!this.players.every((p) => p.gameId)) throw new Error('the bystander game did not start');
  }

  private onMessage(p: { ws: WebSocket; color?: string; gameId?: string }, m: { type: string; [k: string]: unknown }): void {
    if (m.type === 'gameStart') {
      p.color = m.color as string;
      p.gameId = m.gameId as string;
      if (this.players.every((q) => q.gameId === p.gameId)) {
        this.chess = new ChessGame();
        this.moveSoon();
      }
    } else if (m.type === 'gameMove') {
      const move = m.move as { from: string; to: string; promotion?: string };
      // the opponent's copy of the move ends the relay (the mover's own echo is not counted)
      if (this.sender !== null && p !== this.sender) {
        this.sender = null;
        if (this.sentAt) this.relays.push(performance.now() - this.sentAt);
        this.sentAt = 0;
        this.chess.play(move.from + move.to + (move.promotion ?? ''));
        this.moveSoon();
      }
    } else if (m.type === 'gameEnd') {
      // this bystander's game is over (searching again could pair it with another bystander's player)
      this.stopped = true;
    } else if (m.type === 'moveRejected') {
      this.lost++;
      if (this.lost === 1) log(`  bystander move rejected: ${JSON.stringify(m)}`);
    }
  }

  private moveSoon(): void {
    setTimeout(() => {
      if (this.stopped) return;
      const turn = this.chess.turn();
      const p = this.players.find((q) => q.color === turn);
      const moves = this.chess.legalMoves();
      if (!p?.gameId || moves.length === 0) return;
      const uci = moves[Math.floor(Math.random() * moves.length)];
      this.sentAt = performance.now();
      this.sender = p;
      p.ws.send(JSON.stringify({ type: 'gameMove', payload: { gameId: p.gameId, move: { from: uci.slice(0, 2), to: uci.slice(2, 4), ...(uci.length > 4 ? { promotion: uci[4] } : {}) } } }));
    }, THINK_MS);
  }

  /** The relay times since the last call, and a move still in flight for more than 5 s counts as lost. */
  take(): number[] {
    if (this.sentAt && performance.now() - this.sentAt > 5000) this.lost++;
    const out = this.relays;
    this.relays = [];
    return out;
  }

  stop(): void {
    this.stopped = true;
    for (const p of this.players) p.ws.terminate();
  }
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs: number[]) => pct(xs, 50);

interface PhaseResult {
  phase: string;
  /** the server's side of the phase: slow journal commits and slow server-side relays */
  server: string;
  moves: number;
  p50: number;
  p99: number;
  max: number;
  outcome?: FloodOutcome;
}

/** Cumulative counts of one of the server's histograms by upper bound ("le"), from /metrics. */
async function buckets(port: number, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\d+)$`, 'gm'))) out.set(m[1], Number(m[2]));
  return out;
}

/** How many observations between two readings of a histogram were over `le` seconds. */
function over(before: Map<string, number>, after: Map<string, number>, le: string): number {
  const all = (after.get('+Inf') ?? 0) - (before.get('+Inf') ?? 0);
  return all - ((after.get(le) ?? 0) - (before.get(le) ?? 0));
}

const SERVER_HISTOGRAMS = ['chess_game_journal_commit_seconds', 'chess_move_relay_seconds'] as const;

async function phase(name: string, port: number, bystanders: Bystander[], work: () => Promise<FloodOutcome | undefined>): Promise<PhaseResult> {
  for (const b of bystanders) b.take();
  const [commits0, relays0] = await Promise.all(SERVER_HISTOGRAMS.map((h) => buckets(port, h)));
  const started = performance.now();
  const outcome = await work();
  await sleep(Math.max(500, PHASE_MIN_MS - (performance.now() - started))); // the flood's tail counts too
  const relays = bystanders.flatMap((b) => b.take());
  const [commits1, relays1] = await Promise.all(SERVER_HISTOGRAMS.map((h) => buckets(port, h)));
  const server = `server: journal commits over 25 / 100 ms: ${over(commits0, commits1, '0.025')} / ${over(commits0, commits1, '0.1')}, server-side relays over 25 / 100 ms: ${over(relays0, relays1, '0.025')} / ${over(relays0, relays1, '0.1')}`;
  return { phase: name, server, moves: relays.length, p50: pct(relays, 50), p99: pct(relays, 99), max: pct(relays, 100), outcome };
}

async function oneRun(bad: number, valid: number, sources: string[], games: number): Promise<{ results: PhaseResult[]; lost: number }> {
  const server = await startServer(opt('server', 'tsx'));
  if (pinned && server.proc.pid) pinToCpu(server.proc.pid, SERVER_CPU);
  const floodCpu = pinned ? CLIENT_CPU : undefined;
  const base = `http://127.0.0.1:${server.port}`;
  const url = `ws://127.0.0.1:${server.port}/socket`;
  const bystanders = Array.from({ length: games }, () => new Bystander());
  try {
    const t = await tokens(base);
    for (const b of bystanders) await b.start(url); // one pair at a time, so each pair plays each other
    await sleep(2000); // the bystanders' games warm up the move path
    const results = [
      await phase('quiet', server.port, bystanders, async () => undefined),
      await phase(`${bad} bad-signature identifyUser`, server.port, bystanders, await floodChild(floodCpu).then((flood) => () => flood({ url, count: bad, sources, userId: t.userId, token: t.badSignature, distinct }))),
      await phase(`${valid} valid identifyUser`, server.port, bystanders, await floodChild(floodCpu).then((flood) => () => flood({ url, count: valid, sources, userId: t.userId, token: t.valid }))),
    ];
    return { results, lost: bystanders.reduce((n, b) => n + b.lost, 0) };
  } finally {
    for (const b of bystanders) b.stop();
    server.proc.kill('SIGTERM');
    await new Promise((r) => server.proc.once('exit', r));
  }
}

async function main(): Promise<void> {
  const bad = Number(opt('bad', '1000'));
  const valid = Number(opt('valid', '300'));
  const runs = Math.max(1, Number(opt('runs', '3')));
  const sourceCount = Math.max(1, Number(opt('sources', '1')));
  const p99Limit = Number(opt('p99', '50'));
  const games = Math.max(1, Number(opt('games', '10')));
  distinct = argv.includes('--distinct');
  pinned = argv.includes('--pin');
  if (pinned) pinToCpu(process.pid, CLIENT_CPU);
  const sources = sourceCount === 1 ? ['127.0.0.1'] : Array.from({ length: sourceCount }, (_, i) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`);
  const all: PhaseResult[][] = [];
  let lost = 0;
  for (let r = 0; r < runs; r++) {
    log(`run ${r + 1}/${runs}`);
    const run = await oneRun(bad, valid, sources, games);
    lost += run.lost;
    for (const res of run.results) {
      const o = res.outcome;
      log(
        `  ${res.phase.padEnd(34)} bystander relay p50 ${res.p50.toFixed(1)} ms, p99 ${res.p99.toFixed(1)} ms, max ${res.max.toFixed(1)} ms over ${res.moves} moves` +
          (o
            ? `; flood: ${o.opened} opened, ${o.refused} refused ${JSON.stringify(o.refusedStatuses)}, ${o.identified} identified, ${o.identifyFailed} identify_failed, other ${JSON.stringify(o.otherErrors)}, ${o.unanswered} unanswered, ${o.ms.toFixed(0)} ms (${o.cpuMs.toFixed(0)} ms of the flooding process's CPU)`
            : '') +
          `\n    ${res.server}`,
      );
    }
    all.push(run.results);
  }
  log(`\nmedians over ${runs} run(s), flood from ${sourceCount} address(es), ${games} bystander games${distinct ? ', a distinct bad token per socket' : ''}${pinned ? ', the server pinned to CPU 0, the bystanders and the flood to CPU 1' : ''}:`);
  let failed = lost > 0;
  for (let i = 0; i < all[0].length; i++) {
    const p99 = median(all.map((r) => r[i].p99));
    const line = `  ${all[0][i].phase.padEnd(34)} relay p50 ${median(all.map((r) => r[i].p50)).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${median(all.map((r) => r[i].max)).toFixed(1)} ms`;
    log(line);
    if (i > 0 && !(p99 < p99Limit)) failed = true;
  }
  if (lost) log(`  ${lost} bystander move(s) lost`);
  log(failed ? `FAIL: a flood phase's relay p99 is not under ${p99Limit} ms, or a move was lost` : `ok: every flood phase's relay p99 under ${p99Limit} ms`);
  process.exit(failed ? 1 : 0);
}

void main();
