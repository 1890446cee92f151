/**
 * (c) Reconnect storm: steady play in which a share of the players (RECONNECT_SHARE) drop their
 * socket mid-game on their own turn, stay away OFFLINE_MIN_MS..OFFLINE_MAX_MS, reconnect as
 * the same guest (`/socket?playerId=…&secret=…`) and send rejoinGame. They must get the game
 * back (gameStart with currentState matching their copy) and finish it.
 *
 *   k6 run -e BASE_URL=http://localhost:3000 -e VUS=500 -e RECONNECT_SHARE=0.5 loadtest/k6/scenarios/reconnect-storm.ts
 *
 * Keep OFFLINE_MAX_MS well under the server's guest grace (GRACE_GUEST_SECONDS, 40 s by default).
 */
import type { Options } from 'k6/options';
import { envDuration, envFloat, envInt, msToDuration, paceSettings, randomBetween } from '../lib/config.ts';
import { playerName } from '../lib/names.ts';
import { playOnlineGame } from '../lib/online-player.ts';
import { correctnessThresholds, pairingThresholds, rejoinThresholds, relayThresholds } from '../lib/thresholds.ts';

const VUS = envInt('VUS', 200, 2, 1_000_000);
const SHARE = envFloat('RECONNECT_SHARE', 0.5, 0, 1);
const OFFLINE_MIN_MS = envInt('OFFLINE_MIN_MS', 500, 0, 600_000);
const OFFLINE_MAX_MS = envInt('OFFLINE_MAX_MS', 5_000, OFFLINE_MIN_MS, 600_000);
const pace = paceSettings({ thinkMinMs: 500, thinkMaxMs: 2_000, maxPlies: 40 });
const gameTimeoutMs = pace.gameTimeoutMs + OFFLINE_MAX_MS;

export const options: Options = {
  scenarios: {
    reconnect_storm: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: envDuration('RAMP', '20s'), target: VUS },
        { duration: envDuration('DURATION', '2m'), target: VUS },
        { duration: '10s', target: 0 },
      ],
      gracefulRampDown: msToDuration(gameTimeoutMs),
      gracefulStop: msToDuration(gameTimeoutMs),
    },
  },
  thresholds: { ...correctnessThresholds(), ...pairingThresholds(), ...relayThresholds(), ...rejoinThresholds() },
};

export default function reconnectStorm(): void {
  const drops = Math.random() < SHARE;
  playOnlineGame({
    ...pace,
    gameTimeoutMs,
    username: playerName(),
    drop: drops
      ? { atPly: randomBetween(2, Math.max(2, pace.maxPlies - 4)), offlineMs: randomBetween(OFFLINE_MIN_MS, OFFLINE_MAX_MS) }
      : undefined,
  });
}
