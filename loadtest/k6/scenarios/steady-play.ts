/**
 * (b) Steady play: VUS players each play one game after another against each other, random
 * legal moves at a human pace, until the ply cap makes the player to move resign (or the game
 * ends earlier by mate, draw or the clock). Start the server with a short clock so flags
 * happen too, e.g. `CLOCK_SECONDS=120 npm start`.
 *
 *   k6 run -e BASE_URL=http://localhost:3000 -e VUS=1000 -e DURATION=5m loadtest/k6/scenarios/steady-play.ts
 *
 * THINK_MIN_MS / THINK_MAX_MS: pause before each move; MAX_PLIES: ply cap per game.
 */
import type { Options } from 'k6/options';
import { envInt, paceSettings, playersAtPlateau } from '../lib/config.ts';
import { playerName } from '../lib/names.ts';
import { playOnlineGame } from '../lib/online-player.ts';
import { correctnessThresholds, generatorThresholds, pairingThresholds, relayThresholds } from '../lib/thresholds.ts';

const VUS = envInt('VUS', 200, 2, 1_000_000);
const pace = paceSettings({ thinkMinMs: 1_000, thinkMaxMs: 3_000, maxPlies: 60 });

export const options: Options = {
  scenarios: {
    // Games in progress reach their end instead of being cut off.
    steady_play: playersAtPlateau(VUS, pace.gameTimeoutMs, { ramp: '30s', duration: '3m' }),
  },
  thresholds: { ...correctnessThresholds(), ...pairingThresholds(), ...relayThresholds(), ...generatorThresholds({ arrivals: false }) },
};

export default function steadyPlay(): void {
  playOnlineGame({ ...pace, username: playerName() });
}
