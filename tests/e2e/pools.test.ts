/**
 * The multiplayer screen's pools in real Chromium: the screen opens on lichess's eleven time
 * controls with 10+0 chosen; two players who pick the 3+2 tile are paired in a 3-minute game
 * whose clocks both read 03:00, while a player in the 10+0 pool is not paired with them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './harness';
import { guestAt, useSite } from './siteSession';

useSite({ AI_ENABLED: '0' });

async function guestOnMultiplayer(): Promise<Page> {
  const page = await guestAt('/chess/multiplayer');
  await page.getByRole('group', { name: 'Time controls' }).waitFor();
  return page;
}

describe('pools', () => {
  it('opens on the eleven pools, 10+0 chosen, and pairs two players who pick 3+2 in a 3-minute game', async () => {
    const [a, b, c] = [await guestOnMultiplayer(), await guestOnMultiplayer(), await guestOnMultiplayer()];
    const tiles = a.getByRole('group', { name: 'Time controls' }).getByRole('button');
    expect(await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-pool')))).toEqual(
      ['10+0', '1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+5', '15+10', '30+0', '30+20'],
    );
    expect(await a.locator('[data-pool="10+0"]').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => a.getByText('Play a 10-minute chess game against another player.').count()).toBe(1);
    await a.screenshot({ path: join(SCREENSHOT_DIR, 'pools-desktop.png') });

    // a 10+0 search waits beside them and is not paired with a 3+2 player
    await c.getByRole('button', { name: 'Find Match' }).click();
    await c.getByText('Finding opponent...').waitFor();
    await a.locator('[data-pool="3+2"]').click();
    await a.getByText('Finding opponent...').waitFor();
    await b.locator('[data-pool="3+2"]').click();
    for (const page of [a, b]) {
      await page.getByTestId('board').waitFor();
      await expect.poll(() => page.getByTestId('clock-white').textContent()).toBe('03:00');
      expect(await page.getByTestId('clock-black').textContent()).toBe('03:00');
    }
    expect(await c.getByText('Finding opponent...').count()).toBe(1);
  });
});
