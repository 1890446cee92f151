/**
 * How much of the server's CPU per move is the game actor itself: plays random legal games on
 * N game actors in-process (no sockets), and measures CPU µs per MOVE event and per clock tick.
 *   tsx loadtest/driver/machine-cost.ts [games=500] [seconds=10]
 */
import { createActor } from 'xstate';
import { ChessGame } from '../../machines/chess';
import { gameMachine } from '../../machines/game';

const games = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 10);

interface G {
  actor: ReturnType<typeof createActor<typeof gameMachine>>;
  chess: ChessGame;
  ended: boolean;
}
let emitted = 0;
let ticks = 0;
const gs: G[] = [];
function make(i: number): G {
  const actor = createActor(gameMachine, {
    input: { gameId: 'g' + i, white: { id: 'w' + i, name: 'W' }, black: { id: 'b' + i, name: 'B' }, clockMs: 600_000 },
  });
  const g: G = { actor, chess: new ChessGame(), ended: false };
  actor.on('*', (e: { type: string }) => {
    emitted++;
    if (e.type === 'clock') ticks++;
    if (e.type === 'ended') g.ended = true;
  });
  actor.start();
  return g;
}
for (let i = 0; i < games; i++) gs.push(make(i));

/** The next random legal move of game i (driver side, not measured), or null when it is over. */
function nextMove(g: G, i: number): { playerId: string; uci: string } | null {
  if (g.ended) return null;
  const legal = g.chess.legalMoves();
  if (!legal.length) return null;
  const uci = legal[Math.floor(Math.random() * legal.length)];
  const playerId = g.chess.turn() === 'white' ? 'w' + i : 'b' + i;
  g.chess.play(uci);
  return { playerId, uci };
}
function send(g: G, m: { playerId: string; uci: string }): void {
  const u = m.uci;
  g.actor.send({ type: 'MOVE', playerId: m.playerId, move: { from: u.slice(0, 2), to: u.slice(2, 4), ...(u[4] ? { promotion: u[4] as 'q' } : {}) } });
}
// two plies each so that every clock runs
for (let r = 0; r < 2; r++) for (let i = 0; i < games; i++) {
  const m = nextMove(gs[i], i);
  if (m) send(gs[i], m);
}
// MOVE cost: 20 more plies per game; the moves are chosen first, then only actor.send is timed
let moves = 0;
let moveCpu = 0;
for (let r = 0; r < 20; r++) {
  const batch: [number, { playerId: string; uci: string }][] = [];
  for (let i = 0; i < games; i++) {
    const m = nextMove(gs[i], i);
    if (m) batch.push([i, m]);
  }
  const t0 = process.cpuUsage();
  for (const [i, m] of batch) send(gs[i], m);
  const d = process.cpuUsage(t0);
  moveCpu += d.user + d.system;
  moves += batch.length;
}
const perMove = moveCpu / moves;
// tick cost: let the clocks run with nobody moving
ticks = 0;
const c0 = process.cpuUsage();
setTimeout(() => {
  const d = process.cpuUsage(c0);
  const perTick = (d.user + d.system) / Math.max(1, ticks);
  process.stdout.write(
    JSON.stringify({ games, moves, cpuUsPerMoveEvent: +perMove.toFixed(1), ticks, cpuUsPerClockTick: +perTick.toFixed(1), note: 'tick cost includes the idle process (timers, GC)' }) + '\n',
  );
  for (const g of gs) g.actor.stop();
  process.exit(0);
}, seconds * 1000);
