/**
 * A challenge from a profile in real Chromium, between two signed-in players (the real accounts
 * module on PGlite): one opens the other's profile and sends a challenge, and waits on its page;
 * the other, on another page of the site, gets the notice of it and accepts there; both go to
 * the game on its clock.
 */
import { describe, expect, it } from 'vitest';
import { signedInAt, useSite } from './siteSession';

useSite({}, { inProcess: true });

describe('a challenge from a profile', () => {
  it('reaches the player on another page as a notice; accepted there, both go to the game', async () => {
    const ben = await signedInAt('notice_ben', '/leaderboard');
    const ann = await signedInAt('notice_ann', '/@/notice_ben');
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
  }, 90_000);
});
