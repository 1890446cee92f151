/**
 * `npm run bench:game-machine`: what the game core costs the server per move.
 *
 * The same random legal games (fixed seed) are played three ways: through the pure `step`, through
 * the game actor the server runs (XState `fromTransition` over the step: mailbox, snapshot,
 * emitted events), and through a bare ChessGame (isLegal + play + outcome, the chess a move needs
 * at least: the peer). CPU microseconds per move, medians of RUNS runs.
 * Then the same on cold caches (COLD_MB, default 32, walked before every move; 0 skips it): what
 * a loaded server meets, where other processes run between two moves of a game.
 */
import { createActor } from 'xstate';
import { ChessGame } from '../../chess';
import { createGame, gameLogic, step, timedCommand, type GameInput, type GameState, type WireMove } from '../index';

const GAMES = Number(process.env.GAMES ?? 300);
const RUNS = Number(process.env.RUNS ?? 7);
const COLD_MB = Number(process.env.COLD_MB ?? 32);
const COLD_GAMES = 300;

let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = (s: string) => process.stdout.write(`${s}\n`);

const games: string[][] = [];
for (let i = 0; i < GAMES; i++) {
  const g = new ChessGame();
  const moves: string[] = [];
  while (!g.outcome() && moves.length < 200) {
    const legal = g.legalMoves();
    const m = legal[Math.floor(rnd() * legal.length)];
    g.play(m);
    moves.push(m);
  }
  games.push(moves);
}
const totalMoves = games.reduce((n, g) => n + g.length, 0);
const wire = (m: string): WireMove => ({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] as WireMove['promotion'] });
const input = (i: number, startedAt: number): GameInput => ({
  gameId: `g${i}`,
  white: { id: 'w', name: 'W' },
  black: { id: 'b', name: 'B' },
  startedAt,
});

/** CPU microseconds (user + system) since c0: wall time means little on a shared machine. */
const cpuSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return c.user + c.system;
};

function movesViaStep(): number {
  const c0 = process.cpuUsage();
  let moved = 0;
  games.forEach((moves, i) => {
    let now = 0;
    let state: GameState = createGame(input(i, now));
    let white = true;
    for (const m of moves) {
      now += 700;
      const r = step(state, { type: 'MOVE', playerId: white ? 'w' : 'b', move: wire(m), lagMs: 20 }, now);
      state = r.state;
      if (r.events[0]?.type === 'moved') moved++;
      white = !white;
    }
  });
  if (moved !== totalMoves) throw new Error(`${moved} moved events for ${totalMoves} moves`);
  return cpuSince(c0) / totalMoves;
}

function movesViaActor(): number {
  const c0 = process.cpuUsage();
  let moved = 0;
  games.forEach((moves, i) => {
    let now = 0;
    const actor = createActor(gameLogic, { input: input(i, now) });
    actor.on('moved', () => void moved++);
    actor.start();
    let white = true;
    for (const m of moves) {
      now += 700;
      actor.send(timedCommand({ type: 'MOVE', playerId: white ? 'w' : 'b', move: wire(m), lagMs: 20 }, now)); // as the server stamps it
      white = !white;
    }
    actor.stop();
  });
  if (moved !== totalMoves) throw new Error(`${moved} moved events for ${totalMoves} moves`);
  return cpuSince(c0) / totalMoves;
}

function movesViaChessCore(): number {
  const c0 = process.cpuUsage();
  for (const moves of games) {
    const g = new ChessGame();
    for (const m of moves) {
      if (!g.isLegal(wire(m)) || !g.play(wire(m))) throw new Error('illegal');
      g.outcome();
    }
  }
  return cpuSince(c0) / totalMoves;
}

movesViaStep();
movesViaActor();
movesViaChessCore(); // warm-up
const runs = { step: [] as number[], actor: [] as number[], chess: [] as number[] };
for (let r = 0; r < RUNS; r++) {
  runs.step.push(movesViaStep());
  runs.actor.push(movesViaActor());
  runs.chess.push(movesViaChessCore());
}
const [sm, am, cm] = [median(runs.step), median(runs.actor), median(runs.chess)];
out(`moves: ${GAMES} random games, ${totalMoves} moves, median of ${RUNS} runs (CPU per move)`);
out(`  step (pure)         ${sm.toFixed(1)} us (${(sm / cm).toFixed(1)}x the peer)`);
out(`  game actor          ${am.toFixed(1)} us (${(am / cm).toFixed(1)}x the peer; what the server runs)`);
out(`  ChessGame (peer)    ${cm.toFixed(1)} us`);

// Moves on cold caches: COLD_MB of memory is walked before every move, games are visited
// round-robin, and only the move itself is timed (wall time).
const coldBuffer = new Float64Array(COLD_MB * 131_072);
function evictCaches(): number {
  let s = 0;
  for (let i = 0; i < coldBuffer.length; i += 8) s += ++coldBuffer[i];
  return s;
}

function coldMoves(kind: 'actor' | 'chess'): number {
  const n = Math.min(COLD_GAMES, games.length);
  const actors = kind === 'actor' ? games.slice(0, n).map((_, i) => createActor(gameLogic, { input: input(i, 0) }).start()) : [];
  const boards = kind === 'chess' ? games.slice(0, n).map(() => new ChessGame()) : [];
  let total = 0;
  let moved = 0;
  for (let ply = 0; ply < 60; ply++) {
    for (let i = 0; i < n; i++) {
      const m = games[i][ply];
      if (m === undefined) continue;
      evictCaches();
      const t0 = performance.now();
      if (kind === 'chess') {
        boards[i].isLegal(wire(m));
        boards[i].play(wire(m));
        boards[i].outcome();
      } else actors[i].send(timedCommand({ type: 'MOVE', playerId: ply % 2 ? 'b' : 'w', move: wire(m), lagMs: 20 }, ply * 700));
      total += performance.now() - t0;
      moved++;
    }
  }
  for (const a of actors) a.stop();
  return (total * 1000) / moved;
}

if (COLD_MB > 0) {
  const cold = { actor: [] as number[], chess: [] as number[] };
  for (let r = 0; r < 3; r++) {
    cold.actor.push(coldMoves('actor'));
    cold.chess.push(coldMoves('chess'));
  }
  out(`moves on cold caches (${COLD_MB} MB walked before each move, wall time of the move, median of 3)`);
  out(`  game actor          ${median(cold.actor).toFixed(1)} us/move`);
  out(`  ChessGame (peer)    ${median(cold.chess).toFixed(1)} us/move`);
}
