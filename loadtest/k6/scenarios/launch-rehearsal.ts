/**
 * All four traffic kinds at once, as on a launch day: players arriving and pairing (lobby),
 * players in steady games (play), players dropping and rejoining (reconnect) and players
 * against the AI (ai). Each runs as its own k6 scenario (k6 tags every sample with it), so the
 * summary can be split per scenario while the thresholds hold for the whole run.
 *
 *   k6 run -e BASE_URL=http://localhost:3000 -e PLAY_VUS=1000 -e RECONNECT_VUS=200 \
 *          -e LOBBY_RATE=20 -e AI_VUS=20 -e DURATION=5m loadtest/k6/scenarios/launch-rehearsal.ts
 *
 * A count of 0 leaves that kind of traffic out.
 */
import type { Options, Scenario } from 'k6/options';
import { envDuration, envFloat, envInt, paceSettings, playersAtPlateau, randomBetween } from '../lib/config.ts';
import { playAiGame } from '../lib/ai-player.ts';
import { playerName } from '../lib/names.ts';
import { playOnlineGame } from '../lib/online-player.ts';
import {
  aiThresholds,
  correctnessThresholds,
  generatorThresholds,
  pairingThresholds,
  rejoinThresholds,
  relayThresholds,
} from '../lib/thresholds.ts';

const LOBBY_RATE = envInt('LOBBY_RATE', 10, 0, 100_000);
const PLAY_VUS = envInt('PLAY_VUS', 200, 0, 1_000_000);
const RECONNECT_VUS = envInt('RECONNECT_VUS', 50, 0, 1_000_000);
const AI_VUS = envInt('AI_VUS', 10, 0, 100_000);
const AI_DIFFICULTY = envInt('AI_DIFFICULTY', 1, 1, 10);
const OFFLINE_MIN_MS = envInt('OFFLINE_MIN_MS', 500, 0, 600_000);
const OFFLINE_MAX_MS = envInt('OFFLINE_MAX_MS', 5_000, OFFLINE_MIN_MS, 600_000);
const RECONNECT_SHARE = envFloat('RECONNECT_SHARE', 1, 0, 1);
const RAMP = envDuration('RAMP', '30s');
const DURATION = envDuration('DURATION', '3m');
const pace = paceSettings({ thinkMinMs: 1_000, thinkMaxMs: 3_000, maxPlies: 60 });
const gameTimeoutMs = pace.gameTimeoutMs + OFFLINE_MAX_MS + (pace.maxPlies / 2) * 5_000;

function players(target: number, exec: string): Scenario {
  return playersAtPlateau(target, gameTimeoutMs, { ramp: '30s', duration: '3m' }, exec);
}

const scenarios: Record<string, Scenario> = {};
if (LOBBY_RATE > 0) {
  scenarios.lobby = {
    executor: 'ramping-arrival-rate',
    exec: 'lobby',
    startRate: 0,
    timeUnit: '1s',
    preAllocatedVUs: Math.min(LOBBY_RATE * 4, 2_000),
    maxVUs: Math.max(LOBBY_RATE * 20, 100),
    stages: [
      { duration: RAMP, target: LOBBY_RATE },
      { duration: DURATION, target: LOBBY_RATE },
      { duration: '5s', target: 0 },
    ],
    gracefulStop: '30s',
  };
}
if (PLAY_VUS > 0) scenarios.play = players(PLAY_VUS, 'play');
if (RECONNECT_VUS > 0) scenarios.reconnect = players(RECONNECT_VUS, 'reconnect');
if (AI_VUS > 0) scenarios.ai = players(AI_VUS, 'ai');
if (Object.keys(scenarios).length === 0) throw new Error('LOBBY_RATE, PLAY_VUS, RECONNECT_VUS and AI_VUS are all 0: nothing to run');

export const options: Options = {
  scenarios,
  thresholds: {
    ...correctnessThresholds(),
    ...pairingThresholds(),
    // Only players of steady games get their moves relayed (lobby players make none, the AI's
    // opponents get no echo): without them the relay thresholds would have nothing to judge.
    ...(PLAY_VUS > 0 || RECONNECT_VUS > 0 ? relayThresholds() : {}),
    ...generatorThresholds({ arrivals: LOBBY_RATE > 0 }),
    ...(RECONNECT_VUS > 0 && RECONNECT_SHARE > 0 ? rejoinThresholds() : {}),
    ...(AI_VUS > 0 ? aiThresholds() : {}),
  },
};

export function lobby(): void {
  playOnlineGame({ ...pace, gameTimeoutMs: 30_000, username: playerName(), resignAfterPairing: true });
}

export function play(): void {
  playOnlineGame({ ...pace, gameTimeoutMs, username: playerName() });
}

export function reconnect(): void {
  const drops = Math.random() < RECONNECT_SHARE;
  playOnlineGame({
    ...pace,
    gameTimeoutMs,
    username: playerName(),
    drop: drops
      ? { atPly: randomBetween(2, Math.max(2, pace.maxPlies - 4)), offlineMs: randomBetween(OFFLINE_MIN_MS, OFFLINE_MAX_MS) }
      : undefined,
  });
}

export function ai(): void {
  playAiGame({ ...pace, gameTimeoutMs, difficulty: AI_DIFFICULTY, playerColor: 'random' });
}
