/**
 * Local Play in real Chromium: two people at one device play fool's mate by clicking squares on
 * one board that turns to the side to move; the end dialog gives the result; the game never
 * sends a WebSocket frame; the result is kept in the device's local games (after a reload too)
 * and not in the player's own stats.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, clickMove, pieceOn } from './harness';
import { enterAsGuest, newPage, site, useSite } from './siteSession';

useSite({ AI_ENABLED: '0' });

const orientation = (page: Page) => page.getByTestId('board').getAttribute('data-orientation');

/** Plays `uci` by clicking its squares, then waits for the board to turn to the side to move. */
async function play(page: Page, uci: string, next: 'white' | 'black'): Promise<void> {
  await clickMove(page, uci.slice(0, 2), uci.slice(2, 4));
  await expect.poll(() => orientation(page)).toBe(next);
}

describe('local play', () => {
  it('plays fool\'s mate on one flipping board, shows the result, sends nothing and keeps the game on the device', async () => {
    const page = await newPage();
    const sent: string[] = [];
    let sockets = 0;
    page.on('websocket', (ws) => {
      sockets += 1;
      ws.on('framesent', (f) => sent.push(String(f.payload)));
    });
    await enterAsGuest(page, '/chess');
    await page.getByRole('heading', { name: 'Game Modes' }).waitFor();
    // the socket is up (and watched) before the local game's frames are counted
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/Players? Online/);
    expect(sockets).toBe(1);
    const before = sent.length;

    await page.getByRole('link', { name: /Local Play/ }).click();
    await page.getByRole('heading', { name: 'Local Play' }).waitFor();
    expect(await page.locator('[data-pool="10+0"]').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('checkbox', { name: /Flip the board after each move/ }).isChecked()).toBe(true);
    await page.getByText('No local games yet.').waitFor();
    await page.getByRole('button', { name: 'Start Game' }).click();

    await page.getByTestId('board').waitFor();
    expect(await orientation(page)).toBe('white');
    expect(await page.getByTestId('clock-white').textContent()).toBe('10:00');
    expect(await page.getByTestId('clock-black').textContent()).toBe('10:00');
    await play(page, 'f2f3', 'black');
    expect(await pieceOn(page, 'f3')).toBe('white pawn');
    // the manual Flip turns the board back; the next move turns it to the side to move again
    await page.getByRole('button', { name: 'Flip', exact: true }).click();
    await expect.poll(() => orientation(page)).toBe('white');
    await page.getByRole('button', { name: 'Flip', exact: true }).click();
    await expect.poll(() => orientation(page)).toBe('black');
    await play(page, 'e7e5', 'white');
    await play(page, 'g2g4', 'black');
    await expect.poll(() => page.getByTestId('status-banner').textContent()).toBe("Black's turn.");
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'local-play-desktop.png') });
    await clickMove(page, 'd8', 'h4');

    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Black Wins!' }).waitFor();
    expect(await dialog.getByTestId('end-result').textContent()).toBe('0-1');
    await dialog.getByText('(Reason: Checkmate)').waitFor();
    expect(await page.getByTestId('status-banner').textContent()).toBe('Checkmate! Black wins.');

    await dialog.getByRole('button', { name: 'New Game' }).click();
    const row = page.getByTestId('local-games').locator('tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual([expect.any(String), '10+0', '0-1', 'Checkmate', '2']);
    expect(sent.slice(before)).toEqual([]);

    // kept on the device, and not one of the player's online results
    await page.reload();
    await expect.poll(() => page.getByTestId('local-games').locator('tbody tr').count()).toBe(1);
    await page.goto(`${site().url}/chess/stats`);
    await page.getByText('No games played yet. Start playing to build your history!').waitFor();
  });
});
