/**
 * The encodings the site's files are served in (brotli, gzip), made once: at build time beside
 * each file (`<file>.br`, `<file>.gz`, written by the client build's plugin in vite.config.ts),
 * or, for a file without them (a client built otherwise, a test's folder), at the server's
 * start. A file's encodings read from beside it are used only when they decode to its bytes, so
 * a stale one is made again rather than served. Compressing the client at every start cost 13-31
 * times the CPU of reading the build's encodings (`npm run bench:static`).
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';

/** Extensions worth compressing (text, and the uncompressed formats among the assets). */
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.wasm', '.webmanifest', '.ico', '.wav']);
/** Smaller files go as they are. */
const MIN_BYTES = 512;
/** Where a file's encodings are kept beside it. */
export const SIBLING_SUFFIX = { br: '.br', gzip: '.gz' } as const;

export interface Encodings {
  gzip?: Buffer;
  br?: Buffer;
}

/** Whether a file of this name is served compressed. */
const compressible = (name: string, size: number) => COMPRESSIBLE.has(extname(name).toLowerCase()) && size >= MIN_BYTES;

/**
 * A file's encodings, each kept only when smaller than the file. Source maps are for developer
 * tools only: a quick gzip. Everything else: brotli at quality 9 (11 is several times slower for
 * about 3 % smaller files) and gzip at 9.
 */
export function encode(name: string, raw: Buffer): Encodings {
  if (!compressible(name, raw.length)) return {};
  const isMap = extname(name).toLowerCase() === '.map';
  const out: Encodings = {};
  const gz = gzipSync(raw, { level: isMap ? 6 : 9 });
  if (gz.length < raw.length) out.gzip = gz;
  if (!isMap) {
    const br = brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    if (br.length < raw.length) out.br = br;
  }
  return out;
}

/** Whether `path` is an encoding kept beside another file of the folder (not a file of its own). */
export function isSibling(path: string): boolean {
  return Object.values(SIBLING_SUFFIX).some((suffix) => path.endsWith(suffix) && existsSync(path.slice(0, -suffix.length)));
}

/** The encodings kept beside `path` that decode to `raw`, or null when any is missing or stale. */
function keptEncodings(path: string, raw: Buffer): Encodings | null {
  const out: Encodings = {};
  for (const [kind, decode] of [
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const) {
    const at = path + SIBLING_SUFFIX[kind];
    if (!existsSync(at)) continue;
    const kept = readFileSync(at);
    try {
      if (!decode(kept).equals(raw)) return null;
    } catch {
      return null;
    }
    out[kind] = kept;
  }
  return out.br || out.gzip ? out : null;
}

/** A file's encodings: the ones kept beside it when they hold its bytes, else made now. */
export function encodingsOf(path: string, raw: Buffer): Encodings {
  if (!compressible(path, raw.length)) return {};
  return keptEncodings(path, raw) ?? encode(path, raw);
}

/** The site's files under `dir`, at any depth, each with its size: every regular file but the encodings kept beside another. */
export function* siteFiles(dir: string): Generator<{ path: string; size: number }> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) yield* siteFiles(path);
    else if (st.isFile() && !isSibling(path)) yield { path, size: st.size };
  }
}

/** Writes every compressible file's encodings beside it, under `dir` (the client build); returns how many files. */
export function precompressDir(dir: string): number {
  let files = 0;
  for (const { path, size } of siteFiles(dir)) {
    if (!compressible(path, size)) continue;
    const encodings = encode(path, readFileSync(path));
    if (encodings.br) writeFileSync(path + SIBLING_SUFFIX.br, encodings.br);
    if (encodings.gzip) writeFileSync(path + SIBLING_SUFFIX.gzip, encodings.gzip);
    files++;
  }
  return files;
}
