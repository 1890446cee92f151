/** Stand-in for the `k6` module: check() records into the `checks` rate like k6 does. */
import { record } from './runtime';

export function check<T>(val: T, sets: Record<string, (v: T) => boolean>, tags?: Record<string, string>): boolean {
  let all = true;
  for (const [name, fn] of Object.entries(sets)) {
    let ok = false;
    try {
      ok = !!fn(val);
    } catch {
      ok = false;
    }
    record('checks', 'rate', ok ? 1 : 0, { ...(tags ?? {}), check: name });
    all &&= ok;
  }
  return all;
}

export function sleep(): void {
  throw new Error('sleep() blocks a k6 VU; the scenarios are event driven and must not call it');
}

export function fail(err?: string): never {
  throw new Error(err ?? 'fail()');
}
