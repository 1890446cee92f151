/**
 * The page's security headers in real Chromium against the built server: the Content-Security-
 * Policy is sent, and the app works under it (no violation, no console error) through the
 * screens that load the most: home, sign-in, registration, and a live game on the chessground
 * board, with a move made by clicking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { clickMove, ConsoleGuard, launch, pieceOn, startSite, VIEWPORTS, type RunningSite } from './harness';

/** Collects the page's CSP violations in window.__cspViolations. */
const RECORD_VIOLATIONS = `
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
`;

let site: RunningSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
const guard = new ConsoleGuard();

async function newPage(): Promise<Page> {
  const ctx = await browser.newContext({ viewport: VIEWPORTS.desktop });
  contexts.push(ctx);
  guard.watch(ctx);
  await ctx.addInitScript({ content: RECORD_VIOLATIONS });
  return ctx.newPage();
}

const violations = (page: Page) => page.evaluate('window.__cspViolations') as Promise<string[]>;

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite({ AI_ENABLED: '0' }), launch()]);
}, 300_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await site?.stop();
});

describe('security headers', () => {
  it('sends a Content-Security-Policy, frame-ancestors, nosniff and a referrer policy with the page', async () => {
    const res = await fetch(site.url);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).toContain(`connect-src 'self' ${site.url} ${site.url.replace('http', 'ws')}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the app runs under it: pages, sign-in forms and a live game on the board, without a violation or a console error', async () => {
    const a = await newPage();
    const b = await newPage();
    for (const path of ['/', '/login', '/register']) {
      await a.goto(`${site.url}${path}`);
      await a.waitForLoadState('networkidle');
    }
    for (const page of [a, b]) {
      await page.goto(`${site.url}/guest?returnUrl=${encodeURIComponent('/chess/multiplayer')}`);
      await page.getByRole('button', { name: 'Continue as Guest' }).click();
    }
    await a.getByRole('button', { name: 'Find Match' }).click();
    await a.getByText('Finding opponent...').waitFor();
    await b.getByRole('button', { name: 'Find Match' }).click();
    for (const page of [a, b]) await page.getByTestId('board').waitFor();
    const white = (await a.getByTestId('board').getAttribute('data-orientation')) === 'white' ? a : b;
    const black = white === a ? b : a;
    await white.getByTestId('status-banner').filter({ hasText: 'Your Turn' }).waitFor({ timeout: 15_000 });
    await clickMove(white, 'e2', 'e4');
    await expect.poll(() => pieceOn(black, 'e4'), { timeout: 10_000 }).toMatch(/white pawn/);
    // the pieces are drawn: chessground's images are data: URIs in its stylesheet
    const image = await white.locator('cg-board piece').first().evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(image).toMatch(/^url\("data:image\/svg\+xml/);
    for (const page of [a, b]) expect(await violations(page)).toEqual([]);
    expect(guard.take()).toEqual([]);
  });
});
