/**
 * Games against the AI in real Chromium: one that holds a player (Find Match on the multiplayer
 * screen names the AI game, links to it and resigns it on request, after which the search
 * starts), and one on a 3+2 clock whose clocks run.
 */
import { describe, expect, it } from 'vitest';
import { guestAt, resign, site, useSite } from './siteSession';

useSite({ AI_POOL_SIZE: '1', AI_REPLY_DELAY_MS: '0-5', AI_MAX_MOVETIME_MS: '50' });

describe('an AI game that holds the player', () => {
  it('is named when they look for a multiplayer game, with a link to it and a way to resign it', async () => {
    const page = await guestAt('/chess/ai');
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
    await page.getByRole('button', { name: 'Start Game' }).click();
    await page.getByRole('heading', { name: /^AI Game vs / }).waitFor();

    await page.goto(`${site().url}/chess/multiplayer`);
    await page.getByRole('button', { name: 'Find Match' }).click();
    const held = page.getByTestId('active-game');
    await held.getByText('Your game against the AI is still in progress.').waitFor();
    expect(await held.getByRole('link', { name: 'Go to the game' }).getAttribute('href')).toBe('/chess/ai');

    await held.getByRole('button', { name: 'Resign it' }).click();
    await expect.poll(() => held.count()).toBe(0);
    await page.getByRole('button', { name: 'Find Match' }).click();
    await page.getByText('Finding opponent...').waitFor();
  }, 120_000);
});

describe('a game against the AI on a clock', () => {
  it('3+2: the set-up offers the clock, both clocks show 3:00, and the player\'s clock runs down on their turn', async () => {
    const page = await guestAt('/chess/ai');
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
    expect(await page.getByRole('button', { name: 'No clock' }).getAttribute('aria-pressed')).toBe('true');
    await page.locator('[data-pool="3+2"]').click();
    expect(await page.locator('[data-pool="3+2"]').getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Start Game' }).click();
    await page.getByRole('heading', { name: /^AI Game vs / }).waitFor();
    const mine = page.getByTestId('clock-white');
    const theirs = page.getByTestId('clock-black');
    await expect.poll(() => mine.textContent()).toBe('03:00');
    expect(await theirs.textContent()).toBe('03:00');
    // both sides move once (no clock runs before that), then white's clock runs on its turn
    const input = page.getByLabel('Type your move');
    await input.fill('e4');
    await input.press('Enter');
    await expect.poll(async () => (await page.getByTestId('move-list').locator('li').first().textContent())?.replace(/\s+/g, ' ').trim(), { timeout: 20_000 }).toMatch(/^1\.\s?e4\s?\S+$/);
    await expect.poll(() => mine.getAttribute('class')).toContain('clock-active');
    await expect.poll(() => mine.textContent()).toMatch(/^02:5\d$/);
    expect(await theirs.textContent()).toMatch(/^0(3:00|2:5\d)$/);
    await resign(page);
    await page.getByText('(Reason: ').first().waitFor();
  }, 120_000);
});
