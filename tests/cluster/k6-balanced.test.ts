/**
 * The k6 scenarios through the balancer against three nodes (BASE_URL pointing at HAProxy), as
 * docs/operations.md says to run them against a site: players land on every node, are paired
 * across nodes, and the scenarios' own thresholds and counts hold (k6's runtime stood in for by
 * tests/loadtest/k6-node, as in the single-node scenario tests).
 */
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { runScenario } from '../loadtest/k6-node/run-scenario';
import { RECONNECT_STORM, expectEveryRejoinComplete, expectSteadyPlayComplete, scenarioEnv } from '../loadtest/k6-node/expectations';
import { startBalancedSite, type BalancedSite } from './balancedSite';


let site: BalancedSite;
let env: Record<string, string>;

beforeAll(async () => {
  site = await startBalancedSite(3);
  env = scenarioEnv(site.url);
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

// a failed run leaves what the balancer said (servers down and up) and the nodes' warnings in the output
afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  // warnings, and what the nodes said about sockets they refused, replaced or closed
  const notable = /"level":[4-6]0|refused|took the seat|replaced|closed/;
  const said = site.nodes.flatMap((n, i) => n.lines.filter((l) => notable.test(l)).map((l) => `node ${i + 1}: ${l}`));
  // HAProxy's line per WebSocket session: its termination state says which side ended it
  const sessions = site.balancerLog().split('\n');
  console.error(`HAProxy (last lines):\n${sessions.slice(-80).join('\n')}\nnodes:\n${said.slice(-60).join('\n')}`);
});

describe('k6 scenarios through HAProxy against three nodes', () => {
  it('steady play: every game finished, every move relayed, games on every node', async () => {
    const players = 24;
    const run = await runScenario('steady-play', { ...env, VUS: String(players), MAX_PLIES: '16' }, players);
    expectSteadyPlayComplete(run, players);
  }, 90_000);

  it('reconnect storm: players drop, come back through the balancer (often on another node) and finish', async () => {
    const players = 12;
    const run = await runScenario('reconnect-storm', { ...env, ...RECONNECT_STORM, VUS: String(players) }, players);
    expectEveryRejoinComplete(run, players);
  }, 90_000);
});
