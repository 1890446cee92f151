/**
 * What the site's end-to-end files share: one Chromium and one built site per file (`node
 * dist/server/main.js`, as `npm start` runs it, or in this process for files that make accounts
 * and store games directly), and the steps their flows are made of. `useSite()` starts both
 * before the file's tests, fails a test that logged a console error or warning (unless the test
 * declared it expected, `consoleGuard.allow`), and on a failure prints what each open page showed
 * with the server's last log lines; each test's browser contexts close when it ends, and the
 * file's site and Chromium when the file ends. The site is built once per test run, before the
 * browser tier starts (tests/support/siteBuild.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Archive } from '../../server/archive/index';
import type { AccountsModule } from '../../server/accounts';
import { clickMove, ConsoleGuard, launch, SCREENSHOT_DIR, startArchiveSite, startSite, VIEWPORTS, type RunningSite } from './harness';

let current: RunningSite | undefined;
let browser: Browser | undefined;
const contexts: BrowserContext[] = [];
/** The console errors and warnings of every page of the file; a test may allow a known one. */
export const consoleGuard = new ConsoleGuard();

/** The site the file's tests run against. */
export function site(): RunningSite {
  if (!current) throw new Error('no site: call useSite() in the test file');
  return current;
}

/** How the file's site runs, besides its settings. */
export interface SiteOptions {
  /**
   * In this process (startArchiveSite) rather than as `npm start` runs it: its accounts module
   * is at hand, for files that make accounts (`newAccount`, `signedInAt`) or store finished games
   * (`siteArchive`) without going through the browser. It takes no settings.
   */
  inProcess?: boolean;
}

/** Starts the site (with these settings, or as `options` say) and Chromium for this file's tests, and checks each test's console. */
export function useSite(env: Record<string, string> = {}, options: SiteOptions = {}): void {
  if (options.inProcess && Object.keys(env).length > 0) throw new Error('the in-process site takes no settings (they are the server process\'s environment)');
  beforeAll(async () => {
    consoleGuard.take(); // what an earlier file's pages logged is not this file's
    // side by side: the site's start is mostly its process starting
    const [started, launched] = await Promise.allSettled([options.inProcess ? startArchiveSite() : startSite(env), launch()]);
    if (started.status === 'fulfilled') current = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    for (const outcome of [started, launched]) if (outcome.status === 'rejected') throw outcome.reason;
  }, 420_000);

  // a worker runs several files in turn (isolate: false): nothing of this file's is left to the next
  afterAll(async () => {
    await browser?.close();
    await current?.stop();
    browser = undefined;
    current = undefined;
  });

  // a console error or warning during a flow fails the test that caused it; a failed test leaves
  // what each open page showed and the server's last log lines in the output. Then the test's
  // browsers close: a page left open keeps its socket, its clocks and its animations running
  // through the rest of the file (each open game page took about a twentieth of a core).
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await reportPages();
    await closeContexts();
    expect(consoleGuard.take()).toEqual([]);
  });
}

/** Closes every browser context the test opened. */
async function closeContexts(): Promise<void> {
  const open = contexts.splice(0);
  await Promise.all(open.map((c) => c.close().catch(() => {})));
}

/** Within a describe: its tests run against a site of their own, started with these settings. */
export function useOwnSite(env: Record<string, string>): void {
  let outer: RunningSite | undefined;
  beforeAll(async () => {
    outer = current;
    current = await startSite(env);
  }, 240_000);
  afterAll(async () => {
    await current?.stop();
    current = outer;
  });
}

/**
 * Records the file name of every sound the page plays, in window.__sounds (as source text: tsx
 * would inject helpers into a function).
 */
const RECORD_SOUNDS = `
(() => {
  const log = [];
  window.__sounds = log;
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () { log.push(this.src.split('/').pop()); return play.call(this); };
})();
`;

/** A new browser context (a device of its own, a desktop's or a phone's screen) whose console is watched and whose sounds are recorded. */
export async function newContext(viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<BrowserContext> {
  if (!browser) throw new Error('no browser: call useSite() in the test file');
  const ctx = await browser.newContext({ viewport: VIEWPORTS[viewport] });
  contexts.push(ctx);
  consoleGuard.watch(ctx);
  await ctx.addInitScript({ content: RECORD_SOUNDS });
  return ctx;
}

export const soundsOf = (page: Page) => page.evaluate('window.__sounds') as Promise<string[]>;

/** A page in a new context. */
export async function newPage(viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<Page> {
  return (await newContext(viewport)).newPage();
}

async function reportPages(): Promise<void> {
  const pages = contexts.flatMap((c) => c.pages()).slice(-4);
  for (const page of pages) {
    const text = await page.locator('body').innerText({ timeout: 2000 }).catch((e: Error) => `(unreadable: ${e.message})`);
    console.error(`page ${page.url()}:\n${text.slice(0, 1500)}`);
  }
  console.error(`server log (last lines):\n${site().log().split('\n').slice(-30).join('\n')}`);
}

/** Screenshots of the current screen at 1280x800 and 375x812. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`) });
  await page.setViewportSize(VIEWPORTS.mobile);
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.waitForTimeout(150);
}

/** Enters as a guest through /guest, landing on `path`; returns the nickname it was given. */
export async function enterAsGuest(page: Page, path = '/'): Promise<string> {
  await page.goto(`${site().url}/guest?returnUrl=${encodeURIComponent(path)}`);
  const nickname = (await page.getByTestId('guest-nickname').textContent()) ?? '';
  await page.getByRole('button', { name: 'Continue as Guest' }).click();
  return nickname;
}

/** A page in a new context (a guest of its own) that has entered as a guest, at `path`. */
export async function guestAt(path: string, viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<Page> {
  const page = await newPage(viewport);
  await enterAsGuest(page, path);
  return page;
}

function siteAccounts(): AccountsModule {
  const accounts = site().accounts;
  if (!accounts) throw new Error('the site\'s accounts are out of reach: call useSite(env, { inProcess: true })');
  return accounts;
}

/** The in-process site's game archive, to store finished games in. */
export function siteArchive(): Archive {
  const archive = siteAccounts().archive;
  if (!archive) throw new Error('the site has no archive');
  return archive;
}

/** The password of the accounts `newAccount` makes. */
const TEST_PASSWORD = 'secret123';

/** A new account with a username on the in-process site: its id, e-mail address and access token. */
export async function newAccount(name: string): Promise<{ id: string; email: string; accessToken: string }> {
  // imported here: supabase-js and the accounts harness only for the files that make accounts this way
  const { nodeSupabaseClient } = await import('../accounts/harness');
  const c = nodeSupabaseClient(site().url, siteAccounts().info.anonKey);
  const email = `${name}.${Date.now()}@example.test`;
  const { data, error } = await c.auth.signUp({ email, password: TEST_PASSWORD });
  if (error) throw error;
  await c.auth.setSession(data.session!);
  const up = await c.from('profiles').upsert({ id: data.user!.id, username: name }, { onConflict: 'id' });
  if (up.error) throw up.error;
  return { id: data.user!.id, email, accessToken: data.session!.access_token };
}

/** Signs the page in through the login form as the account `newAccount` made with this address. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${site().url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

/** A page in a new context (a browser of its own) signed in as a new account with this username, at `path`. */
export async function signedInAt(name: string, path: string, viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<Page> {
  const { email } = await newAccount(name);
  const page = await newPage(viewport);
  await signIn(page, email);
  await page.goto(`${site().url}${path}`);
  return page;
}

/** The colour the page's board is shown from, once the board is there. */
export async function colorOf(page: Page): Promise<'white' | 'black'> {
  await page.getByTestId('board').waitFor();
  return (await page.getByTestId('board').getAttribute('data-orientation')) as 'white' | 'black';
}

/** Waits until the status line says it is this page's player's turn (or the opponent's). */
export async function waitTurn(page: Page, mine = true): Promise<void> {
  await page.getByTestId('status-banner').filter({ hasText: mine ? 'Your Turn' : "Opponent's Turn" }).waitFor({ timeout: 15_000 });
}

/**
 * Two guests on the multiplayer screen find each other; returns their pages by colour. With
 * `clock`, the pages' timers run on Playwright's clock (as real time, until the test moves it on).
 */
export async function startMultiplayer(opts: { clock?: boolean } = {}): Promise<{ white: Page; black: Page }> {
  const [a, b] = [await newPage(), await newPage()];
  if (opts.clock) await Promise.all([a.context().clock.install(), b.context().clock.install()]);
  return findEachOther(a, b);
}

/** Two pages enter as guests on the multiplayer screen and find each other (`a` searches first); returns them by colour. */
export async function findEachOther(a: Page, b: Page): Promise<{ white: Page; black: Page }> {
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
export async function play(pages: { white: Page; black: Page }, ...plies: string[]): Promise<void> {
  for (const [i, ply] of plies.entries()) {
    const page = i % 2 === 0 ? pages.white : pages.black;
    await waitTurn(page);
    await clickMove(page, ply.slice(0, 2), ply.slice(2, 4));
    await waitTurn(page, false);
  }
}

/** Resigns through the button and its confirmation. */
export async function resign(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.getByRole('button', { name: 'Confirm Resign' }).click();
}

