/**
 * Initialising a k6 virtual user must stay cheap: at most 10 ms of CPU and 1 MB in k6, which
 * this test checks through its proxy, `node --jitless` (k6-node/init-cost.ts derives the
 * budget from k6's own figure for the magic-table chess core and explains why it is strict).
 * Each scenario bundle and the chess core alone must fit; the bundles as they were, with the
 * magic tables, must not, which shows the measurement can fail.
 */
import { describe, expect, it } from 'vitest';
import { formatInitCost, measureInitCost, type InitCostReport } from './k6-node/init-cost';

let report: InitCostReport | undefined;
async function measured(): Promise<InitCostReport> {
  report ??= await measureInitCost({ contexts: 12, samples: 5 });
  return report;
}

describe('k6 virtual user initialisation (proxy: node --jitless)', () => {
  it('every scenario bundle and the chess core fit the per-VU budget in CPU and memory', async () => {
    const r = await measured();
    process.stderr.write(`${formatInitCost(r)}\n`);
    expect(Object.keys(r.bundles)).toEqual(
      expect.arrayContaining(['steady-play', 'lobby-storm', 'reconnect-storm', 'ai-games', 'bullet', 'launch-rehearsal', 'chess core']),
    );
    for (const [name, cost] of Object.entries(r.bundles)) {
      expect(cost.ms, `${name}: CPU per VU (budget ${r.budget.ms.toFixed(2)} ms)`).toBeLessThanOrEqual(r.budget.ms);
      expect(cost.kb, `${name}: memory per VU (budget ${r.budget.kb.toFixed(0)} KB)`).toBeLessThanOrEqual(r.budget.kb);
    }
  }, 180_000);

  it('the steady-play bundle with the magic-table core is far over both budgets', async () => {
    const r = await measured();
    expect(r.magicSteadyPlay.ms).toBeGreaterThan(10 * r.budget.ms);
    expect(r.magicSteadyPlay.kb).toBeGreaterThan(2 * r.budget.kb);
  }, 180_000);
});
