/**
 * A live game watched in real Chromium: two players on real sockets play on the built site (its
 * accounts module keeps the archive on PGlite); anyone opening the game's page sees the board,
 * both names and clocks, each move as it is played, the result, and then the archived replay.
 */
import { describe, expect, it } from 'vitest';
import { boardLayoutProblems, pieceOn } from './harness';
import { newPage, site, useSite } from './siteSession';
import { pairPlayers, playMoves, type Pair, type TestClient } from '../server/helpers';

useSite({ AI_ENABLED: '0' });

describe('watching a live game in Chromium', () => {
  it('shows the live game with both names and clocks, each move as it is played, the result, then the replay', async () => {
    const url = site().url;
    const pair: Pair = await pairPlayers(url, ['Alice', 'Bob']);
    await playMoves(pair, ['e2e4']);
    const p = await newPage();
    await p.goto(`${url}/game/${pair.gameId}`);
    await p.getByTestId('live-game').waitFor();
    // colours are drawn at random here: each player's gameStart names the other; both are guests, marked so
    const opponentOf = (c: TestClient) => c.received.find((m) => m.type === 'gameStart')?.opponentName;
    expect(await p.getByTestId('live-name-white').textContent()).toBe(`${opponentOf(pair.black)} (guest)`);
    expect(await p.getByTestId('live-name-black').textContent()).toBe(`${opponentOf(pair.white)} (guest)`);
    expect([opponentOf(pair.black), opponentOf(pair.white)].sort()).toEqual(['Alice', 'Bob']);
    for (const color of ['white', 'black']) expect(await p.getByTestId(`clock-${color}`).textContent()).toMatch(/^\d\d:\d\d$/);
    expect(await p.getByTestId('move-list').textContent()).toContain('e4');
    expect(await p.getByTestId('live-status').textContent()).toBe('Live · Black to move');

    pair.black.send('gameMove', { gameId: pair.gameId, move: { from: 'e7', to: 'e5' } });
    await pair.white.next('gameMove', (m) => m.san === 'e5');
    await expect.poll(() => pieceOn(p, 'e5')).toBe('black pawn');
    expect(await p.getByTestId('move-list').textContent()).toContain('e5');
    expect(await p.getByTestId('live-status').textContent()).toBe('Live · White to move');
    // white's clock runs now, and is drawn as the side to move
    expect(await p.getByTestId('clock-white').getAttribute('class')).toContain('clock-active');

    pair.white.send('resign', { gameId: pair.gameId });
    await pair.black.next('gameEnd');
    // the result, and once the record is stored the archived replay with it
    await p.getByTestId('replay-result').waitFor();
    expect(await p.getByTestId('replay-result').textContent()).toBe('0-1 · Resignation · Casual');
    expect(await p.getByTestId('move-list').textContent()).toContain('e5');
    expect(await p.getByTestId('replay-clock-white').textContent()).toMatch(/^\d\d:\d\d$/);
    // the replay marks the guests too
    for (const name of ['Alice (guest)', 'Bob (guest)']) expect(await p.getByText(name, { exact: true }).count()).toBe(1);
    await Promise.all([pair.white.close(), pair.black.close()]);
  });

  it('on a phone the live board fits the screen, with readable coordinates on their own squares', async () => {
    const url = site().url;
    const pair = await pairPlayers(url, ['Erin', 'Frank']);
    await playMoves(pair, ['d2d4']);
    const p = await newPage('mobile');
    await p.goto(`${url}/game/${pair.gameId}`);
    await p.getByTestId('live-game').waitFor();
    await p.locator('[data-testid="board"] coords.files coord').first().waitFor();
    expect(await boardLayoutProblems(p)).toEqual([]);
    await Promise.all([pair.white.close(), pair.black.close()]);
  });

  it('shows a finished game as the archive has it, as before', async () => {
    const url = site().url;
    const pair = await pairPlayers(url, ['Carol', 'Dave']);
    await playMoves(pair, ['d2d4', 'd7d5']);
    pair.black.send('resign', { gameId: pair.gameId });
    await pair.white.next('gameEnd');
    await Promise.all([pair.white.close(), pair.black.close()]);
    // the server may still be writing the record: wait until the archive answers
    await expect.poll(async () => (await fetch(`${url}/api/games/${pair.gameId}`)).status).toBe(200);
    const p = await newPage();
    await p.goto(`${url}/game/${pair.gameId}`);
    await p.getByTestId('replay-result').waitFor();
    expect(await p.getByTestId('replay-result').textContent()).toBe('1-0 · Resignation · Casual');
    expect(await p.getByTestId('live-game').count()).toBe(0);
  });
});
