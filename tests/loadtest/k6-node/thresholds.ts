/**
 * Evaluates k6 threshold expressions (`count==0`, `rate>0.99`, `p(95)<200`, `avg<…`, `max<…`,
 * `med<…`, `min>…`) on the samples the stand-in recorded, the way k6 does at the end of a run.
 */
import type { MetricSamples } from './runtime';

export interface ThresholdResult {
  metric: string;
  expression: string;
  /** null when the metric got no sample (k6 then does not fail the threshold either) */
  value: number | null;
  ok: boolean;
}

/** k6's percentile: linear interpolation between the closest ranks. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 1) return sorted[0];
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

export function aggregate(m: MetricSamples, agg: string): number {
  const v = m.values;
  const sorted = [...v].sort((a, b) => a - b);
  const pm = /^p\((\d+(?:\.\d+)?)\)$/.exec(agg);
  if (pm) return percentile(sorted, Number(pm[1]));
  switch (agg) {
    case 'count':
      return v.reduce((a, b) => a + b, 0);
    case 'rate':
      return v.filter((x) => x !== 0).length / v.length;
    case 'avg':
      return v.reduce((a, b) => a + b, 0) / v.length;
    case 'min':
      return sorted[0];
    case 'max':
      return sorted[sorted.length - 1];
    case 'med':
      return percentile(sorted, 50);
    case 'value':
      return v[v.length - 1];
    default:
      throw new Error(`unknown threshold aggregation "${agg}"`);
  }
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '==':
    case '===':
      return a === b;
    case '!=':
      return a !== b;
    default:
      throw new Error(`unknown threshold operator "${op}"`);
  }
}

export function evaluate(
  thresholds: Record<string, (string | { threshold: string })[]>,
  metrics: Map<string, MetricSamples>,
): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  for (const [metric, list] of Object.entries(thresholds)) {
    for (const item of list) {
      const expression = typeof item === 'string' ? item : item.threshold;
      const m = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expression);
      if (!m) throw new Error(`cannot parse threshold "${expression}" on ${metric}`);
      const samples = metrics.get(metric);
      if (!samples || samples.values.length === 0) {
        out.push({ metric, expression, value: null, ok: true });
        continue;
      }
      const value = aggregate(samples, m[1]);
      out.push({ metric, expression, value, ok: compare(value, m[2], Number(m[3])) });
    }
  }
  return out;
}
