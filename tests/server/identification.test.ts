/**
 * The identification budget's queue (issue 24): admitted checks run one at a time, each started
 * in its own event-loop turn, so a burst of distinct tokens never runs all at once; past the
 * queue the answer is "try later". The turns are stepped by hand and the clock is injected.
 */
import { describe, expect, it } from 'vitest';
import { Identification, tokenKey, type IdentifyOutcome } from '../../server/realtime/identification';
import { DEFAULT_IDENTIFICATION_LIMITS, type IdentificationLimits } from '../../server/config/server';
import type { AccessClaims } from '../../server/wiring';

/** A verifier whose answers are given by the test, and the turns the queue asked for. */
function harness(limits: Partial<IdentificationLimits> = {}) {
  const pending = new Map<string, (claims: AccessClaims | null) => void>();
  const started: string[] = [];
  const turns: (() => void)[] = [];
  const counts: Record<string, number> = {};
  const id = new Identification(
    (token) => {
      started.push(token);
      return new Promise((resolve) => pending.set(token, resolve));
    },
    { ...DEFAULT_IDENTIFICATION_LIMITS, ...limits },
    { inc: ({ outcome }) => void (counts[outcome] = (counts[outcome] ?? 0) + 1) },
    () => 0,
    (start) => void turns.push(start),
  );
  const outcomes = new Map<string, IdentifyOutcome>();
  return {
    id,
    started,
    counts,
    outcomes,
    /** presents `token` from `address`; its outcome lands in `outcomes` */
    present(token: string, address = '198.51.100.1'): void {
      void id.check(token, tokenKey(token), address).then((o) => void outcomes.set(token, o));
    },
    /** runs the turns asked for so far (a later turn's request waits for the next call) */
    turn(): void {
      for (const start of turns.splice(0)) start();
    },
    answer(token: string, claims: AccessClaims | null): Promise<void> {
      pending.get(token)?.(claims);
      return flush();
    },
  };
}

/** A token of the shape the cache reads its expiry from (its signature is never checked here). */
function jwt(sub: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'ES256' })}.${part({ sub, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}

/** Lets settled promises' callbacks run. */
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('the identification queue', () => {
  it('starts one verification per turn and the next only when the last has answered', async () => {
    const h = harness();
    for (let i = 0; i < 5; i++) h.present(`bad-${i}`, `198.51.100.${i}`);
    await flush();
    expect(h.started).toEqual([]); // nothing runs in the turn the messages came in
    h.turn();
    expect(h.started).toEqual(['bad-0']);
    h.turn();
    expect(h.started).toEqual(['bad-0']); // one at a time
    await h.answer('bad-0', null);
    expect(h.outcomes.get('bad-0')).toEqual({ kind: 'failed' });
    expect(h.started).toEqual(['bad-0']); // the next waits for a later turn
    h.turn();
    expect(h.started).toEqual(['bad-0', 'bad-1']);
    expect(h.id.queued).toBe(3);
  });

  it('lets a second verification start a turn after the first when two may run at once', async () => {
    const h = harness({ maxInFlight: 2 });
    for (let i = 0; i < 3; i++) h.present(`t-${i}`, `198.51.100.${i}`);
    await flush();
    h.turn();
    expect(h.started).toEqual(['t-0']);
    h.turn();
    expect(h.started).toEqual(['t-0', 't-1']);
    h.turn();
    expect(h.started).toEqual(['t-0', 't-1']);
  });

  it('answers "try later" past the queue, without taking from the budgets', async () => {
    const h = harness({ maxQueued: 3, global: { burst: 4, perSecond: 1 } });
    for (let i = 0; i < 5; i++) h.present(`q-${i}`, `198.51.100.${i}`);
    await flush();
    expect(h.id.queued).toBe(3);
    expect(h.outcomes.get('q-3')).toEqual({ kind: 'rate_limited' });
    expect(h.outcomes.get('q-4')).toEqual({ kind: 'rate_limited' });
    expect(h.counts.rate_limited).toBe(2);
    // a place freed in the queue is taken from the global budget's fourth token
    h.turn();
    await h.answer('q-0', null);
    h.present('q-5', '198.51.100.9');
    await flush();
    expect(h.id.queued).toBe(3);
    h.present('q-6', '198.51.100.10');
    await flush();
    expect(h.outcomes.get('q-6')).toEqual({ kind: 'rate_limited' });
  });

  it('shares a queued verification with every socket presenting the same token, and keeps its answer', async () => {
    const h = harness();
    const claims = { sub: 'user-1' } as AccessClaims;
    const same = jwt('user-1');
    h.present(same);
    h.present(same, '198.51.100.2');
    await flush();
    h.turn();
    await h.answer(same, claims);
    h.present(same, '198.51.100.3');
    await flush();
    expect(h.started).toEqual([same]);
    expect(h.counts).toMatchObject({ shared: 1, verified: 1, cached: 1 });
  });

  it('counts a verifier that throws as a failed check and goes on with the queue', async () => {
    const turns: (() => void)[] = [];
    const id = new Identification(
      async (token) => {
        if (token === 'boom') throw new Error('database down');
        return { sub: 'u' } as AccessClaims;
      },
      DEFAULT_IDENTIFICATION_LIMITS,
      { inc: () => undefined },
      () => 0,
      (start) => void turns.push(start),
    );
    const first = id.check('boom', tokenKey('boom'), 'a');
    const fine = jwt('u');
    const second = id.check(fine, tokenKey(fine), 'b');
    for (let i = 0; i < 4; i++) {
      for (const start of turns.splice(0)) start();
      await flush();
    }
    expect(await first).toEqual({ kind: 'failed' });
    expect((await second).kind).toBe('ok');
  });
});
