/**
 * A socket's first moments on a site of several nodes. A socket is open at once, and the node
 * then asks Redis where the player's previous socket and live game are ("locating" it). What
 * the player sends meanwhile, and what other nodes ask meanwhile, must wait for the answer:
 * these tests make the wait as long as they need by keeping Redis's answers to one node's
 * commands back (a relay in front of Redis), while its subscription still delivers messages.
 */
import type { GuestCredentials } from '../../machines/protocol/guestClaim';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { RunningServer } from '../../server/app';
import { REPLACED_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import { ClusterKeys } from '../../server/cluster/keys';
import { TestClient, pairPlayers, playMoves, startTestServer } from '../server/helpers';
import { REDIS_URL, nodeName, testSite, type TestSite } from './site';
import { RedisProxy, hostPort } from './redisProxy';

const SECRET = 'x'.repeat(32);
let site: TestSite;
let proxy: RedisProxy;
const servers: RunningServer[] = [];
const clients: TestClient[] = [];

afterEach(async () => {
  proxy?.releaseReplies('commands');
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await proxy?.stop();
  await site?.destroy();
});

/** Node a on Redis directly, node b through the relay. */
async function twoNodes(): Promise<{ a: RunningServer; b: RunningServer }> {
  site = testSite();
  proxy = new RedisProxy(hostPort(REDIS_URL));
  await proxy.start();
  const a = await startTestServer({ cluster: site.options, serverSecret: SECRET });
  const b = await startTestServer({ cluster: { ...site.options, redisUrl: proxy.url }, serverSecret: SECRET });
  servers.push(a, b);
  return { a, b };
}

async function connect(server: RunningServer, guest: GuestCredentials | null = null): Promise<TestClient> {
  const c = await TestClient.connect(server.url, guest);
  clients.push(c);
  return c;
}

const errorsOf = (c: TestClient) => c.received.filter((m) => m.type === 'error' || m.type === 'moveRejected');

describe('while a socket is being located', () => {
  it('a move sent the moment a player comes back through another node waits, then reaches the game there', async () => {
    const { a, b } = await twoNodes();
    const p = await pairPlayers(a.url);
    clients.push(p.white, p.black);
    await playMoves(p, ['e2e4']);
    await p.black.close();
    // black comes back through node b, whose commands get no answer yet: the site cannot say
    // where black's game is, and the move black sends at once must wait for it
    proxy.holdReplies('commands');
    const back = await connect(b, { playerId: p.black.playerId, secret: p.black.secret });
    back.send('gameMove', { gameId: p.gameId, move: { from: 'e7', to: 'e5' } });
    back.send('checkActiveGame', {});
    proxy.releaseReplies('commands');
    const seen = await p.white.next('gameMove', (m) => (m.move as { from: string }).from === 'e7');
    expect(seen).toMatchObject({ gameId: p.gameId, move: { from: 'e7', to: 'e5' } });
    // the question sent after it waited too, and is answered with the game
    expect(await back.next('activeGameStatus')).toMatchObject({ gameId: p.gameId });
    expect(errorsOf(back)).toEqual([]);
  });

  it('a late request to close the older socket, arriving meanwhile, leaves the newer socket open', async () => {
    const { a, b } = await twoNodes();
    const keys = new ClusterKeys(site.options.prefix);
    const redis = new Redis(REDIS_URL);
    try {
      const first = await connect(a);
      const firstOrder = Number(await redis.get(keys.socketOrder));
      proxy.holdReplies('commands');
      const again = await connect(b, { playerId: first.playerId, secret: first.secret });
      // node a's request to close a socket older than its own reaches node b while b is still
      // locating the newer socket; a frame published after it arrives after it
      const channel = keys.channel(await nodeName(b));
      await redis.publish(channel, JSON.stringify({ k: 'replace', n: await nodeName(a), p: first.playerId, o: firstOrder }));
      await redis.publish(channel, JSON.stringify({ k: 'frame', p: first.playerId, t: JSON.stringify({ type: 'playerCount', count: 99 }) }));
      await again.next('playerCount', (m) => m.count === 99);
      proxy.releaseReplies('commands');
      // located: the socket on b is the newer one, so it stays and the one on a is closed
      expect(await first.closed).toMatchObject({ code: REPLACED_CLOSE_CODE });
      again.send('checkActiveGame', {});
      expect(await again.next('activeGameStatus')).toMatchObject({ gameId: null });
      expect(errorsOf(again)).toEqual([]);
      expect(again.closeCode).toBeNull();
    } finally {
      redis.disconnect();
    }
  });
});
