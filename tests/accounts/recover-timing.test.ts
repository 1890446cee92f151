/**
 * /recover takes as long for an address with an account as for one without, measured the way an
 * attacker would: many requests in a row on one connection, known and unknown addresses in a
 * random order, each timed from send to answer. The work a known address costs (a token, the
 * mail) must show neither in its own answer nor in the answer to the request after it.
 *
 * The bound is statistical and holds on a busy machine: the two samples' medians are compared
 * with a permutation test, and the test fails only when the known address's median is slower
 * by more than half a millisecond with a chance under 1 in 1,000 of being noise.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seeded } from '../../server/seeded';
import { startAccountsServer, uniqueEmail, type TestServer } from './harness';

const PAIRS = 150;
const SHUFFLES = 2_000;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** How often a random split of all the timings gives a median gap at least as large as the one observed. */
function permutationP(known: readonly number[], unknown: readonly number[], random: () => number): number {
  const observed = median(known) - median(unknown);
  const all = [...known, ...unknown];
  let asLarge = 0;
  for (let i = 0; i < SHUFFLES; i++) {
    for (let j = all.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [all[j], all[k]] = [all[k]!, all[j]!];
    }
    if (median(all.slice(0, known.length)) - median(all.slice(known.length)) >= observed) asLarge++;
  }
  return (asLarge + 1) / (SHUFFLES + 1);
}

describe('/recover timing', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startAccountsServer({ rateLimits: { token: 100_000, sensitive: 100_000, emailIntervalSeconds: 0 } });
  }, 180_000);
  afterAll(async () => s?.destroy());

  async function timedRecover(email: string): Promise<number> {
    const t = performance.now();
    const res = await fetch(`${s.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: s.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    await res.text();
    return performance.now() - t;
  }

  test('a known and an unknown address are answered equally fast, and leave the next answer alone', async () => {
    const known = uniqueEmail('known');
    expect((await s.client().auth.signUp({ email: known, password: 'secret123' })).error).toBeNull();
    for (let i = 0; i < 10; i++) await timedRecover(i % 2 ? known : uniqueEmail('warm'));
    const random = seeded(43);
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < PAIRS; i++) {
      const order = random() < 0.5 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      for (const kind of order) times[kind].push(await timedRecover(kind === 'known' ? known : uniqueEmail('ghost')));
    }
    const gap = median(times.known) - median(times.unknown);
    const report = `known ${median(times.known).toFixed(2)} ms, unknown ${median(times.unknown).toFixed(2)} ms (medians of ${PAIRS})`;
    // slower for a known address, beyond noise: the answer tells
    const knownSlower = gap > 0.5 && permutationP(times.known, times.unknown, random) < 0.001;
    // slower for an unknown address, beyond noise: the previous known address's work shows in it
    const unknownSlower = -gap > 0.5 && permutationP(times.unknown, times.known, random) < 0.001;
    expect({ knownSlower, unknownSlower, report }).toEqual({ knownSlower: false, unknownSlower: false, report });
  }, 120_000);
});
