/** The built client served from memory: caching, SPA routes, compression, and the encodings the build keeps beside each file. */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { startTestServer } from './helpers';
import { precompressDir } from '../../server/http/compression';

let server: RunningServer;
const js = 'console.log("hello chess");\n'.repeat(200);

function request(path: string, headers?: Record<string, string>, method?: string): ReturnType<typeof requestFrom> {
  return requestFrom(server, path, headers, method);
}

function requestFrom(site: RunningServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(site.url + path, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Chess</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), js);
  server = await startTestServer({ staticDir: dir });
});
afterAll(async () => {
  await server.close();
});

describe('static client', () => {
  it('serves index.html without caching at / and at SPA routes', async () => {
    for (const path of ['/', '/multiplayer', '/auth/callback-not-mounted/x', '/stats']) {
      const r = await request(path);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toContain('text/html');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.body.toString()).toContain('<title>Chess</title>');
    }
  });

  it('serves hashed assets with a long immutable cache, compressed when accepted', async () => {
    const plain = await request('/assets/index-abc123.js');
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toContain('immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(js);

    const br = await request('/assets/index-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(js);
    expect(br.body.length).toBeLessThan(js.length / 5);

    const gz = await request('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(js);
  });

  it('answers HEAD with the headers only and stays up', async () => {
    const head = await request('/multiplayer', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const asset = await request('/assets/index-abc123.js', {}, 'HEAD');
    expect(Number(asset.headers['content-length'])).toBe(js.length);
    expect((await request('/')).status).toBe(200);
  });

  it('answers 304 for a matching ETag and 404 for missing assets', async () => {
    const first = await request('/assets/index-abc123.js');
    const etag = first.headers.etag as string;
    expect((await request('/assets/index-abc123.js', { 'if-none-match': etag })).status).toBe(304);
    expect((await request('/assets/missing-000.js')).status).toBe(404);
    expect((await request('/favicon.ico')).status).toBe(404);
  });
});

describe('encodings kept beside the files (the client build writes them)', () => {
  let kept: RunningServer;
  const other = 'console.log("another build");\n'.repeat(200);
  const fast = (text: string) => brotliCompressSync(Buffer.from(text), { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } });
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'static-kept-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Chess</title><div id="root"></div>');
    // as the build leaves them: every compressible file's encodings beside it
    writeFileSync(join(dir, 'assets', 'built-abc123.js'), js);
    expect(precompressDir(dir)).toBe(1);
    // kept at another quality than the server's own, so what is served shows where it came from
    writeFileSync(join(dir, 'assets', 'kept-abc123.js'), js);
    writeFileSync(join(dir, 'assets', 'kept-abc123.js.br'), fast(js));
    writeFileSync(join(dir, 'assets', 'kept-abc123.js.gz'), gzipSync(js, { level: 1 }));
    // left from another build: it does not hold this file
    writeFileSync(join(dir, 'assets', 'stale-abc123.js'), js);
    writeFileSync(join(dir, 'assets', 'stale-abc123.js.br'), fast(other));
    kept = await startTestServer({ staticDir: dir });
  });
  afterAll(async () => {
    await kept.close();
  });

  it('writes brotli and gzip beside each compressible file, and serves them', async () => {
    const path = join(dir, 'assets', 'built-abc123.js');
    expect(existsSync(path + '.br') && existsSync(path + '.gz')).toBe(true);
    expect((await requestFrom(kept, '/assets/built-abc123.js', { 'accept-encoding': 'br' })).body).toEqual(readFileSync(path + '.br'));
    expect((await requestFrom(kept, '/assets/built-abc123.js', { 'accept-encoding': 'gzip' })).body).toEqual(readFileSync(path + '.gz'));
  });

  it('serves the encodings kept beside a file byte for byte instead of compressing it again', async () => {
    const br = await requestFrom(kept, '/assets/kept-abc123.js', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body).toEqual(fast(js));
    const gz = await requestFrom(kept, '/assets/kept-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.body).toEqual(gzipSync(js, { level: 1 }));
  });

  it('compresses a file again when what is kept beside it holds another file', async () => {
    const br = await requestFrom(kept, '/assets/stale-abc123.js', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(js);
  });

  it('does not serve the kept encodings as files of their own', async () => {
    expect((await requestFrom(kept, '/assets/kept-abc123.js.br')).status).toBe(404);
    expect((await requestFrom(kept, '/assets/kept-abc123.js.gz')).status).toBe(404);
  });
});
