/**
 * Two nodes of one site in this process, on the test Redis and PostgreSQL: players on different
 * nodes are paired with each other and play through Redis; the players-online count is the
 * site's; a second socket on the other node takes the seat.
 */
import type { GuestCredentials } from '../../machines/protocol/guestClaim';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { RunningServer } from '../../server/app';
import { REPLACED_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import { Redis } from 'ioredis';
import { ClusterKeys } from '../../server/cluster/keys';
import { TestClient, playMoves, startTestServer, type Msg, type Pair } from '../server/helpers';
import { REDIS_URL, nodeName, testSite, type TestSite } from './site';

let site: TestSite;
const servers: RunningServer[] = [];
const clients: TestClient[] = [];

async function nodes(n: number): Promise<RunningServer[]> {
  site = testSite();
  for (let i = 0; i < n; i++) servers.push(await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32) }));
  return servers;
}

async function connect(server: RunningServer, guest: GuestCredentials | null = null): Promise<TestClient> {
  const c = await TestClient.connect(server.url, guest);
  clients.push(c);
  return c;
}

/** `first` searches, then `second`: they are paired (the first gets white) into one game. */
async function pair(first: TestClient, second: TestClient): Promise<{ p: Pair; starts: [Msg, Msg] }> {
  first.send('findGame', { username: 'Alice' });
  await first.next('matchmakingStatus', (m) => m.status === 'queued');
  second.send('findGame', { username: 'Bob' });
  const starts = (await Promise.all([first.next('gameStart'), second.next('gameStart')])) as [Msg, Msg];
  expect(starts[0].gameId).toBe(starts[1].gameId);
  const white = starts[0].color === 'white' ? first : second;
  return { p: { white, black: white === first ? second : first, gameId: starts[0].gameId as string }, starts };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await site?.destroy();
});

describe('two nodes on Redis', () => {
  it('pairs players on different nodes and plays their game to the end through Redis', async () => {
    const [a, b] = await nodes(2);
    const alice = await connect(a);
    const bob = await connect(b);
    const { p, starts } = await pair(alice, bob);
    expect(starts[0].opponentName).toBe('Bob');
    expect(starts[1].opponentName).toBe('Alice');
    const { white, black } = p;
    // fool's mate: both see every move, then the end
    await playMoves(p, ['f2f3', 'e7e5', 'g2g4']);
    black.send('gameMove', { gameId: p.gameId, move: { from: 'd8', to: 'h4' } });
    const [ew, eb] = await Promise.all([white.next('gameEnd'), black.next('gameEnd')]);
    expect(ew).toMatchObject({ winner: 'black', reason: 'checkmate' });
    expect(eb).toMatchObject({ winner: 'black', reason: 'checkmate' });
    // exactly one of the two nodes played it
    expect(servers.map((s) => s.stats().liveGames)).toEqual([0, 0]);
  });

  it('answers a remote player\'s illegal move and foreign game id as it answers a local one', async () => {
    const [a, b] = await nodes(2);
    const { p } = await pair(await connect(a), await connect(b));
    const white = p.white;
    white.send('gameMove', { gameId: p.gameId, move: { from: 'e2', to: 'e5' } });
    const rejected = await white.next('moveRejected');
    expect(rejected.gameId).toBe(p.gameId);
    white.send('resign', { gameId: 'game_someoneelse' });
    expect((await white.next('error')).code).toMatch(/unknown_game|not_your_game/);
  });

  it('carries the players\' chat and a takeback between nodes: both players get each line, whichever node plays the game', async () => {
    const [a, b] = await nodes(2);
    const { p } = await pair(await connect(a), await connect(b));
    for (const [from, text] of [[p.white, 'hi from white'], [p.black, 'hi from black']] as const) {
      from.send('chatSend', { gameId: p.gameId, room: 'player', text });
      const [w, bl] = await Promise.all([p.white.next('chatMessage'), p.black.next('chatMessage')]);
      expect(w).toEqual(bl);
      expect(w).toMatchObject({ room: 'player', text, color: from === p.white ? 'white' : 'black' });
    }
    await playMoves(p, ['e2e4', 'e7e5']);
    p.black.send('proposeTakeback', { gameId: p.gameId });
    await p.white.next('takebackOffer');
    p.white.send('acceptTakeback', { gameId: p.gameId });
    const [w, bl] = await Promise.all([p.white.next('takeback'), p.black.next('takeback')]);
    expect(w).toEqual(bl);
    expect(w).toMatchObject({ plies: 1, seq: 1, turn: 'black' });
  });

  it('counts the players of the whole site', async () => {
    const [a, b] = await nodes(2);
    await connect(a);
    await connect(b);
    const third = await connect(b);
    // each node counts its own and reads the others' at its next beat (every second)
    await third.next('playerCount', (m: Msg) => m.count === 3, 5000);
  });

  it('gives the seat to a newer socket on the other node, which plays on', async () => {
    const [a, b] = await nodes(2);
    const { p } = await pair(await connect(a), await connect(a));
    const { white, black } = p;
    // white comes back on node b with the same identity: the old socket is replaced
    const again = await connect(b, { playerId: white.playerId, secret: white.secret });
    expect(await white.closed).toMatchObject({ code: REPLACED_CLOSE_CODE });
    again.send('rejoinGame', { gameId: p.gameId });
    const start = await again.next('gameStart');
    expect(start).toMatchObject({ gameId: p.gameId, color: 'white' });
    await playMoves({ white: again, black, gameId: p.gameId }, ['e2e4', 'e7e5']);
  });
});

describe('a player who missed the end of a game played on another node', () => {
  it('is told how it ended when they come back on any node and ask for it', async () => {
    const [a, b] = await nodes(2);
    const { p } = await pair(await connect(a), await connect(a));
    await playMoves(p, ['e2e4', 'e7e5']);
    // black's socket drops; white resigns meanwhile, on node a, which keeps the end
    await p.black.close();
    p.white.send('resign', { gameId: p.gameId });
    await p.white.next('gameEnd');
    // black comes back through node b, which never played the game
    const back = await connect(b, { playerId: p.black.playerId, secret: p.black.secret });
    back.send('rejoinGame', { gameId: p.gameId });
    expect(await back.next('gameEnd')).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'resignation' });
    // a game nobody played anywhere is still not found
    back.send('rejoinGame', { gameId: 'game_nowhere' });
    expect(await back.next('error')).toMatchObject({ code: 'unknown_game' });
  });
});

describe('a late request to close an older socket', () => {
  it('leaves the newer socket open: the player connected elsewhere, then here again', async () => {
    const [a, b] = await nodes(2);
    const keys = new ClusterKeys(site.options.prefix);
    const redis = new Redis(REDIS_URL);
    try {
      // the player's socket on node b, then a newer one on node a, which takes the seat
      const first = await connect(b);
      const firstOrder = Number(await redis.get(keys.socketOrder));
      const again = await connect(a, { playerId: first.playerId, secret: first.secret });
      expect(await first.closed).toMatchObject({ code: REPLACED_CLOSE_CODE });
      // node b's request to close the socket older than its own reaches node a only now
      const channel = keys.channel(await nodeName(a));
      await redis.publish(channel, JSON.stringify({ k: 'replace', n: await nodeName(b), p: first.playerId, o: firstOrder }));
      // a frame sent after it reaches the socket, so the late request has been handled: the socket is still open
      await redis.publish(channel, JSON.stringify({ k: 'frame', p: first.playerId, t: JSON.stringify({ type: 'playerCount', count: 99 }) }));
      await again.next('playerCount', (m) => m.count === 99);
      expect(again.received.filter((m) => m.type === 'error')).toEqual([]);
      again.send('checkActiveGame', {});
      expect(await again.next('activeGameStatus')).toMatchObject({ gameId: null });
    } finally {
      redis.disconnect();
    }
  });
});

describe('a node leaving the site', () => {
  it('has its games taken over by the other node; a game whose log is damaged ends as aborted, the others go on', async () => {
    const [a, b] = await nodes(2);
    const games: Pair[] = [];
    for (let i = 0; i < 2; i++) {
      const { p } = await pair(await connect(a), await connect(b));
      await playMoves(p, ['e2e4', 'e7e5']);
      games.push(p);
    }
    const [damaged, healthy] = games;
    // the first game's log loses a row, as a damaged store would
    const db = new pg.Client({ connectionString: site.options.databaseUrl });
    await db.connect();
    await db.query(`DELETE FROM "${site.options.databaseSchema}".game_log WHERE game_id = $1 AND seq = 1`, [damaged.gameId]);
    await db.end();
    // node a stops (its players' sockets there close); node b takes its games over
    await servers.shift()!.close();
    const end = await damaged.black.next('gameEnd', (m) => m.gameId === damaged.gameId, 15_000);
    expect(end).toMatchObject({ reason: 'aborted' });
    const back = await healthy.black.next('gameStart', (m) => m.gameId === healthy.gameId, 15_000);
    expect((back.currentState as { moves: unknown[] }).moves).toHaveLength(2);
    expect(b.stats().liveGames).toBe(1);
  }, 30_000);
});

describe('across nodes, after a game and between pools', () => {
  it('plays a rematch of a game across nodes: both offer, the colours swap, the new game is live', async () => {
    const [a, b] = await nodes(2);
    const { p } = await pair(await connect(a), await connect(b));
    p.white.send('resign', { gameId: p.gameId });
    await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
    p.black.send('offerRematch', { gameId: p.gameId });
    expect(await p.white.next('rematchOffer')).toMatchObject({ gameId: p.gameId });
    p.white.send('offerRematch', { gameId: p.gameId });
    const [w, bl] = await Promise.all([p.white.next('gameStart'), p.black.next('gameStart')]);
    expect(w.gameId).toBe(bl.gameId);
    expect(w.gameId).not.toBe(p.gameId);
    expect([w.color, bl.color]).toEqual(['black', 'white']);
    await playMoves({ white: p.black, black: p.white, gameId: w.gameId as string }, ['d2d4', 'd7d5']);
  });

  it('hands a searching player to the node that runs the pool next when the old one leaves', async () => {
    const [a, b] = await nodes(2);
    // node a started first and runs the pool; a player on b searches there
    const waiting = await connect(b);
    waiting.send('findGame', { username: 'Wanda' });
    await waiting.next('matchmakingStatus', (m) => m.status === 'queued');
    // node a leaves (it gives the role up); b takes the pool over with its searching player in it
    await servers.shift()!.close();
    const newcomer = await connect(b);
    const until = performance.now() + 10_000;
    let start: Msg | null = null;
    while (!start && performance.now() < until) {
      newcomer.send('findGame', { username: 'Nick' });
      start = await newcomer.next('gameStart', () => true, 1000).catch(() => null);
      if (!start) {
        newcomer.send('cancelMatchmaking');
        await newcomer.next('matchmakingStatus', (m) => m.status === 'canceled');
      }
    }
    expect(start).toMatchObject({ opponentName: 'Wanda' });
    expect(await waiting.next('gameStart')).toMatchObject({ gameId: start!.gameId, opponentName: 'Nick' });
    expect(a.stats().connections).toBe(0);
  }, 20_000);
});

describe('a node of the players dying', () => {
  it('starts the disconnect grace of a player whose socket was on a node that left', async () => {
    const [a] = await nodes(2);
    const { p } = await pair(await connect(a), await connect(servers[1]));
    // black's node leaves without a word about its sockets (as a killed node would)
    await servers.pop()!.close();
    const notice = await p.white.next('opponentDisconnected', (m) => m.gameId === p.gameId, 10_000);
    expect(notice.message).toMatch(/seconds to come back/);
  }, 15_000);
});
