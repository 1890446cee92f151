/**
 * `npm run bench:game-machine`: what the game actor costs the server.
 *
 * 1. Moves: CPU time for the same random legal games (fixed seed) replayed through gameMachine actors
 *    (validation, clocks, emitted events) and through bare ChessGame isLegal+play+status (the
 *    peer). Microseconds per move, medians of RUNS runs, and the ratio.
 *    1b. The same on cold caches (COLD_MB, default 32, walked before every move; 0 skips it):
 *    driven machine, serverGameMachine (direct moves) and bare ChessGame.
 * 2. Clock wake-ups: ACTORS running games, each waking once per second to emit `clock`, against
 *    a minimal XState machine that only re-enters a state on an `after` timer and emits (the
 *    peer: the floor of any XState timer). CPU microseconds per wake-up (process.cpuUsage over
 *    WAKE_SECONDS), and the ratio.
 */
import { createActor, emit, setup } from 'xstate';
import { ChessGame } from '../../chess';
import { drivenGameMachine, gameMachine, serverGameMachine } from '../index';

const GAMES = Number(process.env.GAMES ?? 300);
const RUNS = Number(process.env.RUNS ?? 7);
const ACTORS = Number(process.env.ACTORS ?? 2000);
const WAKE_SECONDS = Number(process.env.WAKE_SECONDS ?? 4);

let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = (s: string) => process.stdout.write(`${s}\n`);

// ------------------------------------------------------------------------------------------
// 1. Moves

const games: string[][] = [];
for (let i = 0; i < GAMES; i++) {
  const g = new ChessGame();
  const moves: string[] = [];
  while (!g.status().over && moves.length < 200) {
    const legal = g.legalMoves();
    const m = legal[Math.floor(rnd() * legal.length)];
    g.play(m);
    moves.push(m);
  }
  games.push(moves);
}
const totalMoves = games.reduce((n, g) => n + g.length, 0);
const wire = (m: string) => ({
  from: m.slice(0, 2),
  to: m.slice(2, 4),
  ...(m[4] ? { promotion: m[4] as 'q' | 'r' | 'b' | 'n' } : {}),
});

/** CPU microseconds (user + system) since c0: wall time means little on a shared machine. */
const cpuSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return c.user + c.system;
};

type AnyGameMachine = typeof gameMachine | typeof drivenGameMachine | typeof serverGameMachine;

function movesViaMachine(machine: AnyGameMachine = gameMachine): number {
  const c0 = process.cpuUsage();
  let moved = 0;
  for (const moves of games) {
    const actor = createActor(machine as typeof gameMachine, {
      input: { gameId: 'g', white: { id: 'w', name: 'W' }, black: { id: 'b', name: 'B' }, clockMs: 600_000 },
    });
    actor.on('moved', () => void moved++);
    actor.start();
    let white = true;
    for (const m of moves) {
      actor.send({ type: 'MOVE', playerId: white ? 'w' : 'b', move: wire(m), lagMs: 20 });
      white = !white;
    }
    actor.stop();
  }
  if (moved !== totalMoves) throw new Error(`${moved} moved events for ${totalMoves} moves`);
  return cpuSince(c0) / totalMoves;
}

function movesViaChessCore(): number {
  const c0 = process.cpuUsage();
  for (const moves of games) {
    const g = new ChessGame();
    for (const m of moves) {
      if (!g.isLegal(wire(m)) || !g.play(wire(m))) throw new Error('illegal');
      g.status();
    }
  }
  return cpuSince(c0) / totalMoves;
}

movesViaMachine();
movesViaMachine(drivenGameMachine);
movesViaMachine(serverGameMachine);
movesViaChessCore(); // warm-up
const machineMoves: number[] = [];
const drivenMoves: number[] = [];
const serverMoves: number[] = [];
const coreMoves: number[] = [];
for (let r = 0; r < RUNS; r++) {
  machineMoves.push(movesViaMachine());
  drivenMoves.push(movesViaMachine(drivenGameMachine));
  serverMoves.push(movesViaMachine(serverGameMachine));
  coreMoves.push(movesViaChessCore());
}
const mm = median(machineMoves);
const dm = median(drivenMoves);
const sm = median(serverMoves);
const cm = median(coreMoves);
out(`moves: ${GAMES} random games, ${totalMoves} moves, median of ${RUNS} runs`);
out(`  gameMachine actor   ${mm.toFixed(1)} us CPU/move`);
out(`  driven (no timers)  ${dm.toFixed(1)} us CPU/move (${(dm / cm).toFixed(1)}x the peer)`);
out(`  server (direct)     ${sm.toFixed(1)} us CPU/move (the server's; ${(sm / cm).toFixed(1)}x the peer)`);
out(`  ChessGame (peer)    ${cm.toFixed(1)} us CPU/move`);
out(`  ratio               ${(mm / cm).toFixed(1)}x`);

// ------------------------------------------------------------------------------------------
// 1b. Moves on cold caches: what a loaded server sees. Between two moves other processes run
// and evict the caches; here COLD_MB of memory is walked before every move (32 = this
// machine's L3), games are visited round-robin, and only the move itself is timed (wall time).

const COLD_MB = Number(process.env.COLD_MB ?? 32);
const COLD_GAMES = 300;
const coldBuffer = new Float64Array(COLD_MB * 131_072);
function evictCaches(): number {
  let s = 0;
  for (let i = 0; i < coldBuffer.length; i += 8) s += ++coldBuffer[i];
  return s;
}

function coldMoves(kind: AnyGameMachine | 'chess'): number {
  const n = Math.min(COLD_GAMES, games.length);
  const subjects = games.slice(0, n).map((_, i) => {
    if (kind === 'chess') return new ChessGame();
    const a = createActor(kind as typeof gameMachine, {
      input: { gameId: `g${i}`, white: { id: 'w', name: 'W' }, black: { id: 'b', name: 'B' }, clockMs: 600_000 },
    });
    a.start();
    return a;
  });
  let total = 0;
  let moved = 0;
  for (let ply = 0; ply < 60; ply++) {
    for (let i = 0; i < n; i++) {
      const m = games[i][ply];
      if (m === undefined) continue;
      evictCaches();
      const t0 = performance.now();
      const s = subjects[i];
      if (s instanceof ChessGame) {
        s.isLegal(wire(m));
        s.play(wire(m));
        s.status();
      } else s.send({ type: 'MOVE', playerId: ply % 2 ? 'b' : 'w', move: wire(m), lagMs: 20 });
      total += performance.now() - t0;
      moved++;
    }
  }
  for (const s of subjects) if (!(s instanceof ChessGame)) s.stop();
  return (total * 1000) / moved;
}

if (COLD_MB > 0) {
  const cold = { driven: [] as number[], server: [] as number[], chess: [] as number[] };
  for (let r = 0; r < 3; r++) {
    cold.driven.push(coldMoves(drivenGameMachine));
    cold.server.push(coldMoves(serverGameMachine));
    cold.chess.push(coldMoves('chess'));
  }
  out(`moves on cold caches (${COLD_MB} MB walked before each move, wall time of the move, median of 3)`);
  out(`  driven (no timers)  ${median(cold.driven).toFixed(1)} us/move`);
  out(`  server (direct)     ${median(cold.server).toFixed(1)} us/move`);
  out(`  ChessGame (peer)    ${median(cold.chess).toFixed(1)} us/move`);
}

// ------------------------------------------------------------------------------------------
// 2. Clock wake-ups

const bareTicker = setup({
  types: {} as { context: { t0: number } },
  delays: { nextSecond: ({ context }) => 1000 - ((performance.now() - context.t0) % 1000) },
}).createMachine({
  context: () => ({ t0: performance.now() }),
  initial: 'running',
  states: {
    running: { after: { nextSecond: { target: 'running', reenter: true, actions: emit({ type: 'clock' }) } } },
  },
});

async function cpuPerWake(kind: 'machine' | 'bare'): Promise<number> {
  let wakes = 0;
  const actors: { stop(): unknown }[] = [];
  for (let i = 0; i < ACTORS; i++) {
    if (kind === 'machine') {
      const a = createActor(gameMachine, {
        input: { gameId: `g${i}`, white: { id: 'w', name: 'W' }, black: { id: 'b', name: 'B' }, clockMs: 600_000 },
      });
      a.on('clock', () => void wakes++);
      a.start();
      a.send({ type: 'MOVE', playerId: 'w', move: { from: 'e2', to: 'e4' } });
      a.send({ type: 'MOVE', playerId: 'b', move: { from: 'e7', to: 'e5' } });
      actors.push(a);
    } else {
      const a = createActor(bareTicker);
      a.on('clock', () => void wakes++);
      a.start();
      actors.push(a);
    }
  }
  await new Promise((r) => setTimeout(r, 1100));
  const c0 = process.cpuUsage();
  const w0 = wakes;
  await new Promise((r) => setTimeout(r, WAKE_SECONDS * 1000));
  const used = cpuSince(c0);
  const n = wakes - w0;
  for (const a of actors) a.stop();
  return used / n;
}

const machineWakes: number[] = [];
const bareWakes: number[] = [];
for (let r = 0; r < 3; r++) {
  machineWakes.push(await cpuPerWake('machine'));
  bareWakes.push(await cpuPerWake('bare'));
}
const mw = median(machineWakes);
const bw = median(bareWakes);
out(`clock wake-ups: ${ACTORS} running games, ${WAKE_SECONDS} s, median of 3 runs`);
out(`  gameMachine clock        ${mw.toFixed(1)} us CPU/wake-up`);
out(`  bare XState after (peer) ${bw.toFixed(1)} us CPU/wake-up`);
out(`  ratio                    ${(mw / bw).toFixed(1)}x`);
out(`  => ${((mw * ACTORS) / 10_000).toFixed(1)}% of one core for ${ACTORS} games with clockEvents on`);
