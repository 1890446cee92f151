/**
 * Serves the built client (dist/client) from memory: every file is read at start-up with its
 * encodings (brotli, gzip), made by the client build or else at start (compression.ts). Hashed assets under /assets/ get a long immutable cache;
 * index.html is never cached; unknown paths without a file extension (the SPA's routes)
 * get index.html.
 */
import { readFileSync, existsSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse } from '../uws';
import { encodingsOf, siteFiles } from './compression';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
  '.wav': 'audio/wav',
};

interface StaticFile {
  type: string;
  cacheControl: string;
  etag: string;
  raw: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * Ends a response; for HEAD, headers only. In this uWS build end() would send the body on HEAD,
 * and endWithoutBody() does not count as a response (the process aborts unless onAborted is set)
 * and leaves a kept-alive connection unusable: so HEAD sets onAborted and closes the connection.
 */
export function endBody(res: HttpResponse, head: boolean, body: string | Buffer): void {
  if (!head) {
    res.end(body);
    return;
  }
  res.onAborted(() => {});
  res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.length, true);
}

export class StaticFiles {
  private files = new Map<string, StaticFile>();
  readonly available: boolean;

  /** `headers`: sent with every answer (the security headers of server/http/securityHeaders.ts). */
  constructor(
    readonly dir: string,
    private readonly headers: readonly [string, string][] = [],
  ) {
    this.available = existsSync(join(dir, 'index.html'));
    if (existsSync(dir)) this.load(dir);
  }

  get size(): number {
    return this.files.size;
  }

  private load(root: string): void {
    for (const { path } of siteFiles(root)) this.add('/' + relative(root, path).split(sep).join('/'), path);
  }

  private add(urlPath: string, path: string): void {
    const raw = readFileSync(path);
    const ext = extname(urlPath).toLowerCase();
    const f: StaticFile = {
      type: TYPES[ext] ?? 'application/octet-stream',
      cacheControl: urlPath.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : urlPath === '/index.html'
          ? 'no-cache'
          : 'public, max-age=3600',
      etag: '"' + createHash('sha1').update(raw).digest('base64url').slice(0, 20) + '"',
      raw,
      ...encodingsOf(path, raw),
    };
    this.files.set(urlPath, f);
  }

  /** Finds the file for a URL path: the file itself, or index.html for SPA routes. */
  resolve(path: string): StaticFile | undefined {
    let p: string;
    try {
      p = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    if (p === '/' || p === '') return this.files.get('/index.html');
    const hit = this.files.get(p);
    if (hit) return hit;
    // A route of the single-page app (no file extension, not an asset): the app's shell.
    if (!p.startsWith('/assets/') && extname(p) === '') return this.files.get('/index.html');
    return undefined;
  }

  /** Synchronous uWS handler (runs corked). */
  handle(res: HttpResponse, req: HttpRequest): void {
    const method = req.getMethod();
    if (method !== 'get' && method !== 'head') {
      res.writeStatus('405 Method Not Allowed').writeHeader('Allow', 'GET, HEAD').end('Method Not Allowed');
      return;
    }
    const file = this.resolve(req.getUrl());
    if (!file) {
      const text = (status: string, body: string) => {
        res.writeStatus(status).writeHeader('Content-Type', 'text/plain; charset=utf-8');
        endBody(res, method === 'head', body);
      };
      if (!this.available && extname(req.getUrl()) === '') {
        text('503 Service Unavailable', 'The client is not built. Run "npm run build" (or "npm start", which builds first).');
        return;
      }
      text('404 Not Found', 'Not Found');
      return;
    }
    if (req.getHeader('if-none-match') === file.etag) {
      res.writeStatus('304 Not Modified').writeHeader('ETag', file.etag).writeHeader('Cache-Control', file.cacheControl).end();
      return;
    }
    const accept = req.getHeader('accept-encoding');
    let body = file.raw;
    let encoding: string | undefined;
    if (file.br && /\bbr\b/.test(accept)) {
      body = file.br;
      encoding = 'br';
    } else if (file.gzip && /\bgzip\b/.test(accept)) {
      body = file.gzip;
      encoding = 'gzip';
    }
    res.writeStatus('200 OK');
    res.writeHeader('Content-Type', file.type);
    res.writeHeader('Cache-Control', file.cacheControl);
    res.writeHeader('ETag', file.etag);
    for (const [name, value] of this.headers) res.writeHeader(name, value);
    if (file.gzip || file.br) res.writeHeader('Vary', 'Accept-Encoding');
    if (encoding) res.writeHeader('Content-Encoding', encoding);
    endBody(res, method === 'head', body);
  }
}
