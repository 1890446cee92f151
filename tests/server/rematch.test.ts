/** Rematch offers through the real server: offer, accept with colours swapped, decline, refusals. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { REMATCH_TEXT } from '../../server/round/rematch';
import { TestClient, pairPlayers, playMoves, startTestServer, type Pair } from './helpers';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function endedGame(): Promise<Pair> {
  const p = await pairPlayers(server.url);
  await playMoves(p, ['e2e4', 'e7e5']);
  p.black.send('resign', { gameId: p.gameId });
  await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
  return p;
}

describe('rematch', () => {
  it('starts when both have offered: colours swapped, same clock, a new game', async () => {
    const p = await endedGame();
    p.white.send('offerRematch', { gameId: p.gameId });
    expect(await p.black.next('rematchOffer')).toEqual({ type: 'rematchOffer', gameId: p.gameId });
    expect(await p.white.gets('gameStart', 200)).toBe(false);
    p.black.send('offerRematch', { gameId: p.gameId });
    const [w, b] = await Promise.all([p.white.next('gameStart'), p.black.next('gameStart')]);
    expect(w.gameId).toBe(b.gameId);
    expect(w.gameId).not.toBe(p.gameId);
    expect(w.color).toBe('black');
    expect(b.color).toBe('white');
    expect(w.timerDuration).toBe(600);
    // the new game is live: the old black, now white, moves first
    p.black.send('gameMove', { gameId: b.gameId, move: { from: 'd2', to: 'd4' } });
    await p.white.next('gameMove', (m) => m.gameId === b.gameId);
    await Promise.all([p.white.close(), p.black.close()]);
  });

  it('an accepted offer reaches a player who went back to the queue, and the queue lets them go', async () => {
    const p = await endedGame();
    p.white.send('offerRematch', { gameId: p.gameId });
    await p.black.next('rematchOffer');
    p.white.send('findGame', { username: 'Alice' });
    await p.white.next('matchmakingStatus', (m) => m.status === 'queued');
    p.black.send('offerRematch', { gameId: p.gameId });
    const [w, b] = await Promise.all([p.white.next('gameStart'), p.black.next('gameStart')]);
    expect([w.color, b.color]).toEqual(['black', 'white']);
    // nobody else is paired with the old white from the queue
    const third = await TestClient.connect(server.url);
    third.send('findGame', { username: 'Carol' });
    await third.next('matchmakingStatus', (m) => m.status === 'queued');
    expect(await third.gets('gameStart', 300)).toBe(false);
    await Promise.all([p.white.close(), p.black.close(), third.close()]);
  });

  it('a declined offer tells the player who offered; nothing starts', async () => {
    const p = await endedGame();
    p.black.send('offerRematch', { gameId: p.gameId });
    await p.white.next('rematchOffer');
    p.white.send('declineRematch', { gameId: p.gameId });
    expect(await p.black.next('rematchDeclined')).toEqual({ type: 'rematchDeclined', gameId: p.gameId });
    expect(await p.black.gets('gameStart', 200)).toBe(false);
    await Promise.all([p.white.close(), p.black.close()]);
  });

  it('is refused for a game that is not the player\'s, and when the opponent has left', async () => {
    const p = await endedGame();
    const stranger = await TestClient.connect(server.url);
    stranger.send('offerRematch', { gameId: p.gameId });
    expect(await stranger.next('error')).toMatchObject({ code: 'unknown_game', message: REMATCH_TEXT.unknownGame });
    expect(await p.white.gets('rematchOffer', 200)).toBe(false);
    await p.black.close();
    p.white.send('offerRematch', { gameId: p.gameId });
    expect(await p.white.next('error')).toMatchObject({ code: 'rematch_unavailable', message: REMATCH_TEXT.opponentGone });
    await Promise.all([p.white.close(), stranger.close()]);
  });
});
