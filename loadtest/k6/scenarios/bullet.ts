/**
 * (f) Bullet: VUS players in the 1+0 pool (POOL to choose another), playing at a bullet pace,
 * each auditing the server's clock with its own watch (lib/clock-watch.ts): every timed move
 * charged what the player thought, within the network and the lag credit; and a share of the
 * players (FLAG_SHARE) stop moving at ply FLAG_AT_PLY, to be flagged by the server, neither early
 * nor late. Any such fault counts in `clock_faults`, whose threshold is 0.
 *
 *   k6 run -e BASE_URL=http://localhost:3000 -e VUS=1000 loadtest/k6/scenarios/bullet.ts
 *
 * CLOCK_TOLERANCE_MS: slack for the network and the generator in each check (default 250).
 */
import type { Options } from 'k6/options';
import { envFloat, envInt, paceSettings, playersAtPlateau } from '../lib/config.ts';
import { playerName } from '../lib/names.ts';
import { playOnlineGame } from '../lib/online-player.ts';
import { parseTimeControl } from '../../../machines/game/timeControl.ts';
import { clockThresholds, correctnessThresholds, generatorThresholds, pairingThresholds, relayThresholds } from '../lib/thresholds.ts';

const VUS = envInt('VUS', 200, 2, 1_000_000);
const BULLET = parseTimeControl('1+0')!;
const paced = paceSettings({ thinkMinMs: 200, thinkMaxMs: 1_500, maxPlies: 60 });
const timeControl = paced.timeControl ?? BULLET;
const FLAG_SHARE = envFloat('FLAG_SHARE', 0.1, 0, 1);
const FLAG_AT_PLY = envInt('FLAG_AT_PLY', 10, 3, 600);
const toleranceMs = envInt('CLOCK_TOLERANCE_MS', 250, 0, 600_000);
// A flagged player's game lasts its whole clock.
const gameTimeoutMs = paced.gameTimeoutMs + timeControl.initial * 1000;
const pace = { ...paced, timeControl, gameTimeoutMs };

export const options: Options = {
  scenarios: {
    bullet: playersAtPlateau(VUS, gameTimeoutMs, { ramp: '20s', duration: '2m' }),
  },
  thresholds: { ...correctnessThresholds(), ...pairingThresholds(), ...relayThresholds(), ...clockThresholds(), ...generatorThresholds({ arrivals: false }) },
};

export default function bullet(): void {
  const flagger = Math.random() < FLAG_SHARE;
  playOnlineGame({ ...pace, username: playerName(), clockAudit: { toleranceMs }, ...(flagger ? { flagAtPly: FLAG_AT_PLY } : {}) });
}
