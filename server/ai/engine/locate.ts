/**
 * Which Stockfish to run.
 *
 * Order (first match wins):
 *   1. an explicit path (`enginePath` option or `STOCKFISH_PATH`); a path ending in `.js` is
 *      run with this Node binary (a WASM build), anything else is executed directly;
 *   2. `AI_ENGINE=wasm` forces the embedded WASM build, skipping the PATH search;
 *   3. a `stockfish` executable on PATH, also looking in /usr/games and /usr/local/games
 *      (Debian installs it there, and those are often not on a service's PATH);
 *   4. the npm `stockfish` package's lite single-threaded WASM build, run as `node <file>`.
 *
 * Every engine runs as its own child process speaking UCI on stdin/stdout, which gives crash
 * isolation (a dying engine cannot take the server with it) and a hard kill for hung engines.
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface EngineSpec {
  command: string;
  args: string[];
  kind: 'native' | 'wasm';
  /** human-readable description for logs and docs */
  label: string;
}

const EXTRA_BIN_DIRS = ['/usr/games', '/usr/local/games'];

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds `name` on PATH plus the games directories. npm puts node_modules/.bin on PATH for
 * scripts and that holds the npm package's own `stockfish` CLI (a JS wrapper, not a native
 * engine), so anything that resolves into a node_modules folder is skipped.
 */
export function findOnPath(name: string, envPath = process.env.PATH ?? ''): string | null {
  const dirs = [...envPath.split(path.delimiter).filter(Boolean), ...EXTRA_BIN_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (!isExecutable(candidate)) continue;
    let real = candidate;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (real.split(path.sep).includes('node_modules')) continue;
    return candidate;
  }
  return null;
}

/** Absolute path of the npm package's lite single-threaded WASM build (its .js loader). */
export function wasmEnginePath(): string {
  const require = createRequire(import.meta.url);
  const pkgJson = require.resolve('stockfish/package.json');
  const file = path.join(path.dirname(pkgJson), 'bin', 'stockfish-19-lite-single.js');
  if (!existsSync(file)) {
    throw new Error(`Stockfish WASM build not found at ${file}; reinstall the npm package "stockfish"`);
  }
  return file;
}

function specForPath(file: string): EngineSpec {
  if (file.endsWith('.js') || file.endsWith('.mjs') || file.endsWith('.cjs')) {
    if (!existsSync(file)) throw new Error(`Stockfish script not found: ${file}`);
    return { command: process.execPath, args: [file], kind: 'wasm', label: `node ${file}` };
  }
  if (!isExecutable(file)) throw new Error(`STOCKFISH_PATH is not an executable file: ${file}`);
  return { command: file, args: [], kind: 'native', label: file };
}

export function wasmEngineSpec(): EngineSpec {
  const file = wasmEnginePath();
  return { command: process.execPath, args: [file], kind: 'wasm', label: `node ${file} (stockfish 19 lite, WASM)` };
}

export function resolveEngine(
  opts: { enginePath?: string; env?: NodeJS.ProcessEnv } = {},
): EngineSpec {
  const env = opts.env ?? process.env;
  const explicit = opts.enginePath ?? env.STOCKFISH_PATH;
  if (explicit) {
    if (explicit === 'wasm') return wasmEngineSpec();
    return specForPath(explicit);
  }
  if ((env.AI_ENGINE ?? '').toLowerCase() === 'wasm') return wasmEngineSpec();
  const native = findOnPath('stockfish', env.PATH ?? '');
  if (native) return { command: native, args: [], kind: 'native', label: native };
  if ((env.AI_ENGINE ?? '').toLowerCase() === 'native') {
    throw new Error('AI_ENGINE=native but no stockfish executable was found on PATH or in /usr/games');
  }
  return wasmEngineSpec();
}
