/**
 * The page's security headers: production's are exactly these (the XState inspector changes
 * nothing there); development mode lets the Stately inspector's window and frame in and nothing
 * else (docs/inspector.md).
 */
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../server/http/securityHeaders';

/** Production's policy as a browser reads it, pinned: a change to it must be made here too, on purpose. */
const PRODUCTION_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self' https://accounts.example.org wss://accounts.example.org; worker-src 'self'; manifest-src 'self'; object-src 'none'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PRODUCTION: [string, string][] = [
  ['Content-Security-Policy', PRODUCTION_CSP],
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
];

describe('security headers', () => {
  it('in production are exactly the site’s policy', () => {
    expect(securityHeaders(['https://accounts.example.org'])).toEqual(PRODUCTION);
    expect(securityHeaders(['https://accounts.example.org'], false)).toEqual(PRODUCTION);
  });

  it('in development let the Stately inspector’s window keep its opener and its frame load, and change nothing else', () => {
    const dev = new Map(securityHeaders(['https://accounts.example.org'], true));
    const prod = new Map(PRODUCTION);
    expect(dev.get('Cross-Origin-Opener-Policy')).toBe('same-origin-allow-popups');
    expect(dev.get('Content-Security-Policy')).toBe(PRODUCTION_CSP.replace("worker-src 'self'", "worker-src 'self'; frame-src 'self' https://stately.ai"));
    for (const name of ['X-Frame-Options', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy']) expect(dev.get(name)).toBe(prod.get(name));
    expect([...dev.keys()]).toEqual([...prod.keys()]);
  });
});
