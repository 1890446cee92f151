/** Identity, reconnection, two sockets of one player, player count, HTTP endpoints. */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RunningServer } from '../../server/app';
import WebSocket from 'ws';
import { TestClient, startTestServer, useTestClock } from './helpers';
import { guestCookieHeader, guestProtocol, type GuestCredentials } from '../../machines/protocol/guestClaim';

/**
 * A socket opened at exactly `url` (the test client never puts a secret in it), offering
 * `protocols`, with its first frame's player id and the frames after it.
 */
async function rawSocket(url: string, cookie?: GuestCredentials, protocols: string[] = []): Promise<{ ws: WebSocket; playerId: string; received: Frame[] }> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), protocols, cookie ? { headers: { Cookie: guestCookieHeader(cookie) } } : {});
  const received: Frame[] = [];
  ws.on('message', (data) => received.push(JSON.parse(String(data)) as Frame));
  await new Promise((resolve, reject) => {
    ws.once('message', resolve);
    ws.once('error', reject);
  });
  return { ws, playerId: received[0].playerId ?? '', received };
}
type Frame = { type: string; playerId?: string; code?: string };

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('identity on the socket', () => {
  it('gives a new guest an id, a count and a secret', async () => {
    const c = await TestClient.connect(server.url);
    expect(c.playerId).toMatch(/^player_[A-Za-z0-9_-]+$/);
    expect(c.secret.length).toBeGreaterThan(20);
    const ack = c.received[0];
    expect(ack.count).toBeGreaterThanOrEqual(1);
    await c.close();
  });

  it('gives a reconnecting guest the same id when the secret is right', async () => {
    const a = await TestClient.connect(server.url);
    await a.close();
    const again = await TestClient.connect(server.url, { playerId: a.playerId, secret: a.secret });
    expect(again.playerId).toBe(a.playerId);
    expect(again.secret).toBe(a.secret);
    expect(again.received.some((m) => m.type === 'error')).toBe(false);
    await again.close();
  });

  it('refuses a forged secret: a fresh id and an error', async () => {
    const a = await TestClient.connect(server.url);
    const forged = await TestClient.connect(server.url, { playerId: a.playerId, secret: 'not-the-secret' });
    expect(forged.playerId).not.toBe(a.playerId);
    const err = await forged.next('error');
    expect(err.code).toBe('identity_rejected');
    // the real owner is untouched
    a.send('checkActiveGame', {});
    expect((await a.next('activeGameStatus')).gameId).toBeNull();
    await Promise.all([a.close(), forged.close()]);
  });

  it('still accepts the old form in the URL, counting each form; the cookie wins over the URL', async () => {
    const a = await TestClient.connect(server.url);
    await a.close();
    const old = await rawSocket(`${server.url}/socket?playerId=${a.playerId}&secret=${a.secret}`);
    expect(old.playerId).toBe(a.playerId);
    old.ws.close();
    const b = await TestClient.connect(server.url);
    await b.close();
    const both = await rawSocket(`${server.url}/socket?playerId=${a.playerId}&secret=${a.secret}`, { playerId: b.playerId, secret: b.secret });
    expect(both.playerId).toBe(b.playerId);
    both.ws.close();
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/chess_guest_claims_total\{form="url"\} 1\b/);
    expect(metrics).toMatch(/chess_guest_claims_total\{form="cookie"\} [1-9]/);
  });

  it('takes the identity a browser offers as the subprotocol, which the answer names even when the secret is wrong', async () => {
    const a = await TestClient.connect(server.url);
    await a.close();
    const offered = guestProtocol({ playerId: a.playerId, secret: a.secret });
    const back = await rawSocket(`${server.url}/socket`, undefined, ['chat', offered]);
    expect(back.playerId).toBe(a.playerId);
    expect(back.ws.protocol).toBe(offered);
    back.ws.close();
    // a browser fails a socket whose answer names no protocol it offered: a refused identity is still answered
    const forgedProtocol = guestProtocol({ playerId: a.playerId, secret: 'not-the-secret' });
    const forged = await rawSocket(`${server.url}/socket`, undefined, [forgedProtocol]);
    expect(forged.playerId).not.toBe(a.playerId);
    expect(forged.ws.protocol).toBe(forgedProtocol);
    await expect.poll(() => forged.received.map((m) => m.code)).toContain('identity_rejected');
    forged.ws.close();
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/chess_guest_claims_total\{form="protocol"\} [1-9]/);
  });

  it("refuses another player's guest secret", async () => {
    const a = await TestClient.connect(server.url);
    const b = await TestClient.connect(server.url);
    const thief = await TestClient.connect(server.url, { playerId: a.playerId, secret: b.secret });
    expect(thief.playerId).not.toBe(a.playerId);
    expect(thief.playerId).not.toBe(b.playerId);
    expect((await thief.next('error')).code).toBe('identity_rejected');
    expect(a.closeCode).toBeNull();
    await Promise.all([a.close(), b.close(), thief.close()]);
  });

  it('refuses a message that names another player id', async () => {
    const a = await TestClient.connect(server.url);
    const b = await TestClient.connect(server.url);
    b.send('checkActiveGame', { playerId: a.playerId });
    const err = await b.next('error');
    expect(err.code).toBe('foreign_identity');
    await Promise.all([a.close(), b.close()]);
  });

  it('lets the newer socket of one player take the seat and closes the older one', async () => {
    const first = await TestClient.connect(server.url);
    const second = await TestClient.connect(server.url, { playerId: first.playerId, secret: first.secret });
    expect(second.playerId).toBe(first.playerId);
    const err = await first.next('error');
    expect(err.code).toBe('replaced');
    const closed = await first.closed;
    expect(closed.code).toBe(4001);
    // the newer socket works
    second.send('findGame', { username: 'Tab Two' });
    expect((await second.next('matchmakingStatus')).status).toBe('queued');
    second.send('cancelMatchmaking');
    expect((await second.next('matchmakingStatus')).status).toBe('canceled');
    await second.close();
  });
});

describe('playerCount', () => {
  it('is broadcast when the number of players changes', async () => {
    // A server of its own: on the shared one, a socket an earlier test closed may still be
    // counted when this test reads its first count, and leave only after.
    const own = await startTestServer();
    try {
      const a = await TestClient.connect(own.url);
      expect(a.received[0].count).toBe(1);
      const b = await TestClient.connect(own.url);
      expect((await a.next('playerCount', (m) => m.count === 2)).count).toBe(2);
      await b.close();
      expect((await a.next('playerCount', (m) => m.count === 1)).count).toBe(1);
      await a.close();
    } finally {
      await own.close();
    }
  });

  it('coalesces a burst of changes into few broadcasts', async () => {
    const clock = useTestClock();
    const slow = await startTestServer({ playerCountIntervalMs: 500 });
    try {
      const watcher = await TestClient.connect(slow.url);
      await clock.advance(600);
      await watcher.next('playerCount', (m) => m.count === 1);
      const seenBefore = watcher.received.length;
      // 20 players arrive over 2 s of the server's time, one every 100 ms
      const clients: TestClient[] = [];
      for (let i = 0; i < 20; i++) {
        clients.push(await TestClient.connect(slow.url));
        await clock.advance(100);
      }
      await clock.advance(500);
      await watcher.next('playerCount', (m) => m.count === 21);
      const counts = watcher.received.slice(seenBefore).filter((m) => m.type === 'playerCount');
      // 20 changes in 2.5 s, at most one broadcast per 500 ms: 5, each a newer count
      expect(counts.length).toBeLessThanOrEqual(5);
      expect(counts.length).toBeGreaterThanOrEqual(2);
      expect(counts.map((m) => m.count)).toEqual([...counts.map((m) => m.count as number)].sort((a, b) => a - b));
      expect(counts.at(-1)?.count).toBe(21);
      await Promise.all(clients.map((c) => c.close()));
      await watcher.close();
    } finally {
      await slow.close();
    }
  });
});

describe('HTTP', () => {
  it('reports event-loop delay from the heartbeat: a blocked loop shows up, and each scrape starts afresh', async () => {
    // a server of its own, on the test's clock (the file's shared one runs on the real clock)
    const clock = useTestClock();
    const own = await startTestServer();
    onTestFinished(() => own.close());
    const scrape = async () => {
      const text = await (await fetch(own.url + '/metrics')).text();
      const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);
      return { max: value('nodejs_eventloop_lag_max_seconds'), p99: value('nodejs_eventloop_lag_p99_seconds') };
    };
    await scrape(); // resets the reading
    await clock.advance(200, 50);
    clock.stall(250); // the loop is held up: the next beat comes 250 ms late
    await clock.advance(200, 50);
    const blocked = await scrape();
    expect(blocked.max).toBeGreaterThan(0.2);
    expect(blocked.max).toBeLessThan(5);
    await clock.advance(300, 50);
    const quiet = await scrape();
    expect(quiet.max).toBeLessThan(blocked.max);
  });

  it('answers /healthz and /metrics', async () => {
    const h = await fetch(server.url + '/healthz');
    expect(h.status).toBe(200);
    expect((await h.json()).ok).toBe(true);
    const m = await fetch(server.url + '/metrics');
    const text = await m.text();
    for (const name of [
      'chess_connections',
      'chess_players_online',
      'chess_queue_length',
      'chess_live_games',
      'chess_moves_relayed_total',
      'chess_messages_rejected_total',
      'chess_move_relay_seconds_bucket',
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_seconds_total',
    ]) {
      expect(text).toContain(name);
    }
  });
});
