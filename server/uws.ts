/**
 * Loads the native uWebSockets.js binary directly.
 *
 * The package's own entry silently falls back to a slow pure-JS implementation when the
 * binary does not load; we never want that in production, so we require the `.node` file
 * for this platform/arch/ABI ourselves and fail start-up with a clear error otherwise.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type Uws = typeof import('uWebSockets.js');
export type { TemplatedApp, WebSocket, HttpRequest, HttpResponse, us_listen_socket } from 'uWebSockets.js';

export class UwsLoadError extends Error {
  override name = 'UwsLoadError';
}

let cached: Uws | null = null;

export function binaryName(): string {
  return `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
}

export function loadUws(): Uws {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    pkgDir = dirname(require.resolve('uWebSockets.js/package.json'));
  } catch (err) {
    throw new UwsLoadError(
      `uWebSockets.js is not installed (${(err as Error).message}). Run "npm install".`,
    );
  }
  const file = join(pkgDir, 'binaries', binaryName());
  try {
    cached = require(file) as Uws;
  } catch (err) {
    throw new UwsLoadError(
      `Cannot load the native uWebSockets.js binary ${file} for Node ${process.version} ` +
        `(${process.platform}/${process.arch}, ABI ${process.versions.modules}): ${(err as Error).message}. ` +
        'The server refuses to start on the slow JavaScript fallback; use a Node version this build supports (Node 20 = ABI 115).',
    );
  }
  return cached;
}
