/**
 * (c) Reconnect storm: steady play in which a share of the players (RECONNECT_SHARE) drop their
 * socket mid-game on their own turn, stay away OFFLINE_MIN_MS..OFFLINE_MAX_MS, reconnect as
 * the same guest (the `chess_guest` cookie) and send rejoinGame. They must get the game
 * back (gameStart with currentState matching their copy) and finish it.
 *
 *   k6 run -e BASE_URL=http://localhost:3000 -e VUS=500 -e RECONNECT_SHARE=0.5 loadtest/k6/scenarios/reconnect-storm.ts
 *
 * By default each dropping player drops once at a random ply, so drops are spread over the run.
 * With STORM_AT (a k6 duration after the start, e.g. 90s) they drop together instead: every
 * dropping player in a game at that moment drops on its next turn, a burst of reconnections
 * within one think time, as after a network blip or a load-balancer failover.
 *
 * In a run split over several generators each runs setup() at its own start, so STORM_AT
 * bursts are as far apart as the generators' starts; STORM_EPOCH_MS (a Unix time in ms, the
 * same on every generator) puts them all at one moment, given synchronised clocks.
 *
 * Keep OFFLINE_MAX_MS well under the server's guest grace (GRACE_GUEST_SECONDS, 40 s by default).
 */
import type { Options } from 'k6/options';
import { durationToMs, envDuration, envFloat, envInt, envString, paceSettings, playersAtPlateau, randomBetween } from '../lib/config.ts';
import { playerName } from '../lib/names.ts';
import { playOnlineGame } from '../lib/online-player.ts';
import { correctnessThresholds, generatorThresholds, pairingThresholds, rejoinThresholds, relayThresholds } from '../lib/thresholds.ts';

const VUS = envInt('VUS', 200, 2, 1_000_000);
const SHARE = envFloat('RECONNECT_SHARE', 0.5, 0, 1);
const OFFLINE_MIN_MS = envInt('OFFLINE_MIN_MS', 500, 0, 600_000);
const OFFLINE_MAX_MS = envInt('OFFLINE_MAX_MS', 5_000, OFFLINE_MIN_MS, 600_000);
const pace = paceSettings({ thinkMinMs: 500, thinkMaxMs: 2_000, maxPlies: 40 });
const gameTimeoutMs = pace.gameTimeoutMs + OFFLINE_MAX_MS;
const STORM_AT = envString('STORM_AT', '') === '' ? null : durationToMs(envDuration('STORM_AT', '0s'));
const STORM_EPOCH_MS = envString('STORM_EPOCH_MS', '') === '' ? null : envInt('STORM_EPOCH_MS', 0, 1, Number.MAX_SAFE_INTEGER);

export const options: Options = {
  scenarios: {
    reconnect_storm: playersAtPlateau(VUS, gameTimeoutMs, { ramp: '20s', duration: '2m' }),
  },
  thresholds: {
    ...correctnessThresholds(),
    ...pairingThresholds(),
    ...relayThresholds(),
    ...rejoinThresholds(),
    ...generatorThresholds({ arrivals: false }),
  },
};

interface SetupData {
  /** ms since the epoch of the burst, or null for spread drops */
  stormAt: number | null;
}

export function setup(): SetupData {
  if (STORM_EPOCH_MS !== null) return { stormAt: STORM_EPOCH_MS };
  return { stormAt: STORM_AT === null ? null : Date.now() + STORM_AT };
}

export default function reconnectStorm(data: SetupData): void {
  const offlineMs = randomBetween(OFFLINE_MIN_MS, OFFLINE_MAX_MS);
  let drop: { atPly?: number; atTime?: number; offlineMs: number } | undefined;
  if (Math.random() < SHARE) {
    if (data.stormAt === null) drop = { atPly: randomBetween(2, Math.max(2, pace.maxPlies - 4)), offlineMs };
    else if (Date.now() < data.stormAt) drop = { atTime: data.stormAt, offlineMs }; // games begun after the burst play on
  }
  playOnlineGame({ ...pace, gameTimeoutMs, username: playerName(), drop });
}
