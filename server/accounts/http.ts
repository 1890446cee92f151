/**
 * A small request/reply layer over uWebSockets.js HTTP handlers:
 * - registers onAborted before any async work, copies the headers synchronously,
 * - reads the body (copying every chunk, the ArrayBuffers die with the callback) under a limit,
 * - answers inside cork() after the async handler, never after an abort,
 * - adds CORS headers for the configured origins and answers preflights,
 * - logs method, path (never the query: it may hold tokens), status and duration.
 */
import { STATUS_CODES } from 'node:http';
import type { Logger } from 'pino';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { clientAddress, type TrustedProxies } from '../http/clientAddress';

export interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The client's address (a trusted proxy's X-Forwarded-For resolved). */
  ip: string;
  /** The address the connection came from (the proxy's, when there is one). */
  peer: string;
  body: Buffer;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export type Handler = (req: Req) => Promise<Reply> | Reply;

export interface ServeOptions {
  logger: Logger;
  bodyLimitBytes: number;
  trustProxy: TrustedProxies;
  cors: CorsPolicy;
  tooLarge: () => Reply;
  onError: (err: unknown) => Reply;
}

export interface CorsPolicy {
  allowedOrigins: Set<string>;
  exposeHeaders: string;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

export function serve(handler: Handler, opts: ServeOptions) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const started = performance.now();
    let aborted = false;
    let answered = false;
    res.onAborted(() => {
      aborted = true;
    });
    const method = req.getMethod().toUpperCase();
    const path = req.getUrl();
    const query = new URLSearchParams(req.getQuery() ?? '');
    const headers: Record<string, string> = {};
    req.forEach((k, v) => {
      headers[k] = v;
    });
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    const ip = clientAddress(peer, headers['x-forwarded-for'], opts.trustProxy);
    const origin = headers.origin;
    const corsHeaders: Record<string, string> = {};
    if (origin && opts.cors.allowedOrigins.has(origin)) {
      corsHeaders['Access-Control-Allow-Origin'] = origin;
      corsHeaders['Access-Control-Expose-Headers'] = opts.cors.exposeHeaders;
      corsHeaders.Vary = 'Origin';
    }

    const send = (reply: Reply): void => {
      if (aborted || answered) return;
      answered = true;
      res.cork(() => {
        res.writeStatus(`${reply.status} ${STATUS_CODES[reply.status] ?? ''}`.trim());
        for (const [k, v] of Object.entries({ ...reply.headers, ...corsHeaders })) res.writeHeader(k, v);
        if (method === 'HEAD') {
          // This uWS build would send a body on HEAD with end(); headers only, then close.
          const body = reply.body ?? '';
          res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.length, true);
        } else {
          res.end(reply.body ?? '');
        }
      });
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const level = reply.status >= 500 ? 'warn' : 'debug';
      opts.logger[level]({ method, path, status: reply.status, ms }, 'accounts request');
    };

    const run = (body: Buffer): void => {
      Promise.resolve()
        .then(() => handler({ method, path, query, headers, ip, peer, body }))
        .then(send, (err: unknown) => {
          opts.logger.error({ err, method, path }, 'accounts handler failed');
          send(opts.onError(err));
        });
    };

    if (method === 'OPTIONS') {
      const pre: Record<string, string> = {};
      if (corsHeaders['Access-Control-Allow-Origin']) {
        pre['Access-Control-Allow-Methods'] = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
        pre['Access-Control-Allow-Headers'] =
          headers['access-control-request-headers'] ||
          'authorization, apikey, content-type, x-client-info, x-supabase-api-version, prefer, accept-profile, content-profile';
        pre['Access-Control-Max-Age'] = '600';
      }
      send({ status: 204, headers: pre });
      return;
    }
    if (!BODY_METHODS.has(method)) {
      run(Buffer.alloc(0));
      return;
    }
    const declared = Number(headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > opts.bodyLimitBytes) {
      send(opts.tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (answered) return;
      size += chunk.byteLength;
      if (size > opts.bodyLimitBytes) {
        send(opts.tooLarge());
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) run(Buffer.concat(chunks, size));
    });
  };
}

/** Parses a JSON object body; undefined when it is not a JSON object. */
export function parseJsonObject(body: Buffer): Record<string, unknown> | undefined {
  if (body.length === 0) return {};
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function bearerToken(headers: Record<string, string>): string | undefined {
  const h = headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  return m ? m[1] : undefined;
}
