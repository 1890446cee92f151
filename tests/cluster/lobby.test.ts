/**
 * Custom games and challenges on a site of two nodes in this process, on the test Redis and
 * PostgreSQL: the lobby's list is the same live on every node and a game posted on one is joined
 * from the other; a player who posted through both nodes at once keeps only the newer game; a challenge made on one node is accepted on the other; and a challenge outlives
 * the node its creator was on (Redis keeps it): the creator comes back on the other node, and it
 * is accepted there.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Challenge, Hook } from '../../machines/protocol/messages';
import { ClusterKeys } from '../../server/cluster/keys';
import { redisLobbyStore } from '../../server/cluster/lobbyRecords';
import { lobbyUntil, watchLobby, type Msg } from '../server/helpers';
import { useNodesPerTest } from './nodesPerTest';
import { REDIS_URL, nodeName, until } from './site';

const BULLET = { initial: 60, increment: 1 };

const site = useNodesPerTest();
const nodes = (n: number) => site.start(n, { lobbySweepMs: 50 });

const challengeOf = (m: Msg) => m.challenge as Challenge;

describe('custom games and challenges across two nodes', () => {
  it('lists a game posted on one node live on the other, where it is joined; both players start it', async () => {
    const [a, b] = await nodes(2);
    const ann = await site.connect(a);
    const ben = await site.connect(b);
    const watchers = [await site.connect(a), await site.connect(b)];
    for (const w of [...watchers, ben]) await watchLobby(w);
    ann.send('postHook', { options: { timeControl: BULLET, rated: false, color: 'white' }, username: 'Ann' });
    const lists = await Promise.all([...watchers, ben].map((w) => lobbyUntil(w, 'one game', (h) => h.length === 1)));
    const hook = lists[2][0];
    expect(lists.map((l) => l[0].id)).toEqual([hook.id, hook.id, hook.id]);
    ben.send('joinHook', { hookId: hook.id, username: 'Ben' });
    const [sa, sb] = await Promise.all([ann.next('gameStart'), ben.next('gameStart')]);
    expect(sa.gameId).toBe(sb.gameId);
    expect(sa).toMatchObject({ color: 'white', opponentName: 'Ben', timeControl: BULLET });
    expect(sb).toMatchObject({ color: 'black', opponentName: 'Ann', timeControl: BULLET });
    await Promise.all(watchers.map((w) => lobbyUntil(w, 'no game', (h) => h.length === 0)));
    // the game plays across the nodes
    ann.send('gameMove', { gameId: sa.gameId, move: { from: 'e2', to: 'e4' } });
    await ben.next('gameMove');
  });

  it('sends a watcher on either node only what changes; after posts, a replacement and a cancel on both nodes it holds the list a new watcher gets', async () => {
    const [a, b] = await nodes(2);
    const watchers = [await site.connect(a), await site.connect(b)];
    for (const w of watchers) expect(await watchLobby(w)).toEqual([]);
    const posters = [await site.connect(a), await site.connect(b), await site.connect(a), await site.connect(b)];
    posters.forEach((p, i) => p.send('postHook', { options: { timeControl: { initial: 60 * (i + 1), increment: 0 }, rated: false, color: 'white' } }));
    await Promise.all(watchers.map((w) => lobbyUntil(w, 'four games', (h) => h.length === 4)));
    posters[1].send('postHook', { options: { timeControl: BULLET, rated: false, color: 'black' } });
    posters[2].send('cancelHook');
    const expected = (h: Hook[]) => h.length === 3 && h.some((x) => x.color === 'black') && !h.some((x) => x.by.id === posters[2].playerId);
    const held = await Promise.all(watchers.map((w) => lobbyUntil(w, 'the replacement and the cancel', expected)));
    for (const node of [a, b]) expect(await watchLobby(await site.connect(node))).toEqual(held[0]);
    expect(held[1]).toEqual(held[0]);
    for (const w of watchers) expect(w.received.filter((m) => m.type === 'lobbyHooks')).toHaveLength(1);
  });

  it('leaves one game of a player who posted through both nodes at the same instant: the newer', async () => {
    const [a, b] = await nodes(2);
    const ann = await site.connect(a);
    const watcher = await site.connect(b);
    await watchLobby(watcher);
    ann.send('postHook', { options: { timeControl: BULLET, rated: false, color: 'white' } });
    const [posted] = await lobbyUntil(watcher, "Ann's game", (h) => h.length === 1);
    // Ann's second game, as node b posts it when Ann's second socket is there for a moment and b
    // read the lobby before her first game was in it (so it replaced nothing)
    const redis = new Redis(REDIS_URL);
    try {
      const store = redisLobbyStore(redis, new ClusterKeys(site.options().prefix), pino({ level: 'silent' }));
      const twin: Hook = { ...posted, id: 'hook_twin', timeControl: { initial: 180, increment: 0 }, createdAt: posted.createdAt + 1 };
      await store.hooks.seen([twin.id], { at: Date.now(), node: await nodeName(b) });
      await store.hooks.put(twin);
      store.announce({ k: 'hooks' });
      await lobbyUntil(watcher, 'one game of hers, the newer', (h) => h.length === 1 && h[0].id === twin.id);
      expect(await store.hooks.all()).toEqual([twin]);
    } finally {
      redis.disconnect();
    }
  });

  it('accepts on one node a challenge made on the other; the creator sees it accepted and both start', async () => {
    const [a, b] = await nodes(2);
    const ann = await site.connect(a);
    const ben = await site.connect(b);
    ann.send('createChallenge', { options: { timeControl: BULLET, rated: false, color: 'black' }, username: 'Ann' });
    const c = challengeOf(await ann.next('challenge'));
    ben.send('watchChallenge', { challengeId: c.id });
    expect(challengeOf(await ben.next('challenge'))).toEqual(c);
    ben.send('acceptChallenge', { challengeId: c.id, username: 'Ben' });
    const [sa, sb] = await Promise.all([ann.next('gameStart'), ben.next('gameStart')]);
    expect(sa.gameId).toBe(sb.gameId);
    expect(sa).toMatchObject({ color: 'black', timeControl: BULLET });
    expect(challengeOf(await ann.next('challenge', (m) => challengeOf(m).status === 'accepted'))).toMatchObject({ gameId: sa.gameId });
  });

  it('keeps a challenge when the node its creator was on stops: the creator comes back on the other node and it is accepted', async () => {
    const [a, b] = await nodes(2);
    const ann = await site.connect(a);
    ann.send('createChallenge', { options: { timeControl: BULLET, rated: false, color: 'white' }, username: 'Ann' });
    const c = challengeOf(await ann.next('challenge'));
    const annId = { playerId: ann.playerId, secret: ann.secret };
    await ann.close();
    await a.close();
    const back = await site.connect(b, annId);
    expect(back.playerId).toBe(annId.playerId);
    const ben = await site.connect(b);
    ben.send('watchChallenge', { challengeId: c.id });
    expect(challengeOf(await ben.next('challenge')).status).toBe('created');
    // a node that may not start games (its lease uncertain while the other leaves) refuses, as it refuses a search
    await until('the remaining node may start games', async () => ((await (await fetch(b.url + '/healthz')).json()) as { lease: boolean }).lease);
    ben.send('acceptChallenge', { challengeId: c.id });
    const [sa, sb] = await Promise.all([back.next('gameStart'), ben.next('gameStart')]);
    expect(sa.gameId).toBe(sb.gameId);
    expect(sa.color).toBe('white');
  });
});
