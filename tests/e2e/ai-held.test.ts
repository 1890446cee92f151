/**
 * A game against the AI that holds a player, seen in real Chromium: Find Match on the multiplayer
 * screen names the AI game, links to it and resigns it on request, after which the search starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ConsoleGuard, launch, startSite, VIEWPORTS, type RunningSite } from './harness';

let site: RunningSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
const guard = new ConsoleGuard();

async function guestAt(path: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: VIEWPORTS.desktop });
  contexts.push(ctx);
  guard.watch(ctx);
  const page = await ctx.newPage();
  await page.goto(`${site.url}/guest?returnUrl=${encodeURIComponent(path)}`);
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  return page;
}

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite({ AI_POOL_SIZE: '1', AI_REPLY_DELAY_MS: '0-5', AI_MAX_MOVETIME_MS: '50' }), launch()]);
}, 300_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await site?.stop();
});

describe('an AI game that holds the player', () => {
  it('is named when they look for a multiplayer game, with a link to it and a way to resign it', async () => {
    const page = await guestAt('/chess/ai');
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
    await page.getByRole('button', { name: 'Start Game' }).click();
    await page.getByRole('heading', { name: /^AI Game vs / }).waitFor();

    await page.goto(`${site.url}/chess/multiplayer`);
    await page.getByRole('button', { name: 'Find Match' }).click();
    const held = page.getByTestId('active-game');
    await held.getByText('Your game against the AI is still in progress.').waitFor();
    expect(await held.getByRole('link', { name: 'Go to the game' }).getAttribute('href')).toBe('/chess/ai');

    await held.getByRole('button', { name: 'Resign it' }).click();
    await expect.poll(() => held.count()).toBe(0);
    await page.getByRole('button', { name: 'Find Match' }).click();
    await page.getByText('Finding opponent...').waitFor();
    expect(guard.take()).toEqual([]);
  }, 120_000);
});
