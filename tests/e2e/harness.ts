/**
 * End-to-end harness: starts the site built as `npm start` builds it (tests/support/builds.ts)
 * as the real server (`node dist/server/main.js`) on a free port with a temporary data
 * directory (its database migrated already: tests/support/pgliteTemplate.ts), or in this process for tests that make accounts and store games directly, and
 * drives Debian's Chromium through playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server/nodeFlags';
import pino from 'pino';
import { ChessGame } from '../../machines/chess';
import { pgnResultTag } from '../../machines/game/display';
import type { RunningServer } from '../../server/app';
import type { AccountsModule } from '../../server/accounts';
import type { ArchivedPlayer, FinishedGame } from '../../server/archive/index';
import { migratedDataDir } from '../support/pgliteTemplate';
import { ROOT } from '../support/root';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningSite {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** what the server has logged so far (warnings and errors) */
  log: () => string;
  /** the site's accounts module, when the site runs in this process (startArchiveSite) */
  accounts?: AccountsModule;
}

export async function startSite(env: Record<string, string> = {}): Promise<RunningSite> {
  const port = await freePort();
  const dataDir = await migratedDataDir('chess-e2e-');
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn('node', [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env, ...SERVER_MALLOC_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEV_INBOX: 'true',
      PUBLIC_URL: url, SITE_URL: url, NODE_ENV: 'production',
      // the sign-up and reset tests mail an address moments after its sign-up mail, which goes out
      // at a random moment after the answer (GoTrue allows one mail per 60 s; the limit has tests of its own)
      AUTH_EMAIL_MAX_FREQUENCY_SECONDS: '0', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => { output += d; });
  child.stderr?.on('data', (d) => { output += d; });
  const deadline = Date.now() + 240_000; // PGlite + engines start slowly on a loaded 2-core machine
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/`);
      if (res.status < 500) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`server did not start:\n${output}`); }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url, port, log: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise<void>((r) => { const t = setTimeout(() => { child.kill('SIGKILL'); r(); }, 5000); child.once('exit', () => { clearTimeout(t); r(); }); });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Chromium features the tests turn off. Each browser context opens a window of its own, and each
 * window's address bar loaded its two WebUI popups (chrome://omnibox-popup.top-chrome) in
 * renderers of their own, which no test ever opens: about 0.9 s of CPU a context, more than the
 * site's own page took (24 s of Chromium's CPU for fifteen guests who enter and leave, 11 s
 * without them).
 */
export const CHROMIUM_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Starts Chromium through chromium.sh, which adds CHROMIUM_DISABLED_FEATURES to Playwright's own list. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: join(ROOT, 'tests', 'e2e', 'chromium.sh'),
    env: { ...process.env, CHROMIUM_BINARY: CHROMIUM, CHROMIUM_DISABLE_FEATURES: CHROMIUM_DISABLED_FEATURES.join(',') },
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

/** Centre of a square in page coordinates, for the board's orientation. */
export async function squareCenter(page: Page, square: string): Promise<{ x: number; y: number }> {
  const board = page.locator('[data-testid="board"]');
  const box = await board.boundingBox();
  if (!box) throw new Error('board not visible');
  const orientation = await board.getAttribute('data-orientation');
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = orientation === 'black' ? 7 - file : file;
  const row = orientation === 'black' ? rank : 7 - rank;
  return { x: box.x + size * (col + 0.5), y: box.y + size * (row + 0.5) };
}

export async function clickMove(page: Page, from: string, to: string): Promise<void> {
  const a = await squareCenter(page, from);
  await page.mouse.click(a.x, a.y);
  const b = await squareCenter(page, to);
  await page.mouse.click(b.x, b.y);
}

export async function dragMove(page: Page, from: string, to: string): Promise<void> {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 3, a.y + 3, { steps: 2 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

/** The piece standing on a square as chessground draws it, e.g. "white pawn", or null. */
export async function pieceOn(page: Page, square: string): Promise<string | null> {
  const c = await squareCenter(page, square);
  return page.evaluate(({ x, y }) => {
    for (const p of Array.from(document.querySelectorAll('cg-board piece'))) {
      if (p.classList.contains('ghost') || p.classList.contains('fading')) continue;
      const r = p.getBoundingClientRect();
      if (x > r.left && x < r.right && y > r.top && y < r.bottom) {
        const color = p.classList.contains('white') ? 'white' : 'black';
        const role = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'].find((k) => p.classList.contains(k));
        return `${color} ${role}`;
      }
    }
    return null;
  }, c);
}

export interface MailMessage { to: string; subject: string; text: string; links: string[] }

export async function waitForMail(site: RunningSite, to: string, match: (m: MailMessage) => boolean): Promise<MailMessage> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await fetch(`${site.url}/dev/mail`, { headers: { accept: 'application/json' } });
    const list = (await res.json()) as MailMessage[];
    const hit = list.find((m) => m.to.toLowerCase() === to.toLowerCase() && match(m));
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no mail for ${to}: ${JSON.stringify(list).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const SCREENSHOT_DIR = join(ROOT, 'docs', 'screenshots');
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, mobile: { width: 375, height: 812 } } as const;

/**
 * Every console error or warning, and every uncaught page error, of a browser context: the
 * flows must run clean. A test that provokes one on purpose (a refused password is a 400 the
 * browser reports) says so with `allow`.
 */
export class ConsoleGuard {
  private readonly seen: string[] = [];
  private readonly allowed: RegExp[] = [];

  watch(ctx: BrowserContext): void {
    ctx.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') this.seen.push(`${msg.type()}: ${msg.text()} (${msg.location().url})`);
    });
    ctx.on('weberror', (err) => this.seen.push(`page error: ${err.error().message}`));
  }

  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  /** The unexpected messages since the last call; clears the list and the allowances. */
  take(): string[] {
    const unexpected = this.seen.filter((line) => !this.allowed.some((p) => p.test(line)));
    this.seen.length = 0;
    this.allowed.length = 0;
    return unexpected;
  }
}

/** The site in this process: its server and accounts module are at hand. */
export interface ArchiveSite extends RunningSite {
  server: RunningServer;
  accounts: AccountsModule;
}

/**
 * The site in this process: the server on the built client with the real accounts module (PGlite
 * in a temporary directory, addresses confirmed at sign-up, no AI). Its `accounts` let tests make
 * accounts and store games through `accounts.archive`, and read them in Chromium.
 */
export async function startArchiveSite(): Promise<ArchiveSite> {
  const dataDir = await migratedDataDir('archive-site-');
  let output = '';
  const logger = pino({ level: 'warn' }, { write: (line: string) => { output += line; } });
  // imported here, not at the top: most browser files run the site as a process of its own, and
  // loading the server and the accounts module cost each of those files' workers seconds of CPU
  const [{ createAccounts }, { startServer }] = await Promise.all([import('../../server/accounts'), import('../../server/app')]);
  const accounts = await createAccounts({ logger, dataDir, siteUrl: 'http://127.0.0.1', autoconfirm: true });
  const server = await startServer({ port: 0, host: '127.0.0.1', accounts, logger, staticDir: join(ROOT, 'dist', 'client') });
  return {
    url: server.url, port: server.port, server, accounts, log: () => output,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The record of a finished pool game between `white` and `black` that played `moves`, for `accounts.archive.store`. */
export function storedGame(id: string, white: ArchivedPlayer, black: ArchivedPlayer, moves: string[], end: Pick<FinishedGame, 'winner' | 'reason'>, clocksMs = moves.map(() => 590_000)): FinishedGame {
  const game = new ChessGame();
  for (const m of moves) game.play(m);
  const result = pgnResultTag(end.winner);
  return {
    id, kind: 'pool', white, black, ...end, clockMs: 600_000,
    startedAt: new Date(Date.now() - 300_000), endedAt: new Date(),
    moves, clocksMs, pgn: game.pgn({ White: white.name, Black: black.name, Result: result }),
  };
}

/**
 * What is wrong with the board on a phone-sized page, as a list (empty when nothing is): the page
 * wider than the screen, a file letter outside its own file column or off the board, coordinates
 * under 11 px or not bold (chessground's own are 9 px grey).
 */
export async function boardLayoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) problems.push(`page ${doc.scrollWidth} px wide on a ${window.innerWidth} px screen`);
    const board = document.querySelector('[data-testid="board"] cg-container')?.getBoundingClientRect();
    if (!board) return [...problems, 'no board'];
    const square = board.width / 8;
    const files = Array.from(document.querySelectorAll('[data-testid="board"] coords.files coord'));
    const ranks = Array.from(document.querySelectorAll('[data-testid="board"] coords.ranks coord'));
    if (files.length !== 8 || ranks.length !== 8) problems.push(`${files.length} file and ${ranks.length} rank coordinates`);
    files.forEach((el, i) => {
      const r = el.getBoundingClientRect();
      const text = (el.textContent ?? '').trim();
      const left = board.left + i * square;
      if (r.left < left - 1 || r.left > left + square / 2) problems.push(`file ${text} at x=${Math.round(r.left)}, its column starts at ${Math.round(left)}`);
      if (r.right > board.right + 1 || r.bottom > board.bottom + 1) problems.push(`file ${text} outside the board`);
    });
    for (const el of [...files, ...ranks]) {
      const style = getComputedStyle(el);
      if (parseFloat(style.fontSize) < 11) problems.push(`coordinate ${el.textContent} at ${style.fontSize}`);
      if (Number(style.fontWeight) < 700) problems.push(`coordinate ${el.textContent} not bold (${style.fontWeight})`);
    }
    return problems;
  });
}
