/**
 * Analysis in real Chromium: on /game/:id "Analyse" starts Stockfish (the npm package's lite WASM
 * build) in a Web Worker; the game's evaluation graph appears with its blunder marked, the shown
 * position is searched to depth 12 and more with a best line and an arrow, and the page's main
 * thread is never blocked for long meanwhile (PerformanceObserver 'longtask'). The real server
 * serves the built client and a game stored through its own archive writer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { SCREENSHOT_DIR, storedGame } from './harness';
import { newPage, site, siteArchive, useSite } from './siteSession';

// the four-move mate: 4...Nf6?? lets 5.Qxf7#, a blunder however deep the engine looks
const MOVES = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
/** Longest main-thread task tolerated while the engine works: a freeze a player would notice. */
const FREEZE_MS = 200;

useSite({}, { inProcess: true });

/** A page that records its main thread's long tasks in window.longTasks. */
async function page(): Promise<Page> {
  const p = await newPage();
  await p.addInitScript(() => {
    const w = window as unknown as { longTasks: { start: number; duration: number }[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  return p;
}

beforeAll(async () => {
  await siteArchive().store(storedGame(
    'game_e2eanalysis1',
    { name: 'Guest A', accountId: null, guestId: 'guest-analysis-a' },
    { name: 'Guest B', accountId: null, guestId: 'guest-analysis-b' },
    MOVES,
    { winner: 'white', reason: 'checkmate' },
  ));
});

describe('analysis in the browser', () => {
  it('plots the game with its blunder, searches the shown position past depth 12 without freezing the page', async () => {
    const p = await page();
    await p.goto(`${site().url}/game/game_e2eanalysis1`);
    await p.getByTestId('replay-result').waitFor();
    expect(await p.getByTestId('analysis').count()).toBe(0);

    const started = await p.evaluate(() => performance.now());
    await p.getByRole('button', { name: 'Analyse' }).click();
    await p.locator('[data-testid="analysis"][data-graph="done"]').waitFor({ timeout: 180_000 });
    const graphMs = (await p.evaluate(() => performance.now())) - started;

    const marks = await p.getByTestId('eval-mark').evaluateAll((els) => els.map((e) => [e.getAttribute('data-ply'), e.getAttribute('data-judgement')]));
    expect(marks).toContainEqual(['6', 'blunder']);
    expect(await p.getByTestId('eval-graph').locator('path').getAttribute('d')).toMatch(/^M0 [\d.]+( L[\d.]+ [\d.]+){7}$/);
    expect(await p.getByTestId('analysis-summary').innerText()).toMatch(/Blunders\s+0\s+1/);

    // the blunder is annotated in the move list, with the centipawns it lost
    const moveButton = (i: number) => p.getByTestId('move-list').getByRole('button').nth(i).textContent();
    await expect.poll(() => moveButton(5)).toMatch(/^Nf6\?\?−\d+$/);
    const nf6 = await moveButton(5);
    expect(Number(/−(\d+)$/.exec(nf6!)![1])).toBeGreaterThanOrEqual(300);
    expect(await p.getByTestId('move-list').getByRole('button').nth(0).textContent()).toBe('e4');
    // the evaluation bar stands beside the board, as tall as it
    const bar = (await p.getByTestId('eval-bar').boundingBox())!;
    const board = (await p.getByTestId('board').boundingBox())!;
    expect(bar.width).toBeGreaterThanOrEqual(12);
    expect(bar.height).toBeGreaterThanOrEqual(board.height - 2);
    expect(bar.x + bar.width).toBeLessThanOrEqual(board.x + 1);
    // the final position is mate: it reads "#" and the result, not a number still "thinking"
    expect(await p.getByTestId('analysis-score').textContent()).toBe('#');
    expect(await p.getByTestId('analysis-depth').textContent()).toBe('Checkmate · 1-0');
    expect(await p.getByTestId('eval-bar').getAttribute('aria-label')).toBe('Evaluation #');

    // the start position: the engine's line appears, an arrow on the board, depth 12 reached
    await p.keyboard.press('Home');
    const liveFrom = await p.evaluate(() => performance.now());
    await p.waitForFunction(() => Number(document.querySelector('[data-testid="analysis"]')?.getAttribute('data-depth')) >= 12, undefined, { timeout: 120_000 });
    const depth12Ms = (await p.evaluate(() => performance.now())) - liveFrom;
    expect((await p.getByTestId('analysis-line').innerText()).split(' ').length).toBeGreaterThan(1);
    expect(await p.locator('.cg-shapes line, svg.cg-custom-svgs g, .cg-shapes g').count()).toBeGreaterThan(0);

    const tasks = await p.evaluate((from) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks
      .filter((t) => t.start >= from).map((t) => Math.round(t.duration)), started);
    console.log(`analysis: graph of ${MOVES.length + 1} positions in ${Math.round(graphMs)} ms; depth 12 on the start position in ${Math.round(depth12Ms)} ms; long tasks after "Analyse": ${tasks.length} [${tasks.join(', ')}] ms`);
    expect(Math.max(0, ...tasks)).toBeLessThan(FREEZE_MS);
    await p.screenshot({ path: join(SCREENSHOT_DIR, 'analysis-desktop.png') });
  }, 400_000);
});
