/**
 * The archive's pages in real Chromium: a player's profile with a rating and chart per speed
 * played, the game page replaying a stored game (keys, clicks, clocks, PGN download that parses
 * back to the same moves), and the leaderboard's tab per speed. The real server (in-process, the
 * built client, the real accounts module on PGlite) serves them; the game is stored through the
 * server's own archive writer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChessGame } from '../../machines/chess';
import { boardLayoutProblems, clickMove, pieceOn, SCREENSHOT_DIR, storedGame, VIEWPORTS } from './harness';
import { consoleGuard, newAccount, newPage, signIn, site, siteArchive, useSite } from './siteSession';
import { TestClient } from '../server/helpers';
import { ratingDeltaText } from '../../machines/client/ratingText';
import type { RatingChangeMsg } from '../../machines/protocol/messages';
import { TEN_PLIES } from '../archive/ratedMoves';

const MOVES = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'f3g5', 'd7d5', 'e4d5', 'f6d5', 'g5f7'];
const CLOCKS = [600_000, 600_000, 596_000, 595_500, 590_100, 588_000, 581_300, 570_000, 577_700, 561_000, 570_200];

useSite({}, { inProcess: true });

const signUp = async (name: string): Promise<string> => (await newAccount(name)).id;

beforeAll(async () => {
  const [white, black, blitzOpponent] = [await signUp('replay_white'), await signUp('replay_black'), await signUp('blitz_black')];
  await siteArchive().store(storedGame(
    'game_e2ereplay01',
    { name: 'replay_white', accountId: white, guestId: null },
    { name: 'replay_black', accountId: black, guestId: null },
    MOVES,
    { winner: 'white', reason: 'resignation' },
    CLOCKS,
  ));
  // and a 3+2 game: a Blitz rating beside the Rapid one
  const blitz = await siteArchive().store({
    ...storedGame('game_e2eblitz001', { name: 'replay_white', accountId: white, guestId: null }, { name: 'blitz_black', accountId: blitzOpponent, guestId: null },
      TEN_PLIES, { winner: 'black', reason: 'resignation' }, TEN_PLIES.map(() => 170_000)),
    clockMs: 180_000, incrementMs: 2_000,
  });
  expect(blitz.speed).toBe('blitz');
});

describe('archive pages in Chromium', () => {
  it("shows a player's profile with a rating and chart per speed played, and the recent game", async () => {
    const p = await newPage();
    await p.goto(`${site().url}/@/Replay_White`);
    await expect.poll(() => p.getByTestId('profile-name').textContent()).toBe('replay_white');
    // Blitz (lost) above Rapid (won), fastest first; no card for the speeds never played
    const cards = p.locator('[data-testid^="profile-speed-"]');
    await expect.poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(['profile-speed-blitz', 'profile-speed-rapid']);
    expect(await p.getByTestId('profile-speed-blitz').getByRole('heading').textContent()).toBe('Blitz · 1 rated game');
    expect(Number((await p.getByTestId('profile-rating-blitz').textContent())!.replace('?', ''))).toBeLessThan(1500);
    expect(Number((await p.getByTestId('profile-rating-rapid').textContent())!.replace('?', ''))).toBeGreaterThan(1500);
    for (const speed of ['blitz', 'rapid']) {
      const chart = p.getByTestId(`profile-speed-${speed}`).getByTestId('rating-chart');
      expect(await chart.locator('circle').count()).toBe(2);
    }
    expect(await p.getByTestId('profile-speed-rapid').getByTestId('rating-chart').getAttribute('aria-label')).toMatch(/^Rapid rating history: 1 rated game, from 1500 to \d+$/);
    expect(await p.getByTestId('profile-wins').textContent()).toBe('1');
    await p.screenshot({ path: join(SCREENSHOT_DIR, 'profile-desktop.png') });
    // each game names its time control and speed
    expect(await p.getByRole('link', { name: '3+2 Blitz · Rated · 5 moves' }).count()).toBe(1);
    await p.getByRole('link', { name: '10+0 Rapid · Rated · 6 moves' }).click();
    await p.getByTestId('move-list').waitFor();
    expect(new URL(p.url()).pathname).toBe('/game/game_e2ereplay01');
  });

  it("on a phone the profile's games fit the screen and the chart's labels are readable", async () => {
    const p = await newPage('mobile');
    await p.goto(`${site().url}/@/Replay_White`);
    await p.getByTestId('rating-chart').first().waitFor();
    await p.getByRole('link', { name: /Rated · 6 moves/ }).waitFor();
    const layout = await p.evaluate(() => ({
      pageWidth: document.documentElement.scrollWidth,
      // every cell of the games table, right edge, in the screen (a cut table scrolls them out)
      cellsOut: Array.from(document.querySelectorAll('.games-table td')).filter((td) => td.getBoundingClientRect().right > innerWidth + 0.5).map((td) => td.textContent),
      // the chart's labels as drawn: font size times the drawing's scale
      labelPx: Array.from(document.querySelectorAll('[data-testid="rating-chart"] text')).map((t) => {
        const ctm = (t as SVGGraphicsElement).getScreenCTM();
        return Math.round((ctm ? ctm.a : 1) * parseFloat(getComputedStyle(t).fontSize) * 10) / 10;
      }),
    }));
    expect(layout.pageWidth).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
    expect(layout.cellsOut).toEqual([]);
    expect(layout.labelPx.length).toBeGreaterThan(0);
    for (const px of layout.labelPx) expect(px).toBeGreaterThanOrEqual(11);
    await p.screenshot({ path: join(SCREENSHOT_DIR, 'profile-mobile.png'), fullPage: true });
  });

  it('replays the game with keys and clicks, with both clocks at every move', async () => {
    const p = await newPage();
    await p.goto(`${site().url}/game/game_e2ereplay01`);
    const fen = p.getByTestId('replay-fen');
    await fen.waitFor();
    const final = new Chess();
    for (const m of MOVES) final.move({ from: m.slice(0, 2), to: m.slice(2, 4) });
    expect(await fen.inputValue()).toBe(final.fen());
    await p.keyboard.press('Home');
    expect(await fen.inputValue()).toBe(new Chess().fen());
    await p.keyboard.press('ArrowRight');
    await p.keyboard.press('ArrowRight');
    await p.keyboard.press('ArrowRight');
    expect(await p.getByTestId('replay-clock-white').textContent()).toBe('09:56');
    expect(await p.getByTestId('replay-clock-black').textContent()).toBe('10:00');
    await p.getByRole('button', { name: 'Nxf7' }).click();
    expect(await fen.inputValue()).toBe(final.fen());
    expect(await p.getByTestId('replay-clock-white').textContent()).toBe('09:31');
    expect(await p.getByTestId('replay-clock-black').textContent()).toBe('09:21');
    expect(await p.getByTestId('replay-result').textContent()).toContain('1-0');
    await p.screenshot({ path: join(SCREENSHOT_DIR, 'game-replay-desktop.png') });
  });

  it('on a phone the replay fits the screen, with readable coordinates on their own squares', async () => {
    const p = await newPage('mobile');
    await p.goto(`${site().url}/game/game_e2ereplay01`);
    await p.getByTestId('replay-fen').waitFor();
    await p.locator('[data-testid="board"] coords.files coord').first().waitFor();
    expect(await boardLayoutProblems(p)).toEqual([]);
    await p.screenshot({ path: join(SCREENSHOT_DIR, 'game-replay-mobile.png'), fullPage: true });
  });

  it('downloads a PGN that parses back to the same moves', async () => {
    const p = await newPage();
    await p.goto(`${site().url}/game/game_e2ereplay01`);
    await p.getByTestId('move-list').waitFor();
    const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('button', { name: 'Download PGN' }).click()]);
    const path = await download.path();
    const parsed = new Chess();
    parsed.loadPgn(readFileSync(path, 'utf8'));
    expect(parsed.history({ verbose: true }).map((m) => m.lan)).toEqual(MOVES);
    expect(parsed.getHeaders().White).toBe('replay_white');
  });

  it('says when a game or a player does not exist, and lists no provisional rating on the leaderboard', async () => {
    const p = await newPage();
    // the browser reports the not-found pages' 404 answers; nothing else is expected
    consoleGuard.allow(/Failed to load resource: the server responded with a status of 404/);
    await p.goto(`${site().url}/game/game_doesnotexist`);
    await p.getByRole('heading', { name: 'Game not found' }).waitFor();
    await p.goto(`${site().url}/@/nobody_at_all`);
    await p.getByRole('heading', { name: 'No such player' }).waitFor();
    expect(consoleGuard.take()).toEqual([]);
    await p.goto(`${site().url}/leaderboard`);
    await p.getByText('No established ratings yet in Rapid').waitFor();
  });

  it('the leaderboard has a tab per speed, Rapid first; the Bullet tab lists the players established in Bullet', async () => {
    // eleven players meet each other three times in 1+0 games (30 rated games against 10 opponents each), a minute apart, this week
    const names = Array.from({ length: 11 }, (_, i) => `bullet_${i}`);
    const ids = [];
    for (const n of names) ids.push(await signUp(n));
    const start = Date.now() - 3 * 24 * 3_600_000;
    let n = 0;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 11; i++) {
        for (let j = i + 1; j < 11; j++) {
          const [w, b] = round % 2 ? [j, i] : [i, j];
          const at = start + n++ * 60_000;
          const r = await siteArchive().store({
            ...storedGame(`game_e2ebullet${String(n).padStart(3, '0')}`, { name: names[w]!, accountId: ids[w]!, guestId: null }, { name: names[b]!, accountId: ids[b]!, guestId: null },
              TEN_PLIES, { winner: (['white', 'black', 'draw'] as const)[(i + j + round) % 3]!, reason: 'resignation' }, TEN_PLIES.map(() => 50_000)),
            clockMs: 60_000, startedAt: new Date(at - 30_000), endedAt: new Date(at),
          });
          expect(r.speed).toBe('bullet');
        }
      }
    }
    const p = await newPage();
    await p.goto(`${site().url}/leaderboard`);
    const tabs = p.getByRole('tab');
    await expect.poll(() => tabs.allTextContents()).toEqual(['UltraBullet', 'Bullet', 'Blitz', 'Rapid', 'Classical']);
    expect(await p.getByRole('tab', { selected: true }).textContent()).toBe('Rapid');
    await p.getByText('No established ratings yet in Rapid').waitFor();
    await p.getByRole('tab', { name: 'Bullet', exact: true }).click();
    await expect.poll(() => new URL(p.url()).search).toBe('?speed=bullet');
    expect(await p.getByRole('tab', { selected: true }).textContent()).toBe('Bullet');
    const rows = p.getByTestId('leaderboard').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(11);
    expect((await p.getByTestId('leaderboard').locator('tbody tr td:nth-child(2)').allTextContents()).sort()).toEqual([...names].sort());
    expect(await p.getByTestId('leaderboard').locator('thead').textContent()).toContain('Bullet rating');
    await p.screenshot({ path: join(SCREENSHOT_DIR, 'leaderboard-bullet-desktop.png') });
    // a player's profile from the list shows its Bullet rating only
    await p.getByRole('link', { name: 'bullet_0' }).click();
    await p.getByTestId('profile-rating-bullet').waitFor();
    expect(await p.locator('[data-testid^="profile-speed-"]').count()).toBe(1);
  });

  it("the game screen shows both players' ratings, provisional with '?', and each one's change once the game is rated", async () => {
    const me = await newAccount('screen_me');
    const them = await newAccount('screen_them');
    const p = await newPage();
    await signIn(p, me.email);
    await p.goto(`${site().url}/chess/multiplayer`);
    const opponent = await TestClient.connect(site().url);
    opponent.send('identifyUser', { userId: them.id, accessToken: them.accessToken });
    await opponent.next('identified');
    await p.getByRole('button', { name: 'Find Match' }).click();
    opponent.send('findGame', { username: 'screen_them' });
    const start = await opponent.next('gameStart');
    await expect.poll(() => p.getByTestId('opponent-rating').textContent()).toBe(' 1500?');
    expect(await p.getByTestId('my-rating').textContent()).toBe(' 1500?');
    // ten plies make the game count (docs/ratings.md); then the opponent resigns
    const opponentMoves = start.color === 'white' ? 0 : 1;
    for (const [ply, uci] of TEN_PLIES.entries()) {
      const [from, to] = [uci.slice(0, 2), uci.slice(2, 4)];
      if (ply % 2 === opponentMoves) {
        opponent.send('gameMove', { gameId: start.gameId as string, move: { from, to } });
        await expect.poll(() => pieceOn(p, to)).not.toBeNull();
      } else {
        await clickMove(p, from, to);
      }
      await opponent.next('gameMove', (m) => (m.move as { to: string }).to === to);
    }
    opponent.send('resign', { gameId: start.gameId as string });
    const change = (await opponent.next('ratingChange')) as RatingChangeMsg;
    expect(change.speed).toBe('rapid');
    const mine = change[start.color === 'white' ? 'black' : 'white'];
    expect(mine.after).toBeGreaterThan(mine.before);
    await expect.poll(() => p.getByTestId('end-rating-change').textContent()).toBe(`Your Rapid rating: ${Math.round(mine.after)} (${ratingDeltaText(mine)})`);
    expect(await p.getByTestId('my-rating').getByTestId('rating-change').textContent()).toBe(` ${ratingDeltaText(mine)}`);
    expect(await p.getByTestId('opponent-rating').getByTestId('rating-change').textContent()).toMatch(/ \u2212\d+/);
    await p.screenshot({ path: join(SCREENSHOT_DIR, 'game-rating-change-desktop.png') });
    await opponent.close();

    // the end dialog links to the game's page, and the signed-in player's stats come from the archive
    await p.getByTestId('end-game-link').click();
    await expect.poll(() => new URL(p.url()).pathname).toBe(`/game/${start.gameId as string}`);
    await p.getByTestId('move-list').waitFor();
    expect(await p.getByTestId('replay-result').textContent()).toContain('Resignation');
    await p.goto(`${site().url}/chess/stats`);
    await p.getByTestId('account-history').waitFor();
    await expect.poll(() => p.getByTestId('stat-wins').textContent()).toBe('1');
    expect(await p.getByTestId('account-history').getByRole('link', { name: /Rated · 5 moves/ }).count()).toBe(1);
  });

  it('after signing in, offers the guest games only on a device that holds some, on the home page only, and says how many it imported', async () => {
    const p = await newPage();
    let identifiedFrames = 0;
    p.on('websocket', (ws) => ws.on('framereceived', (f) => { if (String(f.payload).includes('"type":"identified"')) identifiedFrames++; }));
    await p.goto(`${site().url}/`);
    // the device's guest identity, as the server issued it on connect
    await expect.poll(() => p.evaluate(() => localStorage.getItem('chess.socketIdentity'))).not.toBeNull();
    const guestId = await p.evaluate(() => (JSON.parse(localStorage.getItem('chess.socketIdentity')!) as { playerId: string }).playerId);
    const game = new ChessGame();
    for (const m of ['e2e4', 'e7e5']) game.play(m);
    await siteArchive().store({
      id: 'game_e2eguest001', kind: 'pool',
      white: { name: 'Device Guest', accountId: null, guestId },
      black: { name: 'Someone', accountId: null, guestId: 'player_someoneelse' },
      winner: 'black', reason: 'resignation', clockMs: 600_000,
      startedAt: new Date(Date.now() - 60_000), endedAt: new Date(),
      moves: ['e2e4', 'e7e5'], clocksMs: [600_000, 600_000], pgn: game.pgn({ Result: '0-1' }),
    });
    const me = await newAccount('import_me');
    await signIn(p, me.email);
    await p.goto(`${site().url}/`);
    // this device played no game as that guest (its history is empty): no offer, once the socket speaks for the account
    await expect.poll(() => identifiedFrames).toBeGreaterThan(0);
    await p.getByText('Signed in as').waitFor();
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await p.getByTestId('guest-import-offer').count()).toBe(0);
    // the guest's game as the game screen keeps it on the device when it ends
    await p.evaluate((id) => localStorage.setItem(`chess.gameHistory:${id}`, JSON.stringify([
      { id: 'game_e2eguest001', date: new Date().toISOString(), playerColor: 'white', result: 'loss', reason: 'resignation', opponentId: 'player_someoneelse' },
    ])), guestId);
    await p.goto(`${site().url}/chess/stats`);
    await p.getByTestId('account-history').waitFor();
    expect(await p.getByTestId('guest-import-offer').count()).toBe(0);
    await p.goto(`${site().url}/`);
    await p.getByTestId('guest-import-offer').waitFor();
    await p.getByRole('button', { name: 'Import games' }).click();
    await expect.poll(() => p.getByTestId('guest-import-result').textContent()).toBe('Imported 1 game you played as a guest on this device.');
    const stored = (await (await fetch(`${site().url}/api/games/game_e2eguest001`)).json()) as { white: { username: string | null } };
    expect(stored.white.username).toBe('import_me');
    // answered: not offered again
    await p.reload();
    await p.getByRole('heading').first().waitFor();
    expect(await p.getByTestId('guest-import-offer').count()).toBe(0);
  });
});
