import { createActor } from 'xstate';
import { gameMachine } from '../index';
const N = 3000;
let clocks = 0;
for (let i = 0; i < N; i++) {
  const a = createActor(gameMachine, { input: { gameId: 'g' + i, white: { id: 'w', name: 'W' }, black: { id: 'b', name: 'B' }, clockMs: 600000 } });
  a.on('clock', () => clocks++);
  a.start();
  a.send({ type: 'MOVE', playerId: 'w', move: { from: 'e2', to: 'e4' } });
  a.send({ type: 'MOVE', playerId: 'b', move: { from: 'e7', to: 'e5' } });
}
const c0 = process.cpuUsage();
const k0 = clocks;
setTimeout(() => {
  const c = process.cpuUsage(c0);
  const wakes = clocks - k0;
  console.log(`${wakes} clock events, ${((c.user + c.system) / wakes).toFixed(1)} us CPU per clock event`);
  process.exit(0);
}, 6000);
