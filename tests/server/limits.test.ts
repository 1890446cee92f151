/** Bad input and abuse: each gets a clear answer or a close, and the server and other games go on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { ROOM_FOR_PROBES, TestClient, pairPlayers, playMoves, startTestServer, useTestClock, type Pair } from './helpers';

let server: RunningServer;
let game: Pair;
beforeAll(async () => {
  server = await startTestServer();
  game = await pairPlayers(server.url);
  await playMoves(game, ['e2e4', 'e7e5']);
});
afterAll(async () => {
  await server.close();
});

describe('bad messages', () => {
  it('answers malformed JSON, binary frames, unknown types and bad payloads with an error and keeps the socket', async () => {
    const c = await TestClient.connect(server.url);
    c.sendRaw('{"type": "findGame", payload');
    expect((await c.next('error')).code).toBe('malformed_json');
    c.sendRaw(Buffer.from([1, 2, 3, 4]), true);
    expect((await c.next('error')).code).toBe('binary');
    c.send('launchMissiles', { now: true });
    const unknown = await c.next('error');
    expect(unknown.code).toBe('unknown_type');
    expect(unknown.message).toContain('launchMissiles');
    c.sendRaw('[1,2,3]');
    expect((await c.next('error')).code).toBe('not_an_object');
    c.send('rejoinGame', { gameId: 42 });
    expect((await c.next('error')).code).toBe('invalid_payload');
    c.send('gameMove', { gameId: game.gameId, move: { from: 'z9', to: 'e4' } });
    expect((await c.next('moveRejected')).message).toMatch(/square/);
    c.send('findGame', { username: 12 });
    expect((await c.next('error')).code).toBe('invalid_payload');
    // still connected and served
    c.send('checkActiveGame', {});
    expect((await c.next('activeGameStatus')).gameId).toBeNull();
    await c.close();
  });

  it('closes a socket that sends a frame over 8 KB with 1009 (message too big), and counts it', async () => {
    const c = await TestClient.connect(server.url);
    c.send('findGame', { username: 'x'.repeat(9000) });
    const closed = await c.closed;
    expect(closed.code).toBe(1009);
    expect(server.stats().queueLength).toBe(0);
    // a frame far past the limit is cut as its header arrives, and counted too
    const huge = await TestClient.connect(server.url);
    huge.sendRaw('x'.repeat(1024 * 1024));
    await huge.closed;
    const text = await (await fetch(server.url + '/metrics')).text();
    expect(text).toMatch(/chess_messages_rejected_total\{reason="oversize"\} 2/);
  });

  it('closes a socket with 1008 past 100 messages in 20 s', async () => {
    const c = await TestClient.connect(server.url);
    for (let i = 0; i < 150; i++) c.send('checkActiveGame', {});
    const closed = await c.closed;
    expect(closed.code).toBe(1008);
    const answers = c.received.filter((m) => m.type === 'activeGameStatus').length;
    expect(answers).toBe(100);
  });

  it('counts rejections by reason in /metrics', async () => {
    const text = await (await fetch(server.url + '/metrics')).text();
    for (const reason of ['malformed_json', 'binary', 'unknown_type', 'invalid_payload', 'rate_limit']) {
      expect(text).toMatch(new RegExp(`chess_messages_rejected_total\\{reason="${reason}"\\} [1-9]`));
    }
  });

  it('keeps serving: the game in progress goes on and new players connect', async () => {
    expect((await fetch(server.url + '/healthz')).status).toBe(200);
    const moves = await playMoves(game, ['g1f3', 'b8c6']);
    expect(moves[1].nextTurn).toBe('white');
    const fresh = await TestClient.connect(server.url);
    expect(fresh.playerId).toMatch(/^player_/);
    game.white.send('resign', { gameId: game.gameId });
    expect(await game.black.next('gameEnd')).toMatchObject({ winner: 'black', reason: 'resignation' });
    await Promise.all([fresh.close(), game.white.close(), game.black.close()]);
  });
});

describe('idle sockets', () => {
  it('closes a socket that stays silent, even to pings, and keeps one that answers them open', { timeout: 45_000 }, async () => {
    // uWS's own idle handling (sendPingsAutomatically): a ping to a socket that has been quiet for
    // part of idleTimeout, a close when idleTimeout passes without anything received. The server's
    // lag pings are pushed out of the window so that only that mechanism acts.
    const idle = await startTestServer({ idleTimeoutSeconds: 8, pingIntervalMs: 600_000 });
    try {
      const live = await TestClient.connect(idle.url);
      // `ws` answers pings by itself; this client does not (ws's autoPong option, as in game.test.ts)
      const silent = await TestClient.connect(idle.url, null, { autoPong: false });
      let livePings = 0;
      live.ws.on('ping', () => livePings++);
      const closedAfter = performance.now();
      await silent.closed;
      const seconds = (performance.now() - closedAfter) / 1000;
      expect(seconds).toBeGreaterThan(4);
      expect(seconds).toBeLessThan(30);
      // The timeout is uWS's own, on its own clock (ticks of about 4 s). The live socket was opened
      // first, so unanswered it would have timed out no later than the silent one: a ping uWS sends
      // it at a later tick, answered, shows it outlived that deadline.
      const pingsAtClose = livePings;
      await new Promise<void>((resolve) => {
        const onPing = () => {
          if (livePings >= pingsAtClose + 1) live.ws.off('ping', onPing), resolve();
        };
        live.ws.on('ping', onPing);
      });
      // the client that answered the same pings is still connected and served
      expect(livePings).toBeGreaterThan(0);
      expect(live.closeCode).toBeNull();
      live.send('checkActiveGame', {});
      expect((await live.next('activeGameStatus')).gameId).toBeNull();
      await live.close();
    } finally {
      await idle.close();
    }
  });
});

describe('lag pings', () => {
  it('reach every socket once per interval, spread over the interval rather than in one burst', async () => {
    // All at once, pinging 10,000 sockets held the event loop for about 200 ms every interval.
    const clock = useTestClock();
    const s = await startTestServer({ pingIntervalMs: 1000 });
    try {
      const clients = await Promise.all(Array.from({ length: 40 }, () => TestClient.connect(s.url)));
      clock.settleWith(await TestClient.connect(s.url));
      const t0 = performance.now();
      const pingsAt = clients.map(() => [] as number[]);
      clients.forEach((c, i) => c.ws.on('ping', () => pingsAt[i].push(performance.now() - t0)));
      await clock.advance(3_100, 50);
      for (const times of pingsAt) {
        // once a second: 3 in 3.1 s, give or take one at the edges of the window
        expect(times.length).toBeGreaterThanOrEqual(2);
        expect(times.length).toBeLessThanOrEqual(4);
      }
      // the first pings of the 40 sockets arrive over most of a second, not within a few ms
      const firsts = pingsAt.map((t) => t[0]).sort((a, b) => a - b);
      expect(firsts.at(-1)! - firsts[0]).toBeGreaterThan(500);
      await Promise.all(clients.map((c) => c.close()));
    } finally {
      await s.close();
    }
  });

  it('ride in the same write as a game frame for players in a game, still about once per interval', async () => {
    // A ping of its own is a system call and a wake-up of the client, as much as a frame.
    const clock = useTestClock();
    const s = await startTestServer({ pingIntervalMs: 1000, clockReportMs: 1000, ...ROOM_FOR_PROBES });
    try {
      const p = await pairPlayers(s.url);
      const lobby = await TestClient.connect(s.url);
      clock.settleWith(await TestClient.connect(s.url));
      await playMoves(p, ['e2e4', 'e7e5']); // the clocks run: a timerUpdate each second of a turn (clockReportMs)
      const tally = (c: TestClient) => {
        const t = { pings: 0, withFrame: 0 };
        let pending = false;
        // a ping written with a frame is read with it: the frame's event comes before the next turn of the event loop
        c.ws.on('ping', () => {
          t.pings++;
          pending = true;
          setImmediate(() => (pending = false));
        });
        c.ws.on('message', () => {
          if (pending) t.withFrame++;
          pending = false;
        });
        return t;
      };
      const [white, black, idle] = [tally(p.white), tally(p.black), tally(lobby)];
      const moves = [[p.white, 'g1', 'f3'], [p.black, 'b8', 'c6'], [p.white, 'f1', 'c4'], [p.black, 'g8', 'f6']] as const;
      for (const [mover, from, to] of moves) {
        await clock.advance(1_500, 50); // a clock report comes a second into each turn
        mover.send('gameMove', { gameId: p.gameId, move: { from, to } });
        await Promise.all([p.white.next('gameMove'), p.black.next('gameMove')]);
      }
      for (const t of [white, black]) {
        expect(t.pings).toBeGreaterThanOrEqual(3); // 6 s, a ping due 0.9 s after the last, taken by the next frame
        expect(t.pings).toBeLessThanOrEqual(7);
        expect(t.withFrame).toBe(t.pings);
      }
      expect(idle.pings).toBeGreaterThanOrEqual(5); // the lobby socket is still pinged once a second, on its own
      expect(idle.withFrame).toBe(0);
      const metrics = await (await fetch(`${s.url}/metrics`)).text();
      const count = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1]);
      expect(count('chess_lag_pings_with_frame_total')).toBeGreaterThanOrEqual(white.withFrame + black.withFrame);
      expect(count('chess_lag_pings_alone_total')).toBeGreaterThanOrEqual(idle.pings);
      await Promise.all([p.white.close(), p.black.close(), lobby.close()]);
    } finally {
      await s.close();
    }
  });
});

