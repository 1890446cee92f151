/** Stand-in for `k6/metrics`: every add() is kept for the threshold evaluation. */
import { record, type MetricKind } from './runtime';

abstract class Metric {
  protected abstract readonly kind: MetricKind;
  constructor(
    readonly name: string,
    readonly isTime = false,
  ) {}
  add(value: number | boolean, tags?: Record<string, string>): void {
    record(this.name, this.kind, typeof value === 'boolean' ? (value ? 1 : 0) : value, tags);
  }
}

export class Counter extends Metric {
  protected readonly kind = 'counter' as const;
}
export class Trend extends Metric {
  protected readonly kind = 'trend' as const;
}
export class Rate extends Metric {
  protected readonly kind = 'rate' as const;
}
export class Gauge extends Metric {
  protected readonly kind = 'gauge' as const;
}
