/**
 * (a) Lobby storm: players arrive at a growing rate, connect, join the 10-minute pool and get
 * paired. Right after pairing, the player with white resigns, so every pairing also proves a
 * game can be created and ended; no moves are played.
 *
 *   k6 run -e BASE_URL=http://localhost:3000 -e RATE=100 -e DURATION=1m loadtest/k6/scenarios/lobby-storm.ts
 *
 * RATE: new players per second at the peak; RAMP: time to reach it; DURATION: time held there.
 */
import type { Options } from 'k6/options';
import { envDuration, envInt, paceSettings } from '../lib/config.ts';
import { playerName } from '../lib/names.ts';
import { playOnlineGame } from '../lib/online-player.ts';
import { correctnessThresholds, generatorThresholds, pairingThresholds } from '../lib/thresholds.ts';

const RATE = envInt('RATE', 50, 1, 100_000);
const pace = paceSettings({ thinkMinMs: 0, thinkMaxMs: 0, maxPlies: 1 });

export const options: Options = {
  scenarios: {
    lobby_storm: {
      executor: 'ramping-arrival-rate',
      startRate: 0,
      timeUnit: '1s',
      preAllocatedVUs: envInt('PRE_VUS', Math.min(RATE * 4, 2_000), 1, 100_000),
      maxVUs: envInt('MAX_VUS', Math.max(RATE * 20, 100), 1, 200_000),
      stages: [
        { duration: envDuration('RAMP', '20s'), target: RATE },
        { duration: envDuration('DURATION', '1m'), target: RATE },
        { duration: '5s', target: 0 },
      ],
      gracefulStop: '30s',
    },
  },
  thresholds: { ...correctnessThresholds(), ...pairingThresholds(), ...generatorThresholds({ arrivals: true }) },
};

export default function lobbyStorm(): void {
  playOnlineGame({ ...pace, username: playerName(), resignAfterPairing: true, gameTimeoutMs: 30_000 });
}
