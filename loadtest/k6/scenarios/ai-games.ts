/**
 * (d) AI games: VUS players each play the server's AI (startAIGame, gameMove) one game
 * after another, random legal moves at a human pace, resigning at the ply cap. The AI is the
 * CPU-heavy part of the server: start with a few dozen players.
 *
 *   k6 run -e BASE_URL=http://localhost:3000 -e VUS=20 -e AI_DIFFICULTY=1 loadtest/k6/scenarios/ai-games.ts
 */
import type { Options } from 'k6/options';
import { envDuration, envInt, envString, msToDuration, paceSettings } from '../lib/config.ts';
import { playAiGame } from '../lib/ai-player.ts';
import { aiThresholds, correctnessThresholds, generatorThresholds } from '../lib/thresholds.ts';

const VUS = envInt('VUS', 20, 1, 100_000);
const DIFFICULTY = envInt('AI_DIFFICULTY', 1, 1, 10);
const COLOR = aiColor(envString('AI_COLOR', 'random'));

function aiColor(v: string): 'white' | 'black' | 'random' {
  if (v === 'white' || v === 'black' || v === 'random') return v;
  throw new Error(`AI_COLOR must be white, black or random (got "${v}")`);
}
const pace = paceSettings({ thinkMinMs: 500, thinkMaxMs: 2_000, maxPlies: 40 });
// The AI thinks too: allow its replies on top of the player's own pauses.
const gameTimeoutMs = pace.gameTimeoutMs + (pace.maxPlies / 2) * 5_000;

export const options: Options = {
  scenarios: {
    ai_games: {
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
  // No move_relay_latency here: the server does not echo a move played against the AI, so that
  // threshold would have no samples and pass whatever happened. ai_reply_time times the AI.
  thresholds: { ...correctnessThresholds(), ...aiThresholds(), ...generatorThresholds({ arrivals: false }) },
};

export default function aiGames(): void {
  playAiGame({ ...pace, gameTimeoutMs, difficulty: DIFFICULTY, playerColor: COLOR });
}
