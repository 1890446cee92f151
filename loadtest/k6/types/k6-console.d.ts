// k6 provides a console (log, info, warn, error, debug) that @types/k6 does not declare
// when the DOM library is left out, as it is here.
export {};

declare global {
  interface K6Console {
    log(...args: unknown[]): void;
    info(...args: unknown[]): void;
    warn(...args: unknown[]): void;
    error(...args: unknown[]): void;
    debug(...args: unknown[]): void;
  }
  var console: K6Console;
}
