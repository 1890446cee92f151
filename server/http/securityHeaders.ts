/**
 * Security headers of the site's pages and files: a Content-Security-Policy the built client
 * works under (its scripts are files of its own origin, chessground's piece images are data: URIs
 * in its CSS, the game socket and the accounts API are same-origin or the configured public and
 * hosted-accounts addresses), no framing, no MIME sniffing, no referrer to other sites.
 *
 * In development mode only (`browserInspector`), the page may connect the Stately inspector
 * (docs/inspector.md): the inspector's window keeps its link to the page that opened it (the
 * opener policy allows popups; `same-origin` cuts the link, and with it the inspector's
 * `@statelyai.connected` message), and the inspector may be the page's frame.
 */
import { STATELY_INSPECTOR_URL } from '../inspect/bridgePage';

/** `connectOrigins`: origins besides the page's own that the client calls (a hosted accounts project). */
export function securityHeaders(connectOrigins: readonly string[] = [], browserInspector = false): [string, string][] {
  // each origin as http(s) and as the ws(s) its sockets use (older browsers do not match ws: to 'self')
  const origins = connectOrigins.map((u) => new URL(u).origin).flatMap((o) => [o, o.replace(/^http/, 'ws')]);
  const connect = ["'self'", ...new Set(origins)].join(' ');
  const csp = [
    "default-src 'self'",
    // no eval; compiling WebAssembly is allowed: the in-browser analysis engine is Stockfish's WASM
    "script-src 'self' 'wasm-unsafe-eval'",
    // inline style attributes as lichess allows them: scripts are what the policy must lock down
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "worker-src 'self'",
    ...(browserInspector ? [`frame-src 'self' ${new URL(STATELY_INSPECTOR_URL).origin}`] : []),
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return [
    ['Content-Security-Policy', csp],
    ['X-Frame-Options', 'DENY'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'same-origin'],
    ['Cross-Origin-Opener-Policy', browserInspector ? 'same-origin-allow-popups' : 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
  ];
}
