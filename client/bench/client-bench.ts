/**
 * `npm run bench:client` — two numbers for the browser client, measured in
 * Debian's Chromium against the real built server:
 *
 * 1. JavaScript loaded for `/` by a first-time visitor, gzip-compressed
 *    (every script response the page fetched until the network was idle),
 *    against the 150 KB budget, next to the JS a board screen (/chess/ai) adds.
 * 2. Click on a destination square -> rendered move: from the mousedown's
 *    event timestamp to the animation frame after (a) chessground has drawn the
 *    move and (b) the app has committed it (engine check, machine, React render),
 *    median of several first moves, against the 16 ms frame budget.
 * 3. Layout shift during a whole multiplayer game (two guests, from the first frame of the game
 *    screen through fool's mate, the end dialog and closing it): Chromium's layout-shift entries
 *    summed, against 0.
 *
 * Set E2E_SKIP_BUILD=1 to reuse an existing dist/.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launch, squareCenter, startSite } from '../../tests/e2e/harness';
import { buildSite } from '../../tests/support/builds';

const BUDGET_KB = 150;
const FRAME_MS = 16;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

/** In-page measurement, as source text (tsx would inject helpers into a serialised function). */
const MEASURE_SCRIPT = `
window.__bench = new Promise((resolve) => {
  let t0 = -1, cgMs = -1;
  document.addEventListener('mousedown', (e) => { t0 = e.timeStamp; }, { capture: true, once: true });
  const mo = new MutationObserver(() => {
    if (t0 < 0) return;
    if (cgMs < 0 && document.querySelectorAll('cg-board square.last-move').length === 2) {
      cgMs = 0;
      requestAnimationFrame(() => { cgMs = performance.now() - t0; });
    }
    if (document.querySelectorAll('[data-testid="move-list"] button.play-move').length >= 1) {
      mo.disconnect();
      const commitMs = performance.now() - t0;
      requestAnimationFrame(() => {
        const appMs = performance.now() - t0;
        const mark = (n) => { const m = performance.getEntriesByName(n).filter((e) => e.startTime >= t0); return m.length ? m[0].startTime - t0 : -1; };
        resolve({ cg: cgMs > 0 ? cgMs : appMs, app: appMs, commit: commitMs, after: mark('board:user-move'), synced: mark('board:synced') });
      });
    }
  });
  mo.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
});
0;
`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function trackScripts(page: Page): Map<string, number> {
  const sizes = new Map<string, number>();
  page.on('response', async (res) => {
    const url = res.url();
    if (!/\.m?js(\?|$)/.test(url)) return;
    try {
      sizes.set(url, gzipSync(await res.body(), { level: 9 }).length);
    } catch {
      /* redirected or aborted */
    }
  });
  return sizes;
}
const kb = (bytes: number) => bytes / 1024;

/** Records every layout-shift entry from now on, as source text (see MEASURE_SCRIPT). */
const SHIFT_SCRIPT = `
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__shifts.push({ value: e.value, input: e.hadRecentInput });
}).observe({ type: 'layout-shift' });
0;
`;

async function guestOn(browser: Browser, url: string, path: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(`${url}/guest?returnUrl=${encodeURIComponent(path)}`);
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  return page;
}

/** Two guests play fool's mate; the layout shifts each page saw from the game's first frame to after the end dialog closed. */
async function layoutShiftDuringAGame(browser: Browser, url: string): Promise<{ total: number; withoutInput: number; entries: number }[]> {
  const a = await guestOn(browser, url, '/chess/multiplayer');
  const b = await guestOn(browser, url, '/chess/multiplayer');
  await a.getByRole('button', { name: 'Find Match' }).click();
  await a.getByText('Finding opponent...').waitFor();
  await b.getByRole('button', { name: 'Find Match' }).click();
  for (const p of [a, b]) {
    await p.getByTestId('board').waitFor();
    await p.evaluate(SHIFT_SCRIPT);
  }
  const white = (await a.getByTestId('board').getAttribute('data-orientation')) === 'white' ? a : b;
  const black = white === a ? b : a;
  const plies: [Page, string, string][] = [[white, 'f2', 'f3'], [black, 'e7', 'e5'], [white, 'g2', 'g4'], [black, 'd8', 'h4']];
  for (const [p, from, to] of plies) {
    await p.getByTestId('status-banner').filter({ hasText: 'Your Turn' }).waitFor();
    for (const sq of [from, to]) {
      const c = await squareCenter(p, sq);
      await p.mouse.click(c.x, c.y);
    }
  }
  const out = [];
  for (const p of [a, b]) {
    await p.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await p.getByTestId('status-banner').filter({ hasText: 'Checkmate' }).waitFor();
    await p.waitForTimeout(500);
    const shifts = (await p.evaluate('window.__shifts')) as { value: number; input: boolean }[];
    out.push({
      total: shifts.reduce((n, s) => n + s.value, 0),
      withoutInput: shifts.filter((s) => !s.input).reduce((n, s) => n + s.value, 0),
      entries: shifts.length,
    });
    await p.context().close();
  }
  return out;
}

async function main() {
  buildSite();
  const site = await startSite();
  const browser = await launch();
  try {
    // 1. JS for `/`
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    const sizes = trackScripts(page);
    await page.goto(site.url, { waitUntil: 'networkidle' });
    await page.getByText('Version 1.0.0').waitFor();
    const homeBytes = [...sizes.values()].reduce((a, b) => a + b, 0);
    const homeFiles = sizes.size;
    // what a board screen adds
    await page.goto(`${site.url}/guest?returnUrl=%2Fchess%2Fai`);
    await page.getByRole('button', { name: 'Continue as Guest' }).click();
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
    await page.getByRole('button', { name: 'Start Game' }).click();
    await page.getByTestId('board').waitFor();
    await page.waitForLoadState('networkidle');
    const allBytes = [...sizes.values()].reduce((a, b) => a + b, 0);

    // 2. click -> rendered move, on fresh games against the AI (player is white)
    const cg: number[] = [];
    const app: number[] = [];
    const commit: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (i > 0) {
        await page.getByRole('button', { name: 'Resign' }).click();
        await page.getByRole('button', { name: 'Confirm Resign' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Play Again' }).click();
        await page.getByRole('button', { name: 'White' }).click();
        await page.getByRole('button', { name: 'Start Game' }).click();
      }
      await page.getByTestId('status-banner').filter({ hasText: 'Your Turn' }).waitFor();
      await page.waitForTimeout(200);
      const from = await squareCenter(page, 'e2');
      await page.mouse.click(from.x, from.y);
      await page.evaluate(MEASURE_SCRIPT);
      const to = await squareCenter(page, 'e4');
      await page.mouse.click(to.x, to.y);
      const r = (await page.evaluate('window.__bench')) as { cg: number; app: number; commit: number; after: number; synced: number };
      commit.push(r.commit);
      after.push(r.after);
      cg.push(r.cg);
      app.push(r.app);
    }

    const shifts = await layoutShiftDuringAGame(browser, site.url);

    const homeKb = kb(homeBytes);
    const lines = [
      `JS for / (gzip, ${homeFiles} files): ${homeKb.toFixed(1)} KB; budget ${BUDGET_KB} KB; ratio ${(homeKb / BUDGET_KB).toFixed(2)}`,
      `JS after opening a board screen (/chess/ai, gzip, ${sizes.size} files): ${kb(allBytes).toFixed(1)} KB (board + chess core + screen: +${kb(allBytes - homeBytes).toFixed(1)} KB)`,
      `click -> move drawn by chessground: median ${median(cg).toFixed(1)} ms over ${RUNS} (min ${Math.min(...cg).toFixed(1)}, max ${Math.max(...cg).toFixed(1)}); ratio to ${FRAME_MS} ms ${(median(cg) / FRAME_MS).toFixed(2)}`,
      `click -> the app receives the move from the board: median ${median(after).toFixed(1)} ms over ${RUNS}`,
      `click -> move committed to the DOM by the app (engine check, machine, React; before the frame): median ${median(commit).toFixed(1)} ms over ${RUNS}`,
      `click -> move committed by the app and drawn: median ${median(app).toFixed(1)} ms over ${RUNS} (min ${Math.min(...app).toFixed(1)}, max ${Math.max(...app).toFixed(1)}); ratio to ${FRAME_MS} ms ${(median(app) / FRAME_MS).toFixed(2)}`,
      `layout shift during a whole multiplayer game (both players): ${shifts.map((s) => s.total.toFixed(4)).join(', ')} (${shifts.map((s) => s.entries).join(', ')} entries; without recent input ${shifts.map((s) => s.withoutInput.toFixed(4)).join(', ')}); target 0`,
    ];
    for (const l of lines) process.stdout.write(l + '\n');
    await ctx.close();
  } finally {
    await browser.close();
    await site.stop();
  }
}

main().catch((err) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err) + '\n');
  process.exit(1);
});
