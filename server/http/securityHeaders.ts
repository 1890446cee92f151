/**
 * Security headers of the site's pages and files: a Content-Security-Policy the built client
 * works under (its scripts are files of its own origin, chessground's piece images are data: URIs
 * in its CSS, the game socket and the accounts API are same-origin or the configured public and
 * hosted-accounts addresses), no framing, no MIME sniffing, no referrer to other sites.
 */

/** `connectOrigins`: origins besides the page's own that the client calls (a hosted accounts project). */
export function securityHeaders(connectOrigins: readonly string[] = []): [string, string][] {
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
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
  ];
}
