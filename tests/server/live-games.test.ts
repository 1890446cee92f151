/**
 * The site's list of live games and spectator counts on the real server with real WebSocket
 * clients (docs/protocol.md, "Live games"): a follower gets the list, then each game as it
 * starts, moves and ends; a spectator is counted, to the players and the spectators; an
 * unfollowed list sends nothing more.
 */
import { expect, it } from 'vitest';
import { liveListUntil, pairPlayers, playMoves, useServerPerTest } from './helpers';

const site = useServerPerTest();

it('lists a live game with its players, time control and moves, counts its spectators, and drops it at its end', async () => {
  const server = await site.start();
  const follower = await site.connect();
  follower.send('watchLiveGames');
  expect((await follower.next('liveGames')).games).toEqual([]);

  const pair = await pairPlayers(server.url, ['Alice', 'Bob']);
  site.track(pair.white, pair.black);
  const [listed] = await liveListUntil(follower, 'the new game', (l) => l.some((g) => g.gameId === pair.gameId));
  expect(listed).toMatchObject({
    gameId: pair.gameId,
    white: { name: 'Alice', guest: true, rating: null },
    black: { name: 'Bob', guest: true, rating: null },
    timeControl: { initial: 600, increment: 0 },
    moves: 0,
    spectators: 0,
  });

  await playMoves(pair, ['e2e4', 'c7c5']);
  const [moved] = await liveListUntil(follower, 'two moves', (l) => l[0]?.moves === 2);
  expect(moved.lastMove).toBe('c7c5');
  expect(moved.fen).toBe('rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');

  // a spectator is counted: in the list, to both players and to the spectator
  const spectator = await site.connect();
  spectator.send('watchGame', { gameId: pair.gameId });
  await spectator.next('watchStart');
  await liveListUntil(follower, 'one spectator', (l) => l[0]?.spectators === 1);
  for (const c of [pair.white, pair.black, spectator]) expect((await c.next('spectators')).count).toBe(1);
  // a player who comes back (a reload) is told the count at once
  const back = await site.connect({ playerId: pair.white.playerId, secret: pair.white.secret });
  back.send('rejoinGame', { gameId: pair.gameId });
  expect(await back.next('spectators')).toEqual({ type: 'spectators', gameId: pair.gameId, count: 1 });
  await back.next('gameStart');
  await spectator.close();
  for (const c of [back, pair.black]) expect((await c.next('spectators', (m) => m.count === 0)).gameId).toBe(pair.gameId);

  pair.black.send('resign', { gameId: pair.gameId });
  await liveListUntil(follower, 'no game', (l) => l.length === 0);

  // unfollowed: another game starts, and the list's changes no longer come
  follower.send('unwatchLiveGames');
  await follower.roundTrip();
  follower.drain();
  const second = await pairPlayers(server.url, ['Carol', 'Dan']);
  site.track(second.white, second.black);
  const other = await site.connect();
  other.send('watchLiveGames');
  await liveListUntil(other, 'the second game', (l) => l.some((g) => g.gameId === second.gameId));
  expect(await follower.gets('liveGamesChanged', 1500)).toBe(false);
});
