/**
 * The game screen as a player sees and hears it, in real Chromium against the built site: the
 * home page pointing back to a running game, the clocks before and after they start, the resign
 * question in its row, the glyph pieces on the blue board, and what a screen reader or a
 * keyboard gets (the accessibility tree, the live region, the focus).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pieceOn, squareCenter, VIEWPORTS } from './harness';
import { enterAsGuest, newPage, play, resign, site, startMultiplayer, useSite, waitTurn } from './siteSession';

useSite();

/** The share of a square's pixels, as drawn, that are near black (a piece's outline). */
async function darkShare(page: Page, square: string): Promise<number> {
  const c = await squareCenter(page, square);
  const box = await page.getByTestId('board').boundingBox();
  const size = (box?.width ?? 0) / 8;
  const png = await page.screenshot({ clip: { x: c.x - size / 2, y: c.y - size / 2, width: size, height: size } });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const g = canvas.getContext('2d');
    if (!g) return 0;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < d.length; i += 4) if (0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2] < 60) dark++;
    return dark / (d.length / 4);
  }, png.toString('base64'));
}

/** The heights and places that move when the action row wraps. */
async function actionRow(page: Page) {
  const actions = await page.locator('.play-actions').boundingBox();
  const moves = await page.locator('.play-movelist').boundingBox();
  return { height: Math.round(actions?.height ?? -1), movesTop: Math.round(moves?.y ?? -1) };
}

describe('home', () => {
  it('says a game is in progress and links back to it, multiplayer or against the AI', async () => {
    const pages = await startMultiplayer();
    await play(pages, 'e2e4');
    const { white } = pages;
    await white.goto(site().url);
    const note = white.getByTestId('game-in-progress');
    await note.filter({ hasText: 'You have a game in progress.' }).waitFor({ timeout: 15_000 });
    await note.getByRole('link', { name: 'Back to your game' }).click();
    await white.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => pieceOn(white, 'e4')).toBe('white pawn');

    const solo = await newPage();
    await enterAsGuest(solo, '/chess/ai');
    await solo.getByRole('button', { name: 'Start Game' }).click();
    await solo.getByTestId('board').waitFor();
    await solo.goto(site().url);
    await solo.getByTestId('game-in-progress').getByRole('link', { name: 'Back to your game' }).click({ timeout: 15_000 });
    await solo.getByRole('button', { name: 'Leave' }).waitFor({ timeout: 15_000 });
  }, 90_000);
});

describe('the game screen', () => {
  it('focus, labelled clocks, spoken moves and result; no clock lit before the clocks run; the resign question keeps its row; glyph pieces on blue are outlined', async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    // the game starts with the focus in the move field, and no clock lit: none runs yet
    for (const page of [white, black]) {
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('keyboard-move-input');
      expect(await page.locator('.clock-active').count()).toBe(0);
    }
    // the accessibility tree: both clocks are timers with their side and time
    const tree = await white.getByTestId('play').ariaSnapshot();
    expect(tree).toContain('timer "White clock: 10 minutes"');
    expect(tree).toContain('timer "Black clock: 10 minutes"');
    expect(tree).toContain('log "Game announcements"');
    // the online count is no live region (a screen reader would read each change)
    expect(await white.getByTestId('player-count').getAttribute('aria-live')).toBeNull();

    // moves typed without a mouse; each side hears the other's move in words, not its own
    await white.keyboard.type('e4');
    await white.keyboard.press('Enter');
    // the live region's lines, the latest last
    const heard = (page: Page) => page.getByRole('log', { name: 'Game announcements' }).locator('p').allTextContents();
    await expect.poll(() => heard(black)).toEqual(['White: e4.']);
    await waitTurn(black);
    await black.keyboard.type('Nf6');
    await black.keyboard.press('Enter');
    await expect.poll(() => heard(white)).toEqual(['Black: knight f6.']);
    expect(await heard(black)).toEqual(['White: e4.']);
    // the clocks run from here: White's is lit, Black's is not
    await expect.poll(() => white.getByTestId('clock-white').getAttribute('class')).toContain('clock-active');
    expect(await white.getByTestId('clock-black').getAttribute('class')).not.toContain('clock-active');

    // the resign question takes the room of the button: the row keeps its height, the move list stays
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.mobile]) {
      await white.setViewportSize(viewport);
      const before = await actionRow(white);
      await white.getByRole('button', { name: 'Resign' }).click();
      await white.getByRole('button', { name: 'Confirm Resign' }).waitFor();
      expect(await actionRow(white)).toEqual(before);
      await white.getByRole('button', { name: 'Keep Playing' }).click();
    }
    await white.setViewportSize(VIEWPORTS.desktop);

    // glyph white pieces keep a solid outline on the light squares of the blue board
    await white.getByText('Board tools').click();
    await white.getByRole('combobox', { name: 'Board colours' }).selectOption('blue');
    await white.getByRole('combobox', { name: 'Piece set' }).selectOption('glyph');
    const share = await darkShare(white, 'd1');
    // about a tenth of the square is outline; the blurred shadow before it left none this dark
    expect(share).toBeGreaterThan(0.04);

    // the result is spoken too
    await resign(white);
    await expect.poll(async () => (await heard(black)).at(-1)).toBe('Game over: Victory! (Resignation)');
  }, 90_000);
});

describe('giving time', () => {
  it('the "+" by the opponent’s clock gives them 15 seconds: both clocks show it, the receiver is told', async () => {
    const { white, black } = await startMultiplayer();
    // one "+", by the opponent's clock (the top bar), none by one's own
    for (const page of [white, black]) {
      await page.getByTestId('top-player').getByRole('button', { name: 'Give 15 seconds' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('button', { name: 'Give 15 seconds' }).count()).toBe(1);
    }
    await white.getByRole('button', { name: 'Give 15 seconds' }).click();
    await black.getByTestId('game-notice').filter({ hasText: 'Your opponent gave you 15 seconds.' }).waitFor({ timeout: 15_000 });
    await white.getByTestId('game-notice').filter({ hasText: 'You gave your opponent 15 seconds.' }).waitFor({ timeout: 15_000 });
    // no clock runs before both sides have moved: the given time shows as it is
    for (const page of [white, black]) {
      await expect.poll(() => page.getByTestId('clock-black').getAttribute('aria-label')).toBe('Black clock: 10 minutes 15 seconds');
      expect(await page.getByTestId('clock-white').getAttribute('aria-label')).toBe('White clock: 10 minutes');
    }
  }, 90_000);
});
