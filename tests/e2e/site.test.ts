/**
 * The site end to end in real Chromium against the real built server
 * (`node dist/server/main.js`, as `npm start` runs it), with real accounts,
 * the real AI and real sockets.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import {
  build, clickMove, dragMove, launch, pieceOn, SCREENSHOT_DIR, startSite, VIEWPORTS, waitForMail, type RunningSite,
} from './harness';

let site: RunningSite;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function newPage(): Promise<Page> {
  const ctx = await browser.newContext({ viewport: VIEWPORTS.desktop });
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.on('pageerror', (err) => console.error('page error:', err.message));
  return page;
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
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/\d+ Players Online/);
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
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/Players Online/);
  });

  it('a guarded route redirects to /guest with returnUrl and returns after entry', async () => {
    const page = await newPage();
    await page.goto(`${site.url}/chess/stats`);
    await page.waitForURL(/\/guest\?returnUrl=%2Fchess%2Fstats$/);
    await shoot(page, 'guest');
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
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/Players Online/);
    expect(await page.locator('.dot-on').count()).toBe(1);
    const playerId = await page.evaluate(() => JSON.parse(localStorage.getItem('chess.socketIdentity') ?? '{}').playerId as string);
    expect(playerId).toMatch(/^player_/);

    const dropped = Date.now();
    await routes[0].server.close();
    await routes[0].page.close();
    await page.getByText('Connecting...').waitFor();
    expect(await page.locator('.dot-off').count()).toBe(1);
    await expect.poll(() => page.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/Players Online/);
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(2900);
    expect(routes).toHaveLength(2);
    const url = new URL(routes[1].page.url());
    expect(url.searchParams.get('playerId')).toBe(playerId);
    expect(url.searchParams.get('secret')).toBeTruthy();
    // the server recognised the secret: same player id, nothing replaced
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('chess.socketIdentity') ?? '{}').playerId as string)).toBe(playerId);
  });
});

/** Records every Notification the page constructs (as source text: tsx would inject helpers into a function). */
const RECORD_NOTIFICATIONS = `
(() => {
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
  it('"Ok" grants and shows the confirmation notification; a game start notifies only the player who did not opt out', async () => {
    const pages: Page[] = [];
    for (let i = 0; i < 2; i++) {
      const ctx = await browser.newContext({ viewport: VIEWPORTS.desktop });
      contexts.push(ctx);
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

    for (const page of pages) await page.goto(`${site.url}/chess/multiplayer`);
    await yes.getByRole('button', { name: 'Find Match' }).click();
    await yes.getByText('Finding opponent...').waitFor();
    await no.getByRole('button', { name: 'Find Match' }).click();
    await yes.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    await no.getByRole('heading', { name: 'Multiplayer Game' }).waitFor({ timeout: 15_000 });
    const opponent = await yes.getByTestId('opponent-name').textContent();
    await expect.poll(async () => (await notes(yes)).map((n) => n.title)).toContain('Game Started');
    expect((await notes(yes)).find((n) => n.title === 'Game Started')?.body).toBe(`Your game with ${opponent} has begun.`);
    expect(await notes(no)).toEqual([]);
  });
});

describe('two tabs of one guest', () => {
  it('the newer tab takes the seat, the older one waits without fighting and takes it back when focused', async () => {
    const first = await newPage();
    await enterAsGuest(first, '/');
    await expect.poll(() => first.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/Players Online/);
    const second = await first.context().newPage();
    await second.goto(site.url);
    await expect.poll(() => second.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/Players Online/);
    await first.getByText('Connecting...').waitFor();
    // no tug of war: well past the 3 s retry delay the newer tab still holds the seat
    await first.waitForTimeout(4000);
    expect(await second.getByTestId('player-count').textContent()).toMatch(/Players Online/);
    expect(await first.getByTestId('player-count').textContent()).toBe('Connecting...');
    // using the first tab again takes the seat back
    await first.bringToFront();
    await first.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => first.getByTestId('player-count').textContent(), { timeout: 15_000 }).toMatch(/Players Online/);
    await second.getByText('Connecting...').waitFor();
  });
});

describe('multiplayer', () => {
  it('a player who reloads mid-game is offered the game back and rejoins the same position', async () => {
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
    await white.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await clickMove(white, 'e2', 'e4');
    await black.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await dragMove(black, 'c7', 'c5');
    await white.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();

    await black.reload({ waitUntil: 'domcontentloaded' });
    await black.getByRole('heading', { name: 'You have an active game' }).waitFor({ timeout: 15_000 });
    await black.getByText('You left a game that is still in progress.').waitFor();
    await black.getByRole('button', { name: 'Forfeit & Find New Game' }).waitFor();
    await shoot(black, 'multiplayer-rejoin');
    await black.getByRole('button', { name: 'Rejoin Game' }).click();
    await black.getByRole('heading', { name: 'Multiplayer Game' }).waitFor();
    expect(await colorOf(black)).toBe('black');
    await expect.poll(() => pieceOn(black, 'e4')).toBe('white pawn');
    expect(await pieceOn(black, 'c5')).toBe('black pawn');
    await black.getByTestId('turn-banner').filter({ hasText: "Opponent's Turn" }).waitFor();
    // and the game goes on
    await clickMove(white, 'g1', 'f3');
    await black.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await expect.poll(() => pieceOn(black, 'f3')).toBe('white knight');
    await black.getByRole('button', { name: 'Resign' }).click();
    await white.getByRole('dialog').getByRole('heading', { name: 'Victory!' }).waitFor();
    await white.getByRole('dialog').getByText('(Reason: Resignation)').waitFor();
  }, 90_000);


  it('promotion opens "Choose promotion piece:" and the chosen piece (a knight) reaches both boards; draw offer and decline', async () => {
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
    const plies: [Page, string, string][] = [
      [white, 'e2', 'e4'], [black, 'd7', 'd5'], [white, 'e4', 'd5'], [black, 'c7', 'c6'],
      [white, 'd5', 'c6'], [black, 'g8', 'f6'], [white, 'c6', 'b7'], [black, 'b8', 'd7'],
    ];
    for (const [page, from, to] of plies) {
      await page.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
      await clickMove(page, from, to);
      await page.getByTestId('turn-banner').filter({ hasText: "Opponent's Turn" }).waitFor();
    }
    await white.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();

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
    await black.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await white.getByRole('button', { name: 'Resign' }).click();
    await black.getByRole('dialog').getByRole('heading', { name: 'Victory!' }).waitFor();
  }, 90_000);

  it("two guests find each other and play fool's mate by clicking, dragging and typing; both see the end; stats show it", async () => {
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

    await white.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await black.getByTestId('turn-banner').filter({ hasText: "Opponent's Turn" }).waitFor();
    expect(await white.getByTestId('clock-white').innerText()).toMatch(/10:00/);

    await clickMove(white, 'f2', 'f3');
    await black.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await expect.poll(() => pieceOn(black, 'f3')).toBe('white pawn');
    await dragMove(black, 'e7', 'e5');
    await white.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await expect.poll(() => pieceOn(white, 'e5')).toBe('black pawn');
    // the board's keyboard alternative: an illegal move is refused in words, a legal one is played
    const typed = white.getByLabel('Type your move');
    await typed.fill('g5');
    await typed.press('Enter');
    await white.getByText('"g5" is not a legal move here.').waitFor();
    expect(await pieceOn(white, 'g2')).toBe('white pawn');
    await typed.fill('g4');
    await typed.press('Enter');
    await black.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
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
    await white.getByTestId('status-banner').filter({ hasText: 'Checkmate! Black wins.' }).waitFor();
    // the end dialog keeps the keyboard inside it: Tab and Shift+Tab cycle through its buttons
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await white.keyboard.press(key);
      expect(await white.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await shoot(white, 'multiplayer-end');

    for (const [page, tile] of [[black, 'stat-wins'], [white, 'stat-losses']] as const) {
      await page.getByRole('dialog').getByRole('button', { name: 'Main Menu' }).click();
      await page.waitForURL(`${site.url}/`);
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
    expect(await white.getByTestId('win-rate').textContent()).toBe('0.0%');
  });
});

describe('AI', () => {
  it('a level-1 game started as black: the AI opens, the player answers, resigns and sees the end modal', async () => {
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
    await page.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor({ timeout: 30_000 });
    await page.getByText(/Moves: 1/).waitFor();
    await clickMove(page, 'e7', 'e6');
    await page.getByText(/Moves: 2/).waitFor();
    await page.getByText(/Moves: 3/).waitFor({ timeout: 30_000 });
    await page.getByTestId('turn-banner').filter({ hasText: 'Your Turn' }).waitFor();
    await shoot(page, 'ai-game');
    await page.getByRole('button', { name: 'Resign' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Defeat!' }).waitFor();
    await dialog.getByText('(Reason: Resignation)').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('status-banner').filter({ hasText: 'Game over' }).waitFor();
    await page.getByRole('button', { name: 'Play Again' }).click();
    await page.getByRole('heading', { name: 'Game Settings' }).waitFor();
  });
});

describe('accounts', () => {
  const email = `e2e.${Date.now()}@example.com`;
  const password = 'first-secret-1';
  const name = `e2e_${Date.now() % 1_000_000}`;

  it('register, confirm from /dev/mail, complete the profile, answer the notification page, home shows "Signed in as"', async () => {
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
    await page.waitForURL(/\/login$/, { timeout: 10_000 });

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
