/**
 * A challenge from a profile in real Chromium, between two signed-in players (the real accounts
 * module on PGlite): one opens the other's profile and sends a challenge, and waits on its page;
 * the other, on another page of the site, gets the notice of it and accepts there; both go to
 * the game on its clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { accountOn, ConsoleGuard, launch, startArchiveSite, TEST_PASSWORD, VIEWPORTS, type ArchiveSite } from './harness';

let site: ArchiveSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
const guard = new ConsoleGuard();

/** A new account with a username, signed in in a browser of its own, at `path`. */
async function signedIn(name: string, path: string): Promise<Page> {
  const { email } = await accountOn(site, name);
  const ctx = await browser.newContext({ viewport: VIEWPORTS.desktop });
  contexts.push(ctx);
  guard.watch(ctx);
  const page = await ctx.newPage();
  await page.goto(`${site.server.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.goto(`${site.server.url}${path}`);
  return page;
}

beforeAll(async () => {
  [site, browser] = await Promise.all([startArchiveSite(), launch()]);
}, 300_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await site?.stop();
});

describe('a challenge from a profile', () => {
  it('reaches the player on another page as a notice; accepted there, both go to the game', async () => {
    const ben = await signedIn('notice_ben', '/leaderboard');
    const ann = await signedIn('notice_ann', '/@/notice_ben');
    await ann.getByTestId('challenge-player').click();
    await ann.getByTestId('custom-minutes').selectOption({ label: '3' });
    await ann.getByTestId('custom-increment').selectOption({ label: '2' });
    await ann.getByRole('radiogroup', { name: 'Rated or casual' }).getByLabel('Rated').check();
    await ann.getByTestId('send-challenge').click();
    await ann.waitForURL(/\/challenge\//);
    await ann.getByRole('heading', { name: 'Your challenge to notice_ben' }).waitFor();

    const notice = ben.getByTestId('challenge-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('notice_ann');
    expect(await notice.textContent()).toContain('3+2 Blitz · Rated');
    await notice.getByRole('button', { name: 'Accept' }).click();
    for (const page of [ann, ben]) {
      await page.getByTestId('board').waitFor();
      await expect.poll(() => page.getByTestId('clock-white').textContent()).toBe('03:00');
      expect(page.url()).toMatch(/\/game\/game_/);
    }
    expect(await ben.getByTestId('challenge-notice').count()).toBe(0);
    expect(guard.take()).toEqual([]);
  }, 90_000);
});
