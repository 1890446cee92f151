/**
 * Watching in real Chromium against the built site: a game's address, shared by its player,
 * opened in a third browser that watches it live (and is counted on the players' page); the
 * live games list; TV on the best game, moving on to the next one when it ends.
 */
import { describe, expect, it } from 'vitest';
import { pieceOn } from './harness';
import { newPage, play, resign, shoot, site, startMultiplayer, useSite } from './siteSession';
import { pairPlayers, playMoves, type Pair } from '../server/helpers';

useSite();

describe('watching', () => {
  it('a game has its address: a third browser opens the shared address and watches it live, counted on the players’ page', async () => {
    const pages = await startMultiplayer();
    const { white, black } = pages;
    // both players are at the game's address
    await expect.poll(() => new URL(white.url()).pathname).toMatch(/^\/game\/\S+$/);
    const address = new URL(white.url()).pathname;
    await expect.poll(() => new URL(black.url()).pathname).toBe(address);

    // Share copies it
    await white.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site().url });
    await white.getByTestId('share-game').click();
    await white.getByTestId('share-game').filter({ hasText: 'Copied' }).waitFor();
    const shared = await white.evaluate(() => navigator.clipboard.readText());
    expect(shared).toBe(`${site().url}${address}`);

    await play(pages, 'e2e4');
    const third = await newPage();
    await third.goto(shared);
    await third.getByTestId('live-game').waitFor({ timeout: 15_000 });
    await expect.poll(() => pieceOn(third, 'e4')).toBe('white pawn');
    // the watcher is counted, for itself and for both players
    for (const p of [third, white, black]) await p.getByTestId('spectator-count').filter({ hasText: '1 spectator' }).waitFor({ timeout: 10_000 });
    await shoot(third, 'watch-game');

    // a move reaches the watcher; the end too, then the replay at the same address
    await play({ white: black, black: white }, 'e7e5');
    await expect.poll(() => pieceOn(third, 'e5')).toBe('black pawn');
    await resign(black);
    // the end reaches the watcher, and once the game is stored the same address is its replay
    await third.getByTestId('replay-result').filter({ hasText: /resignation/i }).waitFor({ timeout: 15_000 });
    expect(new URL(third.url()).pathname).toBe(address);
  }, 90_000);

  it('lists the live games, and TV shows the best one and moves on to the next when it ends', async () => {
    const tv = await newPage();
    await tv.goto(`${site().url}/tv`);
    await tv.getByTestId('tv-idle').waitFor();
    // two games of guests: the one further along is the better (ties of rating go to the game with more moves)
    const first = await pairPlayers(site().url, ['Magnus', 'Hikaru']);
    const second = await pairPlayers(site().url, ['Judit', 'Alireza']);
    await playMoves(first, ['e2e4', 'e7e5', 'g1f3']);
    await playMoves(second, ['d2d4']);
    const shown = () => tv.getByTestId('tv').getAttribute('data-game-id');
    await expect.poll(shown).toBe(first.gameId);
    await expect.poll(() => pieceOn(tv, 'f3')).toBe('white knight');
    // (colours are drawn at random on the site)
    for (const name of ['Magnus', 'Hikaru']) await tv.getByTestId('live-game').getByText(name, { exact: false }).first().waitFor();
    await tv.getByTestId('spectator-count').filter({ hasText: '1 spectator' }).waitFor({ timeout: 10_000 });
    await shoot(tv, 'tv');

    // the list of live games: both, the further one first
    const list = await newPage();
    await list.goto(`${site().url}/games`);
    await expect.poll(() => list.getByTestId('live-game-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-game-id'))))
      .toEqual([first.gameId, second.gameId]);
    await expect.poll(() => list.getByTestId('live-moves').first().textContent()).toBe('3 moves');

    // the shown game ends: its result stays a moment, then TV moves on to the other
    first.black.send('resign', { gameId: first.gameId });
    await tv.getByTestId('live-status').filter({ hasText: /resign/i }).waitFor({ timeout: 10_000 });
    await expect.poll(shown, { timeout: 15_000 }).toBe(second.gameId);
    await expect.poll(() => pieceOn(tv, 'd4')).toBe('white pawn');
    await expect.poll(() => list.getByTestId('live-game-row').count()).toBe(1);

    second.white.send('resign', { gameId: second.gameId });
    await tv.getByTestId('tv-idle').waitFor({ timeout: 15_000 });
    await list.getByTestId('no-live-games').waitFor({ timeout: 10_000 });
    for (const pair of [first, second] as Pair[]) await Promise.all([pair.white.close(), pair.black.close()]);
  }, 90_000);
});
