/**
 * Custom games and challenges in real Chromium, between two browsers: a game created in the
 * lobby appears live in the other browser's list and is joined there, both going to a game on
 * its clock; a challenge link made in one browser and opened in another shows who challenges
 * and with what, and accepted, both go to the game while the challenger sees it start.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './harness';
import { guestAt, useSite } from './siteSession';

useSite({ AI_ENABLED: '0' });

async function chooseTimeControl(page: Page, minutes: string, increment: string): Promise<void> {
  await page.getByTestId('custom-minutes').selectOption({ label: minutes });
  await page.getByTestId('custom-increment').selectOption({ label: increment });
}

async function bothOnBoard(pages: Page[], clock: string): Promise<void> {
  for (const page of pages) {
    await page.getByTestId('board').waitFor();
    await expect.poll(() => page.getByTestId('clock-white').textContent()).toBe(clock);
    expect(await page.getByTestId('clock-black').textContent()).toBe(clock);
    expect(page.url()).toMatch(/\/game\/game_/);
  }
}

describe('custom games and challenges', () => {
  it('lists a game created in one browser live in the other, which joins it: both play it on its clock', async () => {
    const a = await guestAt('/chess/multiplayer');
    const b = await guestAt('/chess/multiplayer');
    await b.getByTestId('lobby-empty').waitFor();
    await chooseTimeControl(a, '2', '1');
    expect(await a.getByTestId('custom-time-control').textContent()).toBe('2+1 Bullet');
    await a.getByRole('radiogroup', { name: 'Your colour' }).getByLabel('White').check();
    await a.getByTestId('post-hook').click();
    const row = b.getByTestId('hook');
    await row.waitFor();
    expect(await row.textContent()).toContain('2+1 Bullet · Casual');
    expect(await row.textContent()).toContain('You play black');
    await b.getByTestId('lobby').scrollIntoViewIfNeeded();
    await b.screenshot({ path: join(SCREENSHOT_DIR, 'lobby-desktop.png') });
    // the creator sees it as theirs, to cancel
    await a.getByTestId('hook').getByRole('button', { name: 'Cancel' }).waitFor();
    await row.getByRole('button', { name: 'Join' }).click();
    await bothOnBoard([a, b], '02:00');
  });

  it('shows a challenge link opened in another browser (a phone) who challenges and with what; accepted, both go to the game', async () => {
    const a = await guestAt('/chess/multiplayer');
    await chooseTimeControl(a, '5', '3');
    await a.getByRole('radiogroup', { name: 'Your colour' }).getByLabel('Black').check();
    await a.getByTestId('create-challenge').click();
    await a.waitForURL(/\/challenge\//);
    const link = await a.getByTestId('challenge-link').inputValue();
    expect(link).toMatch(/\/challenge\/[\w-]+$/);
    await a.getByText('Waiting for your opponent to accept...').waitFor();
    await a.screenshot({ path: join(SCREENSHOT_DIR, 'challenge-desktop.png') });

    const b = await guestAt(new URL(link).pathname, 'mobile');
    await b.getByTestId('accept-challenge').waitFor();
    expect(await b.getByRole('heading', { level: 1 }).textContent()).toMatch(/challenges you$/);
    expect(await b.getByTestId('challenge-game').textContent()).toBe('5+3 Blitz · Casual');
    await b.getByText('You play white').waitFor();
    await b.screenshot({ path: join(SCREENSHOT_DIR, 'challenge-accept-mobile.png') });
    await b.getByTestId('accept-challenge').click();
    await bothOnBoard([a, b], '05:00');
  });
});
