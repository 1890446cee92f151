/**
 * The k6 scenarios, run for real at a small scale against the real server (uWebSockets.js on a
 * free port, real AI service with Stockfish): the scripts' own code and thresholds, with only
 * k6's runtime stood in for (tests/loadtest/k6-node). A scenario passes when every threshold
 * k6 would evaluate passes, and the counts show the players really did what the scenario says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { startScenarioServer } from './k6-node/in-process-server';
import { aiServiceFactory } from '../../server/ai';
import { runScenario } from './k6-node/run-scenario';
import {
  RECONNECT_STORM,
  expectADropPerPlayer,
  expectAllThresholdsPass,
  expectEveryRejoinComplete,
  expectSteadyPlayComplete,
  scenarioEnv,
} from './k6-node/expectations';

let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startScenarioServer({
    clockMs: 120_000,
    graceMs: 20_000,
    ai: aiServiceFactory({ poolSize: 1, replyDelayMs: [5, 20] }),
  });
  env = scenarioEnv(server.url);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('k6 scenarios against the real server', () => {
  it('lobby storm: every player is paired, each pairing ends by resignation', async () => {
    const players = 30;
    const run = await runScenario('lobby-storm', { ...env, RATE: '10' }, players, { staggerMs: 5 });
    expectAllThresholdsPass(run);
    expect(run.samples('time_to_pairing')).toHaveLength(players);
    expect(run.count('games_started')).toBe(players);
    expect(run.count('games_finished')).toBe(players);
    expect(run.count('games_finished', { reason: 'resignation' }) + run.count('games_finished', { reason: 'aborted' })).toBe(players);
    expect(run.count('moves_played')).toBe(0);
  }, 60_000);

  it('steady play: random legal moves to the ply cap, none rejected, every move relayed', async () => {
    const players = 16;
    const run = await runScenario('steady-play', { ...env, VUS: String(players), MAX_PLIES: '16' }, players);
    expectSteadyPlayComplete(run, players);
    expect(run.count('moves_played')).toBeGreaterThanOrEqual((players / 2) * 8);
  }, 60_000);

  it('reconnect storm: players drop on their turn, come back as the same guest and finish', async () => {
    const players = 12;
    const run = await runScenario('reconnect-storm', { ...env, ...RECONNECT_STORM, VUS: String(players) }, players);
    expectEveryRejoinComplete(run, players);
    // A player drops once its game has reached its drop ply on its turn.
    expectADropPerPlayer(run, players);
  }, 60_000);

  it('reconnect storm in a burst (STORM_AT): the players in games drop together and all come back', async () => {
    const players = 16;
    const t0 = Date.now();
    const run = await runScenario(
      'reconnect-storm',
      { ...env, VUS: String(players), MAX_PLIES: '60', RECONNECT_SHARE: '1', STORM_AT: '1s', OFFLINE_MIN_MS: '200', OFFLINE_MAX_MS: '400' },
      players,
    );
    expectEveryRejoinComplete(run, players);
    expectADropPerPlayer(run, players);
    // Nobody dropped before the burst: the run lasted past it.
    expect(Date.now() - t0).toBeGreaterThan(1000);
  }, 60_000);

  it('AI games: players play the AI to the ply cap and get its replies', async () => {
    const players = 2;
    const run = await runScenario('ai-games', { ...env, VUS: String(players), MAX_PLIES: '10', AI_DIFFICULTY: '1' }, players);
    expectAllThresholdsPass(run);
    expect(run.count('games_started')).toBe(players);
    expect(run.count('games_finished')).toBe(players);
    expect(run.samples('ai_reply_time').length).toBeGreaterThanOrEqual(players * 4);
    expect(run.count('moves_rejected')).toBe(0);
  }, 90_000);
});

describe('launch rehearsal: all four kinds of traffic on one server at once', () => {
  it('lobby, steady, reconnecting and AI players all pass the thresholds together', async () => {
    const run = await runScenario(
      'launch-rehearsal',
      {
        ...env,
        MAX_PLIES: '14',
        OFFLINE_MIN_MS: '100',
        OFFLINE_MAX_MS: '300',
        LOBBY_RATE: '5',
        PLAY_VUS: '8',
        RECONNECT_VUS: '8',
        AI_VUS: '2',
      },
      // Started group after group so that each group mostly pairs within itself (one pool).
      { lobby: 8, play: 8, reconnect: 8, ai: 2 },
      { groupGapMs: 300 },
    );
    expectAllThresholdsPass(run);
    expect(run.count('games_started')).toBe(26);
    expect(run.count('games_finished')).toBe(26);
    expect(run.count('games_started', { mode: 'ai' })).toBe(2);
    expect(run.count('reconnects')).toBeGreaterThan(0);
  }, 90_000);
});

describe('k6 versions', () => {
  it('plays when readyState is a wrapped value that is never === 1 (k6 before v0.54)', async () => {
    const run = await runScenario('steady-play', { ...env, VUS: '4', MAX_PLIES: '8', PAIRING_TIMEOUT_MS: '3000' }, 4, {
      quirks: { wrappedReadyState: true },
    });
    expectAllThresholdsPass(run);
    expect(run.count('games_finished')).toBe(4);
    expect(run.count('ws_send_refused')).toBe(0);
  }, 60_000);

  it('a send the socket refuses is counted and fails the run, instead of passing for a pairing timeout', async () => {
    const run = await runScenario('steady-play', { ...env, VUS: '2', PAIRING_TIMEOUT_MS: '1000' }, 2, { quirks: { sendThrows: true } });
    expect(run.count('ws_send_refused', { type: 'findGame' })).toBe(2);
    expect(run.failed.map((t) => t.metric)).toContain('ws_send_refused');
  }, 60_000);
});

describe('the thresholds fail a run when the server misbehaves', () => {
  it('a server that cuts players off mid-game fails games_unfinished and ws_errors', async () => {
    // Three messages per minute: the players are cut off after a couple of moves.
    const strict = await startScenarioServer({ rateLimit: { messages: 3, windowMs: 60_000 } });
    try {
      const run = await runScenario('steady-play', { ...env, BASE_URL: strict.url, VUS: '4', MAX_PLIES: '20', GAME_TIMEOUT_MS: '4000' }, 4);
      const failedMetrics = new Set(run.failed.map((t) => t.metric));
      expect(failedMetrics).toContain('games_unfinished');
      expect(failedMetrics).toContain('ws_errors');
      expect(run.count('games_finished')).toBeLessThan(4);
    } finally {
      await strict.close();
    }
  }, 60_000);
});
