/**
 * The Stockfish pool against real engines: the native binary when present and the npm WASM
 * build (always), as child processes.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EnginePool } from '../../server/ai/engine/pool';
import { findOnPath, resolveEngine, wasmEngineSpec, type EngineSpec } from '../../server/ai/engine/locate';
import { EngineError, parseInfoLine } from '../../server/ai/engine/uci-process';
import { processAlive } from '../support/processes';

const logger = pino({ level: 'silent' });
const nativePath = findOnPath('stockfish');
const specs: [string, EngineSpec][] = [['wasm', wasmEngineSpec()]];
if (nativePath) specs.push(['native', { command: nativePath, args: [], kind: 'native', label: nativePath }]);

let pools: EnginePool[] = [];
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

async function makePool(spec: EngineSpec, size: number, extra: Partial<Parameters<typeof EnginePool.create>[0]> = {}) {
  const pool = await EnginePool.create({ spec, size, logger, ...extra });
  pools.push(pool);
  return pool;
}

async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('engine selection', () => {
  it('prefers STOCKFISH_PATH, can be forced to WASM, and rejects a bad path clearly', () => {
    expect(resolveEngine({ env: { AI_ENGINE: 'wasm', PATH: '/usr/bin' } }).kind).toBe('wasm');
    expect(resolveEngine({ env: { STOCKFISH_PATH: wasmEngineSpec().args[0] } }).kind).toBe('wasm');
    expect(() => resolveEngine({ env: { STOCKFISH_PATH: '/nonexistent/stockfish' } })).toThrow(/not an executable/);
    if (nativePath) expect(resolveEngine({ env: { PATH: '' } }).command).toBe(nativePath);
  });

  it('parses UCI info lines', () => {
    expect(parseInfoLine('info depth 9 seldepth 12 multipv 2 score cp -31 nodes 1 pv e7e5 g1f3')).toEqual({
      multipv: 2,
      move: 'e7e5',
      depth: 9,
      scoreCp: -31,
      mate: undefined,
    });
    expect(parseInfoLine('info depth 3 score mate -2 pv a1a8')?.mate).toBe(-2);
    expect(parseInfoLine('info string NNUE evaluation enabled')).toBeNull();
  });
});

describe.each(specs)('engine pool (%s)', (_name, spec) => {
  it('answers searches with a legal-looking best move and reports the position it was given', async () => {
    const pool = await makePool(spec, 2);
    // Scholar's mate threat: after 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6?? white mates with Qxf7.
    const res = await pool.search({ moves: ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6'], skill: 20, depth: 6, movetimeMs: 500 });
    expect(res.bestmove).toBe('h5f7');
    expect(res.lines[0].mate).toBe(1);
    // From a FEN: the queen on g1 covers the g-file, so Kh7 is black's only legal move.
    const fenRes = await pool.search({ fen: '7k/8/8/8/8/8/8/K5Q1 b - - 0 1', moves: [], skill: 20, depth: 4, movetimeMs: 300 });
    expect(fenRes.bestmove).toBe('h8h7');
  });

  it('queues more searches than engines and serves them all', async () => {
    const pool = await makePool(spec, 2);
    const jobs = Array.from({ length: 6 }, (_, i) =>
      pool.search({ moves: i % 2 ? ['e2e4'] : [], skill: 20, depth: 30, movetimeMs: 60 }, `g${i}`),
    );
    await until(() => pool.stats().queue > 0);
    expect(pool.stats().queue).toBeGreaterThan(0);
    const results = await Promise.all(jobs);
    expect(results.map((r) => r.bestmove).every((m) => /^[a-h][1-8][a-h][1-8]/.test(m))).toBe(true);
    expect(pool.stats()).toMatchObject({ busy: 0, queue: 0 });
    expect(pool.stats().engines).toBeLessThanOrEqual(2); // the second starts on demand, if it was needed in time
  });

  it('a killed engine fails only its own search; the slot restarts and serves again', async () => {
    const pool = await makePool(spec, 2);
    const victim = pool.search({ moves: [], skill: 20, depth: 40, movetimeMs: 3000 }, 'victim');
    const bystander = pool.search({ moves: ['d2d4'], skill: 20, depth: 40, movetimeMs: 600 }, 'bystander');
    await until(() => pool.pidFor('victim') !== undefined && pool.pidFor('bystander') !== undefined);
    const pid = pool.pidFor('victim');
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');
    await expect(victim).rejects.toMatchObject({ code: 'crash' });
    expect((await bystander).bestmove).toMatch(/^[a-h][1-8]/);
    const after = await pool.search({ moves: [], skill: 20, depth: 5, movetimeMs: 200 });
    expect(after.bestmove).toMatch(/^[a-h][1-8]/);
    expect(pool.pids()).not.toContain(pid);
    await until(() => pool.stats().engines === 2);
    expect(pool.stats().restarts).toBe(1);
  });

  it('a hung engine is killed by the watchdog and replaced', async () => {
    const pool = await makePool(spec, 1, { watchdogGraceMs: 300 });
    const job = pool.search({ moves: [], skill: 20, depth: 40, movetimeMs: 200 }, 'hang');
    await until(() => pool.pidFor('hang') !== undefined);
    const pid = pool.pidFor('hang')!;
    process.kill(pid, 'SIGSTOP'); // frozen: no bestmove will ever come
    const err = await job.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('timeout');
    await until(() => !processAlive(pid)); // killed and reaped
    expect((await pool.search({ moves: [], skill: 20, depth: 3, movetimeMs: 100 })).bestmove).toMatch(/^[a-h][1-8]/);
  });

  it('starts engines only when searches need them and stops them when idle', { timeout: 40_000 }, async () => {
    const pool = await makePool(spec, 3, { idleStopMs: 300 });
    expect(pool.pids()).toHaveLength(1); // the one that proves the engine starts
    // two long searches at once need two engines; the third engine is never started
    // (long enough that the second engine is up before the first search ends, on a loaded machine
    // too; given up once both run, so that they do not hold both cores for their whole time)
    const giveUp = new AbortController();
    const searches = Promise.allSettled([0, 1].map(() => pool.search({ moves: [], skill: 20, depth: 60, movetimeMs: 5000 }, undefined, giveUp.signal)));
    await until(() => pool.stats().busy === 2, 15_000);
    const pids = pool.pids();
    giveUp.abort();
    for (const r of await searches) expect(r).toMatchObject({ status: 'rejected', reason: { code: 'aborted' } });
    expect(pids).toHaveLength(2);
    await until(() => pool.stats().engines === 0);
    await until(() => pids.filter(processAlive).length === 0);
    expect(pool.stats().restarts).toBe(0);
    // and a search after that starts one again
    expect((await pool.search({ moves: ['e2e4'], skill: 20, depth: 3, movetimeMs: 100 })).bestmove).toMatch(/^[a-h][1-8]/);
    expect(pool.pids()).toHaveLength(1);
  });

  it('a search given up while it waits leaves the queue; one given up while it runs stops at once and its engine serves on', async () => {
    const pool = await makePool(spec, 1);
    const running = new AbortController();
    const waiting = new AbortController();
    const first = pool.search({ moves: [], skill: 20, depth: 60, movetimeMs: 5000 }, 'running', running.signal);
    const second = pool.search({ moves: ['e2e4'], skill: 20, depth: 60, movetimeMs: 5000 }, 'waiting', waiting.signal);
    await until(() => pool.pidFor('running') !== undefined);
    const pid = pool.pidFor('running');
    expect(pool.stats().queue).toBe(1);

    waiting.abort();
    await expect(second).rejects.toMatchObject({ code: 'aborted' });
    expect(pool.stats().queue).toBe(0);
    expect(pool.pidFor('running')).toBe(pid); // the running one goes on

    const stoppedAt = performance.now();
    running.abort();
    await expect(first).rejects.toMatchObject({ code: 'aborted' });
    // the engine stopped: it had most of its 5 s left
    expect(performance.now() - stoppedAt).toBeLessThan(2_000);
    const next = await pool.search({ moves: ['d2d4'], skill: 20, depth: 3, movetimeMs: 100 });
    expect(next.bestmove).toMatch(/^[a-h][1-8]/);
    expect(pool.pids()).toEqual([pid]); // the same engine, not a restarted one
    expect(pool.stats().restarts).toBe(0);

    // a search given up before it is asked for never queues
    await expect(pool.search({ moves: [], skill: 1, depth: 1, movetimeMs: 10 }, undefined, AbortSignal.abort())).rejects.toMatchObject({ code: 'aborted' });
    expect(pool.stats()).toMatchObject({ queue: 0, busy: 0 });
  });

  it('one signal given to many searches holds no listener after each is done', async () => {
    // e.g. a game's or the server's lifetime signal: Node warns of a leak past 10 listeners
    const pool = await makePool(spec, 1);
    const lifetime = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 12; i++) await pool.search({ moves: [], skill: 1, depth: 1, movetimeMs: 10 }, undefined, lifetime.signal);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /abort listeners/.test(w))).toEqual([]);
  });

  it('close() ends every engine process', async () => {
    const pool = await EnginePool.create({ spec, size: 2, logger });
    // closed once both engines run, searching or not: nothing waits for the searches to end first
    const searches = Promise.allSettled([0, 1].map(() => pool.search({ moves: [], skill: 20, depth: 40, movetimeMs: 1500 })));
    await until(() => pool.pids().length === 2, 15_000);
    const pids = pool.pids();
    expect(pids).toHaveLength(2);
    await pool.close();
    await searches;
    await until(() => pids.filter(processAlive).length === 0);
    await expect(pool.search({ moves: [], skill: 1, depth: 1, movetimeMs: 10 })).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('engine start failure', () => {
  it('fails creation clearly when the engine cannot start', async () => {
    const bogus: EngineSpec = { command: process.execPath, args: ['-e', 'process.exit(3)'], kind: 'wasm', label: 'broken engine' };
    await expect(EnginePool.create({ spec: bogus, size: 1, logger, startTimeoutMs: 2000 })).rejects.toMatchObject({
      code: 'start',
      message: expect.stringContaining('broken engine'),
    });
  });
});
