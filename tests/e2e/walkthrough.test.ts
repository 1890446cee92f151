/**
 * The walkthrough a new player makes, in real Chromium at the three sizes players use most
 * (1280x800, 1920x1080, a phone at 375x812): every screen of the site, a game from both seats and
 * a visitor's, then the same game finished. On every screen: nothing in the console, no page wider
 * than the screen, and the header's sections (Play, Leaderboard, Settings) in reach. Each screen's
 * picture goes to WALKTHROUGH_DIR when it is set, for a person to look over.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { enterAsGuest, newPage, play, resign, site, startMultiplayer, useSite } from './siteSession';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 375, height: 812 },
] as const;

/** The screens a visitor reaches from the header and home, with something each must show. */
const SCREENS: { path: string; name: string; shows: string | RegExp }[] = [
  { path: '/', name: 'home', shows: 'Play' },
  { path: '/chess', name: 'game-modes', shows: 'Multiplayer' },
  { path: '/chess/multiplayer', name: 'pools', shows: 'Find Match' },
  { path: '/chess/ai', name: 'ai-setup', shows: /Play against/i },
  { path: '/chess/local', name: 'local', shows: /Local/i },
  { path: '/chess/stats', name: 'stats', shows: /Stats/i },
  { path: '/settings', name: 'settings', shows: 'Settings' },
  { path: '/leaderboard', name: 'leaderboard', shows: 'Leaderboard' },
  { path: '/games', name: 'live-games', shows: 'Live games' },
  { path: '/tv', name: 'tv', shows: 'Chess TV' },
];

const PICTURES = process.env.WALKTHROUGH_DIR;
if (PICTURES) mkdirSync(PICTURES, { recursive: true });

useSite();

/** What is wrong with the page at its size, as a list (empty when nothing is). */
async function screenProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const doc = document.documentElement;
    if (doc.scrollWidth > width) problems.push(`the page is ${doc.scrollWidth} px wide on a ${width} px screen`);
    const nav = document.querySelector('nav[aria-label="Site"]');
    for (const section of ['Play', 'Leaderboard', 'Settings']) {
      const link = [...(nav?.querySelectorAll('a') ?? [])].find((a) => a.textContent?.trim() === section);
      if (!link) {
        problems.push(`no "${section}" in the header`);
        continue;
      }
      const r = link.getBoundingClientRect();
      const shown = nav!.getBoundingClientRect();
      if (r.width === 0 || r.right > Math.min(width, shown.right) + 0.5 || r.left < 0) problems.push(`"${section}" in the header is out of reach`);
    }
    // the online count sits on one line beside the sections, over none of them
    const count = document.querySelector('[data-testid="player-count"]')?.getBoundingClientRect();
    const header = document.querySelector('.site-header')?.getBoundingClientRect();
    const lastLink = [...(nav?.querySelectorAll('a') ?? [])].at(-1)?.getBoundingClientRect();
    if (count && header && count.height > header.height / 2) problems.push(`the online count takes ${count.height} px of a ${header.height} px header`);
    if (count && lastLink && lastLink.right > count.left) problems.push('the online count covers the header\'s last section');
    return problems;
  });
}

async function look(page: Page, name: string, size: { width: number; height: number }): Promise<void> {
  await expect.poll(() => screenProblems(page), { message: `${name} at ${size.width}x${size.height}` }).toEqual([]);
  if (PICTURES) await page.screenshot({ path: join(PICTURES, `${name}-${size.width}x${size.height}.png`), fullPage: true });
}

describe('a walkthrough at 1280x800, 1920x1080 and 375x812', () => {
  it('every screen shows what it should, fits the screen, keeps the header in reach, and logs nothing', async () => {
    const page = await newPage();
    await enterAsGuest(page, '/chess');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const screen of SCREENS) {
        await page.goto(`${site().url}${screen.path}`);
        await page.getByText(screen.shows).first().waitFor();
        await look(page, screen.name, size);
      }
    }
  }, 180_000);

  it("a game, from a player's seat and a visitor's, live and finished, at every size", async () => {
    const pages = await startMultiplayer();
    await play(pages, 'e2e4', 'e7e5');
    const address = pages.white.url();
    expect(address).toMatch(/\/game\/[^/]+$/);
    const visitor = await newPage();
    await enterAsGuest(visitor, '/');
    await visitor.goto(address);
    for (const size of SIZES) {
      for (const [page, who] of [[pages.white, 'game-player'], [visitor, 'game-visitor']] as const) {
        await page.setViewportSize(size);
        await page.getByTestId('board').waitFor();
        await look(page, who, size);
      }
    }
    await pages.white.setViewportSize(SIZES[0]);
    await resign(pages.white);
    await pages.black.getByRole('dialog').getByRole('heading', { name: 'Victory!' }).waitFor();
    for (const size of SIZES) {
      await visitor.setViewportSize(size);
      await visitor.goto(address);
      await visitor.getByTestId('board').waitFor();
      await look(visitor, 'game-finished', size);
    }
  }, 180_000);
});
