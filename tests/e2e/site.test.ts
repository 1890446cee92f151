/**
 * The site end to end in real Chromium against the real built server
 * (`node dist/server/main.js`, as `npm start` runs it), with real accounts,
 * the real AI and real sockets.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import {
  build, clickMove, ConsoleGuard, dragMove, launch, pieceOn, SCREENSHOT_DIR, startSite, VIEWPORTS, waitForMail, type RunningSite,
} from './harness';

let site: RunningSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
const consoleGuard = new ConsoleGuard();

/** Records the file name of every sound the page plays, in window.__sounds (as source text, see below). */
const RECORD_SOUNDS = `
(() => {
  const log = [];
  window.__sounds = log;
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () { log.push(this.src.split('/').pop()); return play.call(this); };
})();
`;

async function newContext(): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: VIEWPORTS.desktop });
  contexts.push(ctx);
  consoleGuard.watch(ctx);
  await ctx.addInitScript({ content: RECORD_SOUNDS });
  return ctx;
}

const soundsOf = (page: Page) => page.evaluate('window.__sounds') as Promise<string[]>;

async function newPage(): Promise<Page> {
  return (await newContext()).newPage();
}

// a console error or warning during a flow fails the test that caused it; a failed test leaves
// what each open page showed and the server's last log lines in the output
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await reportPages();
  expect(consoleGuard.take()).toEqual([]);
});

async function reportPages(): Promise<void> {
  const pages = contexts.flatMap((c) => c.pages()).slice(-4);
  for (const page of pages) {
    const text = await page.locator('body').innerText({ timeout: 2000 }).catch((e: Error) => `(unreadable: ${e.message})`);
    console.error(`page ${page.url()}:\n${text.slice(0, 1500)}`);
  }
  console.error(`server log (last lines):\n${site.log().split('\n').slice(-30).join('\n')}`);
}

/** Screenshots of the current screen at 1280x800 and 375x812. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`) });
  await page.setViewportSize(VIEWPORTS.mobile);
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.waitForTimeout(150);
}

async function enterAsGuest(page: Page, path = '/'): Promise<string> {
  await page.goto(`${site.url}/guest?returnUrl=${encodeURIComponent(path)}`);
  const nickname = (await page.getByTestId('guest-nickname').textContent()) ?? '';
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  return nickname;
}

async function colorOf(page: Page): Promise<'white' | 'black'> {
  await page.getByTestId('board').waitFor();
  return (await page.getByTestId('board').getAttribute('data-orientation')) as 'white' | 'black';
}

/** Waits until the status line says it is this page's player's turn (or the opponent's). */
async function waitTurn(page: Page, mine = true): Promise<void> {
  await page.getByTestId('status-banner').filter({ hasText: mine ? 'Your Turn' : "Opponent's Turn" }).waitFor({ timeout: 15_000 });
}

/** Two guests on the multiplayer screen find each other; returns their pages by colour. */
async function startMultiplayer(): Promise<{ white: Page; black: Page }> {
  const a = await newPage();
  const b = await newPage();
  await enterAsGuest(a, '/chess/multiplayer');
  await enterAsGuest(b, '/chess/multiplayer');
  await a.getByRole('button', { name: 'Find Match' }).click();
  await a.getByText('Finding opponent...').waitFor();
  await b.getByRole('button', { name: 'Find Match' }).click();
  const white = (await colorOf(a)) === 'white' ? a : b;
  const black = white === a ? b : a;
  await colorOf(black);
  return { white, black };
}

/** Plays UCI plies from the start of the game, White first, each side waiting for its turn. */
async function play(pages: { white: Page; black: Page }, ...plies: string[]): Promise<void> {
  for (const [i, ply] of plies.entries()) {
    const page = i % 2 === 0 ? pages.white : pages.black;
    await waitTurn(page);
    await clickMove(page, ply.slice(0, 2), ply.slice(2, 4));
    await waitTurn(page, false);
  }
}

async function resign(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.getByRole('button', { name: 'Confirm Resign' }).click();
}

beforeAll(async () => {
  build();
  site = await startSite();
  browser = await launch();
}, 420_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await site?.stop();
});

describe('home and guards', () => {
  it('home shows the menu for visitors, the player count and the version', async () => {
    const page = await newPage();
    await page.goto(site.url);
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/^1 Player Online$/);
    for (const name of ['Play as Guest', 'Login', 'Register']) await page.getByRole('link', { name }).waitFor();
    expect(await page.getByRole('link', { name: 'Play Chess' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
    await page.getByText('Version 1.0.0').waitFor();
    await shoot(page, 'home');
    await page.setViewportSize(VIEWPORTS.mobile);
    await expect.poll(() => page.getByTestId('player-count').innerText()).toMatch(/^\d+ Online$/);
  });

  it('?inspect loads the XState inspector on demand and opens its window; the page keeps working', async () => {
    const page = await newPage();
    const popup = page.context().waitForEvent('page', { timeout: 15_000 });
    await page.goto(`${site.url}/?inspect`);
    const inspectorWindow = await popup;
    expect(await inspectorWindow.opener()).toBe(page);
    await page.getByText('Version 1.0.0').waitFor();
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/\d+ Players? Online/);
  });

  it('a guarded route redirects to /guest with returnUrl and returns after entry', async () => {
    const page = await newPage();
    await page.goto(`${site.url}/chess/stats`);
    await page.waitForURL(/\/guest\?returnUrl=%2Fchess%2Fstats$/);
    await shoot(page, 'guest');
    // the page to come back to travels on to Login and Register
    await page.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL(/\/login\?returnUrl=%2Fchess%2Fstats$/);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(/\/register\?returnUrl=%2Fchess%2Fstats$/);
    await page.goBack();
    await page.goBack();
    await page.waitForURL(/\/guest\?returnUrl=%2Fchess%2Fstats$/);
    const first = await page.getByTestId('guest-nickname').textContent();
    await page.getByRole('button', { name: 'Generate Another' }).click();
    expect(await page.getByTestId('guest-nickname').textContent()).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+[1-9]\d$/);
    expect(first).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+[1-9]\d$/);
    await page.getByRole('button', { name: 'Continue as Guest' }).click();
    await page.waitForURL(`${site.url}/chess/stats`);
    await page.getByRole('heading', { name: 'Your Chess Stats' }).waitFor();
    await page.getByText('No games played yet. Start playing to build your history!').waitFor();
    // /settings goes to the mode chooser
    await page.goto(`${site.url}/settings`);
    await page.waitForURL(`${site.url}/chess`);
    await page.getByRole('heading', { name: 'Game Modes' }).waitFor();
    await page.getByText('Coming Soon').waitFor();
    await shoot(page, 'game-modes');
  });
});

describe('connection', () => {
  it('a dropped socket shows "Connecting..." with a red dot, then reconnects after 3 s as the same guest', async () => {
    const page = await newPage();
    const routes: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
    await page.routeWebSocket(/\/socket/, (ws) => { routes.push({ page: ws, server: ws.connectToServer() }); });
    await enterAsGuest(page, '/');
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/\d+ Players? Online/);
    expect(await page.locator('.dot-on').count()).toBe(1);
    const playerId = await page.evaluate(() => JSON.parse(localStorage.getItem('chess.socketIdentity') ?? '{}').playerId as string);
    expect(playerId).toMatch(/^player_/);

    const dropped = Date.now();
    await routes[0].server.close();
    await routes[0].page.close();
    await page.getByText('Connecting...').waitFor();
    expect(await page.locator('.dot-off').count()).toBe(1);
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/\d+ Players? Online/);
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(2900);
    expect(routes).toHaveLength(2);
    const url = new URL(routes[1].page.url());
    expect(url.searchParams.get('playerId')).toBe(playerId);
    expect(url.searchParams.get('secret')).toBeTruthy();
    // the server recognised the secret: same player id, nothing replaced
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('chess.socketIdentity') ?? '{}').playerId as string)).toBe(playerId);
  });
});
/**
 * Records every Notification the page constructs (as source text: tsx would inject helpers into a
 * function), and lets the test hide the tab: `window.__setHidden(true)`.
 */
const RECORD_NOTIFICATIONS = `
(() => {
  let hidden = false;
  window.__setHidden = (h) => { hidden = h; };
  Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible'), configurable: true });
  const Real = window.Notification;
  if (!Real) return;
  const log = [];
  window.__notifications = log;
  const Recording = function (title, options) {
    log.push({ title, body: options && options.body });
    return new Real(title, options);
  };
  Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
  Recording.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Recording;
})();
`;

describe('notifications', () => {
  it('"Ok" grants the confirmation notification; a game start notifies only a hidden tab that did not opt out; Abort before the first moves, not scored', async () => {
    const pages: Page[] = [];
    for (let i = 0; i < 2; i++) {
      const ctx = await newContext();
      await ctx.grantPermissions(['notifications'], { origin: site.url });
      await ctx.addInitScript({ content: RECORD_NOTIFICATIONS });
      pages.push(await ctx.newPage());
    }
    const [yes, no] = pages;
    const notes = (p: Page) => p.evaluate('window.__notifications || []') as Promise<{ title: string; body: string }[]>;
    for (const page of pages) await enterAsGuest(page, '/notifications');
    await yes.getByRole('heading', { name: "Get notified when it's your move" }).waitFor();
    await yes.getByRole('button', { name: 'Ok' }).click();
    await yes.waitForURL(`${site.url}/`);
    await expect.poll(() => notes(yes)).toEqual([{ title: 'Notifications enabled!', body: 'You will now receive notifications for your games.' }]);
    await no.getByRole('button', { name: 'No, thank you' }).click();
    await no.waitForURL(`${site.url}/`);

    // a game that starts while the tab is in view: no notification
    for (const page of pages) await page.goto(`${site.url}/chess/multiplayer`);
    await yes.getByRole('button', { name: 'Find Match' }).click();
    await yes.getByText('Finding opponent...').waitFor();
    await no.getByRole('button', { name: 'Find Match' }).click();
    const white = (await colorOf(yes)) === 'white' ? yes : no;
    await colorOf(white === yes ? no : yes);
    // before both sides have moved: the first-move deadline counts down, and Abort replaces Resign
    await white.getByTestId('first-move').filter({ hasText: /^Make your first move: \d+ s left/ }).waitFor();
    expect(await yes.getByRole('button', { name: 'Resign' }).count()).toBe(0);
    await yes.getByRole('button', { name: 'Abort' }).click();
    for (const page of pages) {
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Game Aborted' }).waitFor();
      await dialog.getByText('It does not count.').waitFor();
      await page.getByTestId('status-banner').filter({ hasText: 'Game aborted' }).waitFor();
    }
    // (the page was loaded again for the game: its record starts empty)
    expect(await notes(yes)).toEqual([]);

    // the next game starts while the tab is hidden: "Game Started"
    await yes.evaluate('window.__setHidden(true)');
    await yes.getByRole('dialog').getByRole('button', { name: 'Play Again' }).click();
    await yes.getByText('Finding opponent...').waitFor();
    await no.getByRole('dialog').getByRole('button', { name: 'Play Again' }).click();
    await yes.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    const opponent = await yes.getByTestId('opponent-name').textContent();
    await expect.poll(async () => (await notes(yes)).map((n) => n.title)).toContain('Game Started');
    expect((await notes(yes)).find((n) => n.title === 'Game Started')?.body).toBe(`Your game with ${opponent} has begun.`);
    expect(await notes(no)).toEqual([]);

    // the aborted game is not in the statistics
    await no.goto(`${site.url}/chess/stats`);
    await no.getByText('No games played yet. Start playing to build your history!').waitFor();
  });
});

describe('two tabs of one guest', () => {
  it('the newer tab takes the seat, the older one waits without fighting and takes it back when focused', async () => {
    const first = await newPage();
    // the tabs' timers run on Playwright's clock (as real time, until the test moves it on)
    await first.context().clock.install();
    await enterAsGuest(first, '/');
    await expect.poll(() => first.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/\d+ Players? Online/);
    const second = await first.context().newPage();
    await second.goto(site.url);
    await expect.poll(() => second.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/\d+ Players? Online/);
    await first.getByText('Connecting...').waitFor();
    // no tug of war: with the clock moved well past the 3 s retry delay, the older tab opened no
    // socket and the newer one still holds the seat
    let socketsOpened = 0;
    first.on('websocket', () => socketsOpened++);
    await first.clock.fastForward(4000);
    await first.evaluate(() => document.title);
    expect(socketsOpened).toBe(0);
    expect(await second.getByTestId('player-count').textContent()).toMatch(/\d+ Players? Online/);
    expect(await first.getByTestId('player-count').textContent()).toBe('Connecting...');
    // using the first tab again takes the seat back
    await first.bringToFront();
    await first.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => first.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/\d+ Players? Online/);
    await second.getByText('Connecting...').waitFor();
  });
});

describe('multiplayer', () => {
  it('reload and Back/Forward rejoin at once; an older tab says the game goes on elsewhere; a move made offline is taken back; the disconnect notice counts down', async () => {
    const pages = await startMultiplayer();
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
    await black.goto(site.url);
    await black.goBack();
    await black.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => pieceOn(black, 'c5')).toBe('black pawn');

    // Black's network goes down: White's notice counts down the seconds Black has to come back
    down = true;
    const live = routes[routes.length - 1];
    await live.server?.close();
    await live.page.close();
    const secondsLeft = async () => Number(/(\d+) s to come back/.exec((await white.getByTestId('opponent-away').textContent()) ?? '')?.[1]);
    await white.getByTestId('opponent-away').filter({ hasText: /They have \d+ s to come back/ }).waitFor({ timeout: 15_000 });
    const first = await secondsLeft();
    await expect.poll(secondsLeft, { timeout: 5_000 }).toBeLessThan(first);
    await clickMove(white, 'g1', 'f3');
    await waitTurn(white, false);
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
    await second.goto(`${site.url}/chess/multiplayer`);
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
    await white.waitForURL(`${site.url}/`);

    for (const [page, tile] of [[black, 'stat-wins'], [white, 'stat-losses']] as const) {
      if (page === black) {
        await page.getByRole('dialog').getByRole('button', { name: 'Main Menu' }).click();
        await page.waitForURL(`${site.url}/`);
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

/** The boxes of the game screen's parts that must be fully in view and apart. */
async function playBoxes(page: Page) {
  return page.evaluate(() => {
    const box = (sel: string) => {
      const el = document.querySelector(sel);
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { top: r.top, left: r.left, bottom: r.bottom, right: r.right };
    };
    return {
      viewport: { width: innerWidth, height: innerHeight },
      scroll: { height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth },
      board: box('[data-testid="board"]'),
      top: box('[data-testid="top-player"]'),
      bottom: box('[data-testid="bottom-player"]'),
      topClock: box('[data-testid="top-player"] .clock'),
      bottomClock: box('[data-testid="bottom-player"] .clock'),
      actions: box('.play-actions .row'),
    };
  });
}

type Box = { top: number; left: number; bottom: number; right: number };
const inside = (b: Box, v: { width: number; height: number }) => b.top >= 0 && b.left >= 0 && b.bottom <= v.height + 0.5 && b.right <= v.width + 0.5;
const apart = (a: Box, b: Box) => a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5 || a.right <= b.left + 0.5 || b.right <= a.left + 0.5;

describe('game screen layout', () => {
  it('at 1280x800, 1366x768, 1920x1080, 375x812 and 812x375 the board, both clocks and the buttons are in view, apart, without page scroll', async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    await play(pages, 'e2e4', 'e7e5');
    await waitTurn(white);
    const sizes = [
      { width: 1280, height: 800 }, { width: 1366, height: 768 }, { width: 1920, height: 1080 },
      { width: 375, height: 812 }, { width: 812, height: 375 }, { width: 360, height: 640 },
    ];
    for (const size of sizes) {
      await black.setViewportSize(size);
      await expect.poll(async () => (await playBoxes(black)).viewport.width).toBe(size.width);
      const b = await playBoxes(black);
      const label = `${size.width}x${size.height}`;
      expect(b.scroll.height, label).toBeLessThanOrEqual(size.height);
      expect(b.scroll.width, label).toBeLessThanOrEqual(size.width);
      for (const key of ['board', 'top', 'bottom', 'topClock', 'bottomClock', 'actions'] as const) {
        expect(b[key], `${label} ${key}`).not.toBeNull();
        expect(inside(b[key]!, b.viewport), `${label} ${key} ${JSON.stringify(b[key])}`).toBe(true);
      }
      expect(apart(b.board!, b.top!) && apart(b.board!, b.bottom!) && apart(b.board!, b.actions!) && apart(b.top!, b.bottom!), label).toBe(true);
      // the opponent's bar above the player's, and the board as large as the frame allows
      expect(b.top!.top, label).toBeLessThan(b.bottom!.top);
      const side = b.board!.right - b.board!.left;
      expect(side, label).toBeGreaterThanOrEqual(Math.min(size.width, size.height) * (size.width > size.height ? 0.8 : 0.9));
      await black.screenshot({ path: join(SCREENSHOT_DIR, `layout-${label}.png`) });
    }
    await black.setViewportSize(VIEWPORTS.desktop);
    await resign(white);
    await black.getByRole('dialog').getByRole('heading', { name: 'Victory!' }).waitFor();
  }, 90_000);
});

describe('board tools', () => {
  it('castling by putting the king on its rook, a premove played on the reply, flip, copy FEN, PGN, themes and sound remembered', async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    await white.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
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
    await page.waitForURL(`${site.url}/`);
    // and a new game starts at once
    await page.goto(`${site.url}/chess/ai`);
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
    await page.getByRole('button', { name: 'Start Game' }).click();
    await page.getByRole('heading', { name: /^AI Game vs / }).waitFor();
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

describe('accounts', () => {
  const email = `e2e.${Date.now()}@example.com`;
  const password = 'first-secret-1';
  const name = `e2e_${Date.now() % 1_000_000}`;

  it('register, confirm from /dev/mail, complete the profile, answer the notification page, home shows "Signed in as"', async () => {
    // the refused sign-in of an unconfirmed address is a 400 the browser reports in the console
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 400/);
    const page = await newPage();
    const frames: string[] = [];
    let sockets = 0;
    page.on('websocket', (ws) => {
      sockets++;
      ws.on('framesent', (f) => frames.push(`sent ${f.payload}`));
      ws.on('framereceived', (f) => frames.push(`received ${f.payload}`));
    });
    await page.goto(`${site.url}/register`);
    await page.getByText('Password must be at least 6 characters long').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password').fill('mismatch');
    await page.getByText('Passwords do not match').waitFor();
    expect(await page.getByRole('button', { name: 'Create Account' }).isDisabled()).toBe(true);
    await page.getByLabel('Confirm Password').fill(password);
    await shoot(page, 'register');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(/check your email/i).waitFor();
    await page.waitForURL(`${site.url}/login`, { timeout: 10_000 });
    // the router moves to /login in a transition: the register form (with its own Email and
    // Password fields) stays on screen until the sign-in screen's code has loaded
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    // signing in before confirming says why and offers to send the confirmation again
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: /not confirmed/i }).waitFor();
    await page.getByRole('button', { name: 'Resend confirmation email' }).click();
    await page.getByText(`A new confirmation email is on its way to ${email}.`).waitFor();

    const mail = await waitForMail(site, email, (m) => m.links.some((l) => l.includes('type=signup')));
    const link = mail.links.find((l) => l.includes('type=signup'))!;
    await page.goto(link);
    await page.waitForURL(/\/profile-setup$/, { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Complete Your Profile' }).waitFor();
    const username = page.getByLabel('Username');
    await expect.poll(() => username.inputValue()).toBe(email.split('@')[0].replace(/[^A-Za-z0-9_]/g, '').toLowerCase());
    await username.fill('ab');
    await page.getByText('Username must be 3-20 characters and can only contain letters, numbers, and underscores').waitFor();
    await username.fill(name);
    await page.getByText('Username is available').waitFor();
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await shoot(page, 'profile-setup');
    await page.getByRole('button', { name: 'Complete Profile' }).click();
    await page.waitForURL(/\/notifications$/);
    await page.getByRole('heading', { name: "Get notified when it's your move" }).waitFor();
    await shoot(page, 'notifications');
    await page.getByRole('button', { name: 'No, thank you' }).click();
    await page.waitForURL(`${site.url}/`);
    await page.getByText(`Signed in as ${name}`).waitFor();
    // the socket is bound to the account: identifyUser with the access token, answered by identified
    await expect.poll(() => frames.some((f) => f.startsWith('sent') && f.includes('"identifyUser"') && f.includes('"accessToken"'))).toBe(true);
    await expect.poll(() => frames.some((f) => f.startsWith('received') && f.includes('"identified"'))).toBe(true);
    await page.getByRole('link', { name: 'Play Chess' }).waitFor();
    expect(await page.getByRole('link', { name: 'Login' }).count()).toBe(0);
    const socketsBefore = sockets;
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    // signing out starts a fresh socket, no longer bound to the account
    await expect.poll(() => sockets).toBe(socketsBefore + 1);
  });

  it('a username that is taken is reported after the debounce and blocks the submit', async () => {
    // registering tries to sign in at once, which the server refuses (400) until the address is confirmed
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 400/);
    const page = await newPage();
    const other = `e2e.other.${Date.now()}@example.com`;
    await page.goto(`${site.url}/register`);
    await page.getByLabel('Email').fill(other);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    const mail = await waitForMail(site, other, (m) => m.links.some((l) => l.includes('type=signup')));
    await page.goto(mail.links.find((l) => l.includes('type=signup'))!);
    await page.waitForURL(/\/profile-setup$/, { timeout: 20_000 });
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Username').fill(name);
    await page.getByText('Username is already taken').waitFor();
    expect(await page.getByRole('button', { name: 'Complete Profile' }).isDisabled()).toBe(true);
    await page.getByLabel('Username').fill(`${name}_2`);
    await page.getByText('Username is available').waitFor();
    expect(await page.getByRole('button', { name: 'Complete Profile' }).isDisabled()).toBe(false);
  });

  it('forgot password: the reset link sets a new password that signs in', async () => {
    // the old password, refused, is a 400 the browser reports in the console
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 400/);
    const page = await newPage();
    await page.goto(`${site.url}/login`);
    await shoot(page, 'login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    // The URL changes at once, but the router keeps the login page (which has an Email field too)
    // on screen until the lazily loaded page has arrived: an email typed before then is lost.
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    const mail = await waitForMail(site, email, (m) => m.links.some((l) => l.includes('type=recovery')));
    await page.goto(mail.links.find((l) => l.includes('type=recovery'))!);
    await page.waitForURL(/\/reset-password/);
    const newPassword = 'second-secret-2';
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    // the reset link signed the player in: home, signed in, and /login has nothing to show them
    await page.waitForURL(`${site.url}/`, { timeout: 10_000 });
    await page.getByText(/^Signed in as /).waitFor();
    await page.goto(`${site.url}/login`);
    await page.waitForURL(`${site.url}/`);

    const fresh = await newPage();
    await fresh.goto(`${site.url}/login`);
    await fresh.getByLabel('Email').fill(email);
    await fresh.getByLabel('Password').fill(password);
    await fresh.getByRole('button', { name: 'Sign In' }).click();
    await fresh.getByRole('alert').waitFor();
    await fresh.getByLabel('Password').fill(newPassword);
    await fresh.getByRole('button', { name: 'Sign In' }).click();
    await fresh.waitForURL(`${fresh.url().split('/login')[0]}/`);
    await fresh.getByText(/^Signed in as /).waitFor();

    // a used link is expired: the page says so and offers a new one
    await fresh.goto(mail.links.find((l) => l.includes('type=recovery'))!);
    await fresh.getByText('The password reset link has expired. Please request a new one.').waitFor();
    await fresh.getByRole('button', { name: 'Request a new reset link' }).click();
    await fresh.waitForURL(/\/forgot-password$/);
  });
});

describe('low time', () => {
  // A site of its own whose clocks start at 10 s, so a running clock is under ten seconds at once.
  let mainSite: RunningSite;
  beforeAll(async () => {
    mainSite = site;
    site = await startSite({ CLOCK_SECONDS: '10' });
  }, 240_000);
  afterAll(async () => {
    await site.stop();
    site = mainSite;
  });

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
  });
});
