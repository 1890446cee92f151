/**
 * Takebacks and chat in real Chromium against the built site: two guests (a casual game, so
 * takebacks are on) play; one proposes a takeback, the other accepts, and both boards and move
 * lists go back. A spectator's line reaches the spectator room and never the players while they
 * play, and the players' lines never the spectator; markup in a line is shown as text. The
 * players' chat is the README's screenshot.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pieceOn } from './harness';
import { newPage, play, shoot, startMultiplayer, useSite, waitTurn } from './siteSession';

useSite();

const chatLines = (page: Page, room: 'player' | 'spectator') => page.getByTestId(`chat-${room}`).getByTestId('chat-lines');

async function say(page: Page, room: 'player' | 'spectator', text: string): Promise<void> {
  const chat = page.getByTestId(`chat-${room}`);
  await chat.getByTestId('chat-input').fill(text);
  await chat.getByRole('button', { name: 'Send' }).click();
  await chatLines(page, room).getByText(text, { exact: true }).waitFor();
}

describe('takebacks', () => {
  it('a proposal accepted takes the move back on both boards and move lists', async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    await play(pages, 'e2e4', 'e7e5', 'g1f3');
    // white moved last: its proposal takes back one ply, Nf3
    await white.getByRole('button', { name: 'Takeback', exact: true }).click();
    await black.getByTestId('takeback-received').waitFor();
    await black.getByRole('button', { name: 'Accept Takeback' }).click();
    for (const page of [white, black]) {
      await expect.poll(() => pieceOn(page, 'f3')).toBeNull();
      // the knight slides back: it is on no square until the animation ends
      await expect.poll(() => pieceOn(page, 'g1')).toBe('white knight');
      await expect.poll(async () => page.getByTestId('move-list').textContent()).not.toContain('Nf3');
      expect(await page.getByTestId('move-list').textContent()).toContain('e5');
    }
    // white is to move again, and plays on
    await waitTurn(white);
    await play({ white, black }, 'b1c3');
    await expect.poll(() => pieceOn(black, 'c3')).toBe('white knight');
  }, 90_000);
});

describe('chat', () => {
  it("a spectator's line stays in the spectator room; the players' lines stay theirs; markup is text", async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    await play(pages, 'd2d4', 'd7d5');
    const gameUrl = white.url();
    const spectator = await newPage();
    await spectator.goto(gameUrl);
    await spectator.getByTestId('live-game').waitFor();

    await say(spectator, 'spectator', 'Who will win? <b>bold</b>');
    // shown as the characters typed, no element made of them
    expect(await chatLines(spectator, 'spectator').locator('b').count()).toBe(0);

    await say(white, 'player', 'Good luck!');
    await chatLines(black, 'player').getByText('Good luck!', { exact: true }).waitFor();
    await say(black, 'player', 'You too <i>friend</i>');
    await chatLines(white, 'player').getByText('You too <i>friend</i>', { exact: true }).waitFor();
    // the players' lines came after the spectator's: had it reached them, it would be there by now
    for (const page of [white, black]) {
      expect(await page.getByTestId('chat-spectator').count()).toBe(0);
      expect(await chatLines(page, 'player').textContent()).not.toContain('Who will win?');
      expect(await chatLines(page, 'player').locator('i').count()).toBe(0);
    }
    await play(pages, 'c2c4');
    await expect.poll(() => pieceOn(spectator, 'c4')).toBe('white pawn');
    expect(await chatLines(spectator, 'spectator').textContent()).not.toContain('Good luck!');

    // the opponent muted: their lines are hidden, one's own stay; and the chat folds away
    await white.getByRole('button', { name: 'Mute opponent' }).click();
    expect(await chatLines(white, 'player').textContent()).not.toContain('You too');
    expect(await chatLines(white, 'player').textContent()).toContain('Good luck!');
    await white.getByRole('button', { name: 'Unmute opponent' }).click();
    await shoot(black, 'game-chat');
    await black.getByRole('button', { name: 'Hide chat' }).click();
    expect(await black.getByTestId('chat-lines').count()).toBe(0);
    await black.getByRole('button', { name: 'Show chat' }).click();
    expect(await chatLines(black, 'player').textContent()).toContain('Good luck!');
  }, 90_000);
});
