/**
 * Games on the site end to end in real Chromium against the real built server, with the real AI
 * and real sockets: rejoining, promotion, draw offers and rematches, a whole game to mate with
 * the stats it leaves, the board tools, a game against the AI, and low time. The rest of the site
 * is in site.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Page, WebSocketRoute } from 'playwright-core';
import { LOW_TIME_ANNOUNCEMENT } from '../../machines/client/speech';
import { REJECTION } from '../../machines/game/reasons';
import { clickMove, dragMove, pieceOn } from './harness';
import { colorOf, enterAsGuest, newPage, play, resign, shoot, site, soundsOf, startMultiplayer, useOwnSite, useSite, waitTurn } from './siteSession';

useSite();

describe('multiplayer', () => {
  it('reload and Back/Forward rejoin at once; an older tab says the game goes on elsewhere; a move made offline is taken back; the disconnect notice counts down on their turn only', async () => {
    const pages = await startMultiplayer({ clock: true });
    const { white, black } = pages;
    // Black's socket goes through a route the test can cut: while `down`, reconnects are refused
    const routes: { page: WebSocketRoute; server: WebSocketRoute | null }[] = [];
    let down = false;
    await black.routeWebSocket(/\/socket/, (ws) => {
      if (down) {
        routes.push({ page: ws, server: null });
        void ws.close({ code: 1011, reason: 'test: network down' });
      } else routes.push({ page: ws, server: ws.connectToServer() });
    });
    await play(pages, 'e2e4', 'c7c5');
    await waitTurn(white);

    // a reload lands straight back in the game, same position, no question asked
    await black.reload({ waitUntil: 'domcontentloaded' });
    await black.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    expect(await colorOf(black)).toBe('black');
    await expect.poll(() => pieceOn(black, 'e4')).toBe('white pawn');
    expect(await pieceOn(black, 'c5')).toBe('black pawn');
    await waitTurn(black, false);
    expect(await black.getByText('You have an active game').count()).toBe(0);
    await shoot(black, 'multiplayer-rejoin');

    // away to the home page and Back: the same
    await black.goto(site().url);
    await black.goBack();
    await black.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => pieceOn(black, 'c5')).toBe('black pawn');

    // Black's network goes down on White's turn: as on the server, Black's grace waits for Black's turn
    down = true;
    const live = routes[routes.length - 1];
    await live.server?.close();
    await live.page.close();
    const away = white.getByTestId('opponent-away');
    await away.filter({ hasText: 'Your opponent disconnected. Their 40 s to come back start when it is their turn.' }).waitFor({ timeout: 15_000 });
    await white.clock.fastForward(10_000);
    expect(await away.textContent()).toBe('Your opponent disconnected. Their 40 s to come back start when it is their turn.');
    // White moves: now it counts down, second by second, from the grace the server gave
    await clickMove(white, 'g1', 'f3');
    await waitTurn(white, false);
    const counting = /They have (\d+) s to come back before you win/;
    const secondsLeft = async () => Number(counting.exec((await away.textContent()) ?? '')?.[1]);
    await away.filter({ hasText: counting }).waitFor();
    const first = await secondsLeft();
    expect(first).toBeGreaterThan(35);
    await white.clock.fastForward(5_000);
    await expect.poll(secondsLeft).toBeLessThanOrEqual(first - 5);
    // a move made while the socket is down is refused on the board, never shown as played
    await black.getByText('Connection lost. Reconnecting... moves are paused.').waitFor({ timeout: 15_000 });
    await clickMove(black, 'b8', 'c6');
    expect(await pieceOn(black, 'b8')).toBe('black knight');
    expect(await pieceOn(black, 'c6')).toBeNull();
    // back online: Black rejoins, sees White's move and plays
    down = false;
    await waitTurn(black);
    await expect.poll(() => pieceOn(black, 'f3')).toBe('white knight');
    await white.getByTestId('opponent-away').waitFor({ state: 'detached', timeout: 15_000 });
    await clickMove(black, 'b8', 'c6');
    await waitTurn(white);
    await expect.poll(() => pieceOn(white, 'c6')).toBe('black knight');

    // a second tab of the same guest takes the seat: the first says where the game went
    const second = await white.context().newPage();
    await second.goto(`${site().url}/chess/multiplayer`);
    await second.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    await white.getByTestId('seat-taken').filter({ hasText: 'This game continues in another tab.' }).waitFor({ timeout: 15_000 });
    expect(await white.getByRole('button', { name: 'Resign' }).isDisabled()).toBe(true);
    await resign(second);
    await black.getByRole('dialog').getByRole('heading', { name: 'Victory!' }).waitFor();
    await black.getByRole('dialog').getByText('(Reason: Resignation)').waitFor();
  }, 120_000);

  it('promotion opens "Choose promotion piece:" and the chosen piece (a knight) reaches both boards; draw offer and decline', async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    await play(pages, 'e2e4', 'd7d5', 'e4d5', 'c7c6', 'd5c6', 'g8f6', 'c6b7', 'b8d7');
    await waitTurn(white);

    // draw offer: the offerer waits, the other side can accept or decline
    await white.getByRole('button', { name: 'Offer Draw' }).click();
    await white.getByText('Draw offered. Waiting for opponent...').waitFor();
    await black.getByText('Your opponent offered a draw.').waitFor();
    await black.getByRole('button', { name: 'Decline' }).click();
    await white.getByText('Draw offer declined').waitFor();
    // the game core's rule, on the page: no second offer within 20 plies
    const offer = white.getByRole('button', { name: 'Offer Draw' });
    expect(await offer.isDisabled()).toBe(true);
    expect(await offer.getAttribute('title')).toBe(REJECTION.drawTooOften);

    await clickMove(white, 'b7', 'a8');
    const dialog = white.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Choose promotion piece:' }).waitFor();
    for (const name of ['Queen', 'Rook', 'Knight', 'Bishop']) await dialog.getByRole('button', { name }).waitFor();
    await shoot(white, 'promotion');
    await dialog.getByRole('button', { name: 'Knight' }).click();
    await expect.poll(() => pieceOn(white, 'a8')).toBe('white knight');
    await expect.poll(() => pieceOn(black, 'a8')).toBe('white knight');
    await waitTurn(black);
    // resigning asks first
    await white.getByRole('button', { name: 'Resign' }).click();
    await white.getByRole('button', { name: 'Keep Playing' }).click();
    expect(await white.getByRole('button', { name: 'Confirm Resign' }).count()).toBe(0);
    await resign(white);
    await black.getByRole('dialog').getByRole('heading', { name: 'Victory!' }).waitFor();
    // a rematch: offered by one, accepted by the other, colours swapped
    await black.getByRole('dialog').getByRole('button', { name: 'Rematch' }).click();
    await black.getByRole('dialog').getByRole('button', { name: 'Rematch offered...' }).waitFor();
    await white.getByRole('dialog').getByText('Your opponent wants a rematch.').waitFor();
    await white.getByRole('dialog').getByRole('button', { name: 'Accept Rematch' }).click();
    await expect.poll(() => black.getByTestId('board').getAttribute('data-orientation')).toBe('white');
    await expect.poll(() => white.getByTestId('board').getAttribute('data-orientation')).toBe('black');
    await waitTurn(black);
    expect(await black.getByRole('dialog').count()).toBe(0);
    await black.getByRole('button', { name: 'Abort' }).click();
    await white.getByRole('dialog').getByRole('heading', { name: 'Game Aborted' }).waitFor();
  }, 90_000);

  it("fool's mate by clicking, dragging and typing; the end dialog closes onto the final position; the move list steps back; stats show it", async () => {
    const a = await newPage();
    const b = await newPage();
    await enterAsGuest(a, '/chess/multiplayer');
    await enterAsGuest(b, '/chess/multiplayer');
    await a.getByRole('heading', { name: 'Multiplayer Chess' }).waitFor();
    await a.getByRole('button', { name: 'Find Match' }).click();
    await a.getByText('Finding opponent...').waitFor();
    await shoot(a, 'multiplayer-searching');
    await b.getByRole('button', { name: 'Find Match' }).click();
    await a.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    await b.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    const colorA = await colorOf(a);
    const colorB = await colorOf(b);
    expect(new Set([colorA, colorB])).toEqual(new Set(['white', 'black']));
    const white = colorA === 'white' ? a : b;
    const black = colorA === 'white' ? b : a;

    await waitTurn(white);
    await waitTurn(black, false);
    expect(await white.getByTestId('clock-white').innerText()).toMatch(/10:00/);
    // the tab's title says whose turn it is
    expect(await white.title()).toMatch(/^Your turn/);
    expect(await black.title()).not.toMatch(/Your turn/);

    await clickMove(white, 'f2', 'f3');
    await waitTurn(black);
    await expect.poll(() => pieceOn(black, 'f3')).toBe('white pawn');
    await dragMove(black, 'e7', 'e5');
    await waitTurn(white);
    await expect.poll(() => pieceOn(white, 'e5')).toBe('black pawn');
    // the board's keyboard alternative: an illegal move is refused in words, a legal one is played
    const typed = white.getByLabel('Type your move');
    await typed.fill('g5');
    await typed.press('Enter');
    await white.getByText('"g5" is not a legal move here.').waitFor();
    expect(await pieceOn(white, 'g2')).toBe('white pawn');
    await typed.fill('g4');
    await typed.press('Enter');
    await waitTurn(black);
    await expect.poll(() => pieceOn(black, 'g4')).toBe('white pawn');
    expect(await typed.inputValue()).toBe('');
    await shoot(black, 'multiplayer-game');
    await clickMove(black, 'd8', 'h4');

    for (const [page, title] of [[black, 'Victory!'], [white, 'Defeat!']] as const) {
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: title }).waitFor({ timeout: 15_000 });
      await dialog.getByText('(Reason: Checkmate)').waitFor();
      await dialog.getByRole('button', { name: 'Play Again' }).waitFor();
    }
    // the end dialog keeps the keyboard inside it: Tab and Shift+Tab cycle through its buttons
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await white.keyboard.press(key);
      expect(await white.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await shoot(white, 'multiplayer-end');
    // closed, it leaves the final position in view with one status line
    await white.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    expect(await white.getByRole('dialog').count()).toBe(0);
    await white.getByTestId('status-banner').filter({ hasText: 'Checkmate! Black wins.' }).waitFor();
    expect(await white.getByTestId('status-banner').count()).toBe(1);
    expect(await pieceOn(white, 'h4')).toBe('black queen');
    // the move list in SAN; clicking a move and the arrow keys look back without changing the game
    expect(await white.getByTestId('move-list').innerText()).toMatch(/1\.\s*f3\s*e5\s*2\.\s*g4\s*Qh4#/);
    await white.getByTestId('move-list').getByRole('button', { name: 'e5' }).click();
    await expect.poll(() => pieceOn(white, 'g4')).toBeNull();
    // the pawn slides back from g4 over the board's 300 ms animation
    await expect.poll(() => pieceOn(white, 'g2')).toBe('white pawn');
    expect(await pieceOn(white, 'e5')).toBe('black pawn');
    await white.keyboard.press('ArrowLeft');
    await expect.poll(() => pieceOn(white, 'e7')).toBe('black pawn');
    await white.keyboard.press('ArrowRight');
    await white.keyboard.press('ArrowRight');
    await expect.poll(() => pieceOn(white, 'g4')).toBe('white pawn');
    expect(await pieceOn(white, 'd8')).toBe('black queen');
    await white.keyboard.press('End');
    await expect.poll(() => pieceOn(white, 'h4')).toBe('black queen');
    await white.getByRole('button', { name: 'Main Menu' }).click();
    await white.waitForURL(`${site().url}/`);

    for (const [page, tile] of [[black, 'stat-wins'], [white, 'stat-losses']] as const) {
      if (page === black) {
        await page.getByRole('dialog').getByRole('button', { name: 'Main Menu' }).click();
        await page.waitForURL(`${site().url}/`);
      }
      await page.getByRole('link', { name: 'Your Stats' }).click();
      await expect.poll(() => page.getByTestId(tile).textContent()).toBe('1');
      expect(await page.getByTestId('stat-total').textContent()).toBe('1');
      await page.getByRole('cell', { name: 'Checkmate' }).waitFor();
    }
    expect(await black.getByTestId('win-rate').textContent()).toBe('100.0%');
    expect(await white.getByTestId('win-rate').textContent()).toBe('0.0%');
    await shoot(black, 'stats');

    // clearing asks with the exact text, then shows the empty state
    const asked: string[] = [];
    white.once('dialog', (d) => { asked.push(d.message()); void d.accept(); });
    await white.getByRole('button', { name: 'Clear History' }).click();
    await white.getByText('No games played yet. Start playing to build your history!').waitFor();
    expect(asked).toEqual(['Are you sure you want to clear your entire game history? This action cannot be undone.']);
    expect(await white.getByTestId('stat-total').textContent()).toBe('0');
    expect(await white.getByTestId('win-rate').textContent()).toBe('0.0%');  }, 90_000);
});

describe('board tools', () => {
  it('castling by putting the king on its rook, a premove played on the reply, flip, copy FEN, PGN, themes and sound remembered', async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    await white.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site().url });
    await play(pages, 'e2e4', 'e7e5', 'g1f3', 'b8c6');
    // a premove: Black queues Nf6 while White thinks; it is played the moment White has moved
    await waitTurn(white);
    await clickMove(black, 'g8', 'f6');
    expect(await pieceOn(white, 'g8')).toBe('black knight');
    await clickMove(white, 'f1', 'c4');
    await expect.poll(() => pieceOn(white, 'f6')).toBe('black knight');
    // White castles by putting the king on its own rook, as lichess allows
    await waitTurn(white);
    await clickMove(white, 'e1', 'h1');
    await expect.poll(() => pieceOn(white, 'g1')).toBe('white king');
    expect(await pieceOn(white, 'f1')).toBe('white rook');
    await waitTurn(black);
    await expect.poll(() => pieceOn(black, 'g1')).toBe('white king');
    await clickMove(black, 'f8', 'c5');
    await waitTurn(white);
    // a premove cancelled by a right click on the board is not played
    await clickMove(black, 'd7', 'd6');
    const box = await black.getByTestId('board').boundingBox();
    await black.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2, { button: 'right' });
    await clickMove(white, 'd2', 'd3');
    await waitTurn(black);
    await expect.poll(() => pieceOn(black, 'd3')).toBe('white pawn');
    expect(await pieceOn(black, 'd7')).toBe('black pawn');
    // the game's sounds: its start, and a sound for each move
    const heard = await soundsOf(white);
    expect(heard[0]).toBe('start.wav');
    expect(heard.filter((s) => s === 'move.wav').length).toBeGreaterThanOrEqual(8);

    // flip, copy FEN, download PGN
    await white.getByText('Board tools').click();
    await white.getByRole('button', { name: 'Flip board' }).click();
    expect(await white.getByTestId('board').getAttribute('data-orientation')).toBe('black');
    expect(await white.getByTestId('top-player').getByTestId('my-name').count()).toBe(1);
    await white.getByRole('button', { name: 'Copy FEN' }).click();
    await white.getByText('FEN copied').waitFor();
    expect(await white.evaluate(() => navigator.clipboard.readText())).toMatch(/^r1bqk2r\/pppp1ppp\/2n2n2\/2b1p3\/2B1P3\/3P1N2\/PPP2PPP\/RNBQ1RK1 b kq - 0 5$/);
    const download = white.waitForEvent('download');
    await white.getByRole('button', { name: 'Download PGN' }).click();
    const file = await download;
    const pgn = await (await import('node:fs/promises')).readFile((await file.path())!, 'utf8');
    expect(pgn).toMatch(/1\. e4 e5 2\. Nf3 Nc6 3\. Bc4 Nf6 4\. O-O Bc5 5\. d3 \*/);

    // themes and sound are remembered on this device
    await white.getByRole('combobox', { name: 'Board colours' }).selectOption('blue');
    await white.getByRole('combobox', { name: 'Piece set' }).selectOption('glyph');
    await white.getByRole('button', { name: 'Sound on' }).click();
    await white.getByRole('button', { name: 'Sound off' }).waitFor();
    await shoot(white, 'board-tools');
    await white.reload();
    await white.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    expect(await white.evaluate(() => [document.documentElement.dataset.board, document.documentElement.dataset.pieces])).toEqual(['blue', 'glyph']);
    await white.getByRole('button', { name: 'Sound off' }).waitFor();
    expect(await white.locator('cg-board').evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('conic-gradient');
    await resign(black);
    await white.getByRole('dialog').getByRole('heading', { name: 'Victory!' }).waitFor();
    // muted: the end of the game made no sound here; the opponent, not muted, heard it
    expect(await soundsOf(white)).toEqual([]);
    await expect.poll(() => soundsOf(black)).toContain('end.wav');
  }, 120_000);
});

describe('AI', () => {
  it('a level-1 game as black: the AI opens, the player answers; a reload lands back in it; leaving asks and resigns; a new game starts', async () => {
    const page = await newPage();
    await enterAsGuest(page, '/chess/ai');
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
    await page.getByRole('button', { name: /Beginner/ }).click();
    expect(await page.getByTestId('ai-level').textContent()).toBe('Level 1');
    await page.getByRole('button', { name: /Black/ }).click();
    await shoot(page, 'ai-setup');
    await page.getByRole('button', { name: 'Start Game' }).click();
    expect(await colorOf(page)).toBe('black');
    await page.getByRole('heading', { name: /^AI Game vs / }).waitFor();
    const moves = page.getByTestId('move-list').getByRole('button');
    await waitTurn(page);
    await expect.poll(() => moves.count(), { timeout: 30_000 }).toBe(1);
    await clickMove(page, 'e7', 'e6');
    await expect.poll(() => moves.count(), { timeout: 30_000 }).toBe(3);
    await waitTurn(page);
    await shoot(page, 'ai-game');

    // a reload lands back in the running game
    await page.reload();
    await page.getByRole('heading', { name: /^AI Game vs / }).waitFor({ timeout: 15_000 });
    await expect.poll(() => moves.count()).toBe(3);
    expect(await pieceOn(page, 'e6')).toBe('black pawn');
    // leaving through the app asks, then resigns
    await page.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Keep Playing' }).click();
    await page.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resign and Leave' }).click();
    await page.waitForURL(`${site().url}/`);
    // and a new game starts at once
    await page.goto(`${site().url}/chess/ai`);
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
    await page.getByRole('button', { name: 'Start Game' }).click();
    await page.getByRole('heading', { name: /^AI Game vs / }).waitFor();
    await waitTurn(page);
    // both sides move first: before that a resignation aborts the game, as in every game
    await clickMove(page, 'e2', 'e4');
    await expect.poll(() => moves.count(), { timeout: 30_000 }).toBe(2);
    await waitTurn(page);
    await resign(page);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Defeat!' }).waitFor();
    await dialog.getByText('(Reason: Resignation)').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('status-banner').filter({ hasText: 'Game over' }).waitFor();
    expect(await page.getByTestId('status-banner').count()).toBe(1);
    await page.getByRole('button', { name: 'Play Again' }).click();
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
  }, 120_000);
});

describe('low time', () => {
  // A site of its own whose clocks start at 10 s, so a running clock is under ten seconds at once.
  useOwnSite({ CLOCK_SECONDS: '10' });

  it('shows tenths under ten seconds, counts them down and plays the low-time sound once, to its player only', async () => {
    const pages = await startMultiplayer();
    await play(pages, 'e2e4', 'e7e5');
    // White's clock runs from ply 2: 10 s, so it reads with tenths and keeps moving
    const clock = pages.white.getByTestId('clock-white');
    await expect.poll(() => clock.innerText()).toMatch(/^00:0\d\.\d$/);
    const first = await clock.innerText();
    await expect.poll(() => clock.innerText()).not.toBe(first);
    expect(await clock.getAttribute('class')).toContain('clock-low');
    await expect.poll(async () => (await soundsOf(pages.white)).filter((s) => s === 'lowtime.wav').length).toBe(1);
    expect(await soundsOf(pages.black)).not.toContain('lowtime.wav');
    // a screen reader hears it once too, from the same moment: the player's only
    const heard = (page: Page) => page.getByRole('log', { name: 'Game announcements' }).locator('p').allTextContents();
    expect((await heard(pages.white)).filter((line) => line === LOW_TIME_ANNOUNCEMENT)).toHaveLength(1);
    expect(await heard(pages.black)).not.toContain(LOW_TIME_ANNOUNCEMENT);
  });
});
