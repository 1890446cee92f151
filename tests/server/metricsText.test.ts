/**
 * /metrics in the Prometheus text format: the hot path's own counters and histograms write their
 * lines themselves, after prom-client's; a scraper must find every family once, with its HELP
 * and TYPE, and histogram buckets that add up.
 */
import { describe, expect, it } from 'vitest';
import { FastCounter, FastHistogram, ServerMetrics } from '../../server/http/metrics';

const NO_STATS = { connections: () => 0, playersOnline: () => 0, queueLength: () => 0, liveGames: () => 0, aiGames: () => 0, archivePending: () => 0 };
const NO_CLUSTER = { sitePlayersOnline: () => 0, liveNodes: () => 1, redisRoundTripSeconds: () => 0, redisUp: () => 1 };

describe('the hot path metrics in the Prometheus text format', () => {
  it('a counter: HELP (escaped), TYPE and its value', () => {
    const c = new FastCounter('chess_things_total', 'Things\\counted\nover lines');
    c.inc();
    c.add(41);
    expect(c.exposition()).toBe('# HELP chess_things_total Things\\\\counted\\nover lines\n# TYPE chess_things_total counter\nchess_things_total 42\n');
  });

  it('a histogram: cumulative buckets, +Inf, sum and count', () => {
    const h = new FastHistogram('chess_wait_seconds', 'Waits', [0.001, 0.01]);
    for (const v of [0.0005, 0.005, 0.005, 3]) h.observe(v);
    expect(h.exposition()).toBe(
      [
        '# HELP chess_wait_seconds Waits',
        '# TYPE chess_wait_seconds histogram',
        'chess_wait_seconds_bucket{le="0.001"} 1',
        'chess_wait_seconds_bucket{le="0.01"} 3',
        'chess_wait_seconds_bucket{le="+Inf"} 4',
        'chess_wait_seconds_sum 3.0105',
        'chess_wait_seconds_count 4',
        '',
      ].join('\n'),
    );
    expect(h.count).toBe(4);
  });

  it('the whole scrape, several nodes included, names every family once, each with HELP and TYPE before its samples', async () => {
    const metrics = new ServerMetrics(NO_STATS);
    const cluster = metrics.cluster(NO_CLUSTER);
    metrics.movesRelayed.inc();
    metrics.relayLatency.observe(0.002);
    cluster.logBytes.add(120);
    const text = await metrics.text();
    const helps = new Map<string, number>();
    const types = new Map<string, string>();
    for (const line of text.split('\n').filter(Boolean)) {
      const help = line.match(/^# HELP (\S+) /);
      const type = line.match(/^# TYPE (\S+) (\S+)$/);
      if (help) helps.set(help[1], (helps.get(help[1]) ?? 0) + 1);
      else if (type) types.set(type[1], type[2]);
      else {
        const sample = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/);
        expect(sample, line).not.toBeNull();
        const family = sample![1].replace(/_(bucket|sum|count)$/, '');
        expect(types.has(sample![1]) || types.has(family), `TYPE before ${line}`).toBe(true);
        expect(Number.isNaN(Number(sample![3])), line).toBe(false);
      }
    }
    expect([...helps.values()].every((n) => n === 1)).toBe(true);
    expect(types.get('chess_moves_relayed_total')).toBe('counter');
    expect(types.get('chess_move_relay_seconds')).toBe('histogram');
    expect(types.get('chess_game_log_bytes_total')).toBe('counter');
    expect(text).toContain('\nchess_moves_relayed_total 1\n');
    expect(text).toContain('\nchess_game_log_bytes_total 120\n');
    expect(text).toContain('\nchess_move_relay_seconds_bucket{le="0.0025"} 1\n');
  });
});
