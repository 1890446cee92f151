/**
 * `npm run bench:game-machine`: what the game actor adds on top of the chess core per move.
 * Replays the same random legal games (fixed seed) twice: through gameMachine actors (validation,
 * clocks, emitted events, snapshot) and through bare ChessGame.play + status() (the peer), and
 * prints microseconds per move for both and their ratio. Medians of several runs.
 */
import { createActor } from 'xstate';
import { ChessGame } from '../../chess';
import { gameMachine } from '../index';

const GAMES = Number(process.env.GAMES ?? 300);
const RUNS = Number(process.env.RUNS ?? 7);

let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

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

function viaMachine(): number {
  const t0 = performance.now();
  let emitted = 0;
  for (const moves of games) {
    const actor = createActor(gameMachine, {
      input: { gameId: 'g', white: { id: 'w', name: 'W' }, black: { id: 'b', name: 'B' }, clockMs: 600_000 },
    });
    actor.on('*', () => void emitted++);
    actor.start();
    let white = true;
    for (const m of moves) {
      actor.send({ type: 'MOVE', playerId: white ? 'w' : 'b', move: wire(m), lagMs: 20 });
      white = !white;
    }
    actor.stop();
  }
  if (emitted < totalMoves) throw new Error(`only ${emitted} events for ${totalMoves} moves`);
  return ((performance.now() - t0) * 1000) / totalMoves;
}

function viaChessCore(): number {
  const t0 = performance.now();
  for (const moves of games) {
    const g = new ChessGame();
    for (const m of moves) {
      if (!g.isLegal(wire(m)) || !g.play(wire(m))) throw new Error('illegal');
      g.status();
    }
  }
  return ((performance.now() - t0) * 1000) / totalMoves;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
viaMachine();
viaChessCore(); // warm-up
const machine: number[] = [];
const core: number[] = [];
for (let r = 0; r < RUNS; r++) {
  machine.push(viaMachine());
  core.push(viaChessCore());
}
const m = median(machine);
const c = median(core);
process.stdout.write(
  `game machine: ${GAMES} games, ${totalMoves} moves, ${RUNS} runs\n` +
    `  gameMachine actor  ${m.toFixed(1)} us/move (median)\n` +
    `  ChessGame peer     ${c.toFixed(1)} us/move (median)\n` +
    `  ratio              ${(m / c).toFixed(1)}x\n`,
);
