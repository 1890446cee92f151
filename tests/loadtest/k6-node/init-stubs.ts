/**
 * k6's modules as far as a script's init code touches them (metric objects, module exports),
 * for measuring what evaluating a bundle costs one virtual user (init-cost.ts). Nothing here
 * runs an iteration: sockets and timers are never called during init.
 */
class Metric {
  constructor(
    readonly name: string,
    readonly isTime = false,
  ) {}
  add(): void {}
}
export class Counter extends Metric {}
export class Trend extends Metric {}
export class Rate extends Metric {}
export class Gauge extends Metric {}

export class WebSocket {
  static readonly OPEN = 1;
  constructor(readonly url: string) {}
}

export function check(): boolean {
  return true;
}
export function fail(): never {
  throw new Error('fail() during init');
}
export function sleep(): void {}
export function setTimeout(): number {
  return 0;
}
export function clearTimeout(): void {}
export function setInterval(): number {
  return 0;
}
export function clearInterval(): void {}

const execution = { vu: { idInTest: 1, idInInstance: 1, iterationInInstance: 0, iterationInScenario: 0 } };
export default execution;
export const vu = execution.vu;
