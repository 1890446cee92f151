/**
 * The page's security headers in real Chromium against the built server: the Content-Security-
 * Policy is sent, and the app works under it (no violation, no console error) through the
 * screens that load the most: home, sign-in, registration, and a live game on the chessground
 * board, with a move made by clicking.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { clickMove, pieceOn } from './harness';
import { findEachOther, newContext, site, useSite, waitTurn } from './siteSession';

/** Collects the page's CSP violations in window.__cspViolations. */
const RECORD_VIOLATIONS = `
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
`;

useSite({ AI_ENABLED: '0' });

/** A page in a new context whose CSP violations are recorded. */
async function watchedPage(): Promise<Page> {
  const ctx = await newContext();
  await ctx.addInitScript({ content: RECORD_VIOLATIONS });
  return ctx.newPage();
}

const violations = (page: Page) => page.evaluate('window.__cspViolations') as Promise<string[]>;

describe('security headers', () => {
  it('sends a Content-Security-Policy, frame-ancestors, nosniff and a referrer policy with the page', async () => {
    const res = await fetch(site().url);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).toContain(`connect-src 'self' ${site().url} ${site().url.replace('http', 'ws')}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the app runs under it: pages, sign-in forms and a live game on the board, without a violation or a console error', async () => {
    const a = await watchedPage();
    const b = await watchedPage();
    for (const path of ['/', '/login', '/register']) {
      await a.goto(`${site().url}${path}`);
      await a.waitForLoadState('networkidle');
    }
    const { white, black } = await findEachOther(a, b);
    await waitTurn(white);
    await clickMove(white, 'e2', 'e4');
    await expect.poll(() => pieceOn(black, 'e4')).toMatch(/white pawn/);
    // the pieces are drawn: chessground's images are data: URIs in its stylesheet
    const image = await white.locator('cg-board piece').first().evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(image).toMatch(/^url\("data:image\/svg\+xml/);
    for (const page of [a, b]) expect(await violations(page)).toEqual([]);
  });
});
