/** Games through the real server: matchmaking, moves, rejections, draws, resignation, rejoin. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { START_FEN } from '../../machines/chess';
import { DEFAULT_CLOCK_REPORT_MS, DEFAULT_GRACE_MS } from '../../machines/game/defaults';
import { TEXT } from '../../machines/protocol/messages';
import type { RunningServer } from '../../server/app';
import { ROOM_FOR_PROBES, TestClient, pairPlayers, playMoves, startTestServer, timedGame, useTestClock, type Msg, type Pair } from './helpers';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function rejoinState(c: TestClient, gameId: string) {
  c.send('rejoinGame', { gameId });
  const start = await c.next('gameStart', (m) => m.gameId === gameId && !!m.currentState);
  return start.currentState as { fen: string; turn: string; moves: { from: string; to: string }[]; timers: { white: number; black: number }; clocks: { white: number; black: number }; drawOfferFrom: string | null };
}

describe('matchmaking', () => {
  it('queues, cancels with a message, and forgets a queued player who disconnects', async () => {
    const a = await TestClient.connect(server.url);
    a.send('findGame', {});
    const q = await a.next('matchmakingStatus');
    expect(q.status).toBe('queued');
    expect(server.stats().queueLength).toBe(1);
    a.send('cancelMatchmaking');
    const c = await a.next('matchmakingStatus');
    expect(c.status).toBe('canceled');
    expect(c.message).toBeTruthy();
    expect(server.stats().queueLength).toBe(0);

    a.send('findGame', { username: 'Leaver' });
    await a.next('matchmakingStatus', (m) => m.status === 'queued');
    await a.close();
    // the next searcher is not paired with the player who left
    const b = await TestClient.connect(server.url);
    await b.roundTrip();
    expect(server.stats().queueLength).toBe(0);
    b.send('findGame', {});
    expect((await b.next('matchmakingStatus')).status).toBe('queued');
    expect(await b.gets('gameStart', 200)).toBe(false);
    b.send('cancelMatchmaking');
    await b.next('matchmakingStatus', (m) => m.status === 'canceled');
    await b.close();
  });

  it('pairs in arrival order, names the opponent, and refuses a second search with the documented text', async () => {
    const { white, black, gameId } = await pairPlayers(server.url, ['Alice', '']);
    const ws = white.received.find((m) => m.type === 'gameStart')!;
    const bs = black.received.find((m) => m.type === 'gameStart')!;
    expect(ws.opponentId).toBe(black.playerId);
    expect(bs.opponentId).toBe(white.playerId);
    expect(bs.opponentName).toBe('Alice');
    expect(ws.opponentName).toBe(TEXT.anonymousName); // missing name becomes "Anonymous Player"
    expect(ws.timerDuration).toBe(600);
    white.send('findGame', { username: 'Alice' });
    const refused = await white.next('matchmakingStatus');
    expect(refused.message).toBe('Cannot search for a new game while in an active game');
    expect(server.stats().queueLength).toBe(0);
    white.send('resign', { gameId });
    await Promise.all([white.next('gameEnd'), black.next('gameEnd')]);
    await Promise.all([white.close(), black.close()]);
  });
});

describe('a game', () => {
  it('plays a full game to checkmate, then frees it', async () => {
    const before = server.stats().liveGames;
    const p = await pairPlayers(server.url);
    expect(server.stats().liveGames).toBe(before + 1);
    const moves = await playMoves(p, ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
    expect(moves.map((m) => m.nextTurn)).toEqual(['black', 'white', 'black', 'white']);
    expect(moves[3].san).toBe('Qh4#');
    expect(moves[3].seq).toBe(4);
    const [we, be] = await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
    expect(we).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'checkmate' });
    expect(be).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'checkmate' });
    expect(server.stats().liveGames).toBe(before);
    p.white.send('checkActiveGame', {});
    expect((await p.white.next('activeGameStatus')).gameId).toBeNull();
    // moves in the finished game are refused
    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'a2', to: 'a3' } });
    expect((await p.white.next('moveRejected')).message).toBeTruthy();
    await Promise.all([p.white.close(), p.black.close()]);
  });

  it('rejects illegal, out-of-turn and foreign-game moves and leaves the position unchanged', async () => {
    const p = await pairPlayers(server.url);
    const q = await pairPlayers(server.url);
    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'e2', to: 'e5', piece: 'p' } });
    const illegal = await p.white.next('moveRejected');
    expect(illegal.message).toBe('Illegal move');
    expect(illegal.fen).toBe(START_FEN);
    p.black.send('gameMove', { gameId: p.gameId, move: { from: 'e7', to: 'e5' } });
    expect((await p.black.next('moveRejected')).message).toBe('Not your turn');
    q.white.send('gameMove', { gameId: p.gameId, move: { from: 'e2', to: 'e4' } });
    expect((await q.white.next('moveRejected')).message).toBe('This is not your game.');
    q.white.send('gameMove', { gameId: 'game_doesnotexist', move: { from: 'e2', to: 'e4' } });
    expect((await q.white.next('moveRejected')).message).toBe('Game not found or not yours.');
    q.white.send('resign', { gameId: p.gameId });
    expect((await q.white.next('error')).code).toBe('not_your_game');
    // nothing was relayed and the position is the start position
    expect(await p.white.gets('gameMove', 150)).toBe(false);
    const state = await rejoinState(p.white, p.gameId);
    expect(state.fen).toBe(START_FEN);
    expect(state.moves).toEqual([]);
    // and a legal move still goes through
    await playMoves(p, ['e2e4']);
    for (const g of [p, q]) {
      g.white.send('resign', { gameId: g.gameId });
      await g.black.next('gameEnd');
    }
    await Promise.all([p.white.close(), p.black.close(), q.white.close(), q.black.close()]);
  });

  it('ends by resignation', async () => {
    const p = await pairPlayers(server.url);
    await playMoves(p, ['e2e4', 'e7e5']);
    p.black.send('resign', { gameId: p.gameId });
    const [we, be] = await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
    expect(we).toMatchObject({ winner: 'white', reason: 'resignation' });
    expect(be).toMatchObject({ winner: 'white', reason: 'resignation' });
    await Promise.all([p.white.close(), p.black.close()]);
  });

  it('declines and accepts draw offers', async () => {
    const p = await pairPlayers(server.url);
    await playMoves(p, ['e2e4', 'e7e5']);
    p.white.send('offerDraw', { gameId: p.gameId });
    expect((await p.black.next('drawOffer')).gameId).toBe(p.gameId);
    p.black.send('declineDraw', { gameId: p.gameId });
    expect((await p.white.next('drawDeclined')).gameId).toBe(p.gameId);
    // black offers, white accepts: a draw by agreement
    p.black.send('offerDraw', { gameId: p.gameId });
    await p.white.next('drawOffer');
    p.white.send('acceptDraw', { gameId: p.gameId });
    const [we, be] = await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
    expect(we).toMatchObject({ winner: 'draw', reason: 'agreement' });
    expect(be).toMatchObject({ winner: 'draw', reason: 'agreement' });
    await Promise.all([p.white.close(), p.black.close()]);
  });

  it('ends by threefold repetition', async () => {
    const p = await pairPlayers(server.url);
    await playMoves(p, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8']);
    expect(await p.white.next('gameEnd')).toMatchObject({ winner: 'draw', reason: 'threefold repetition' });
    await Promise.all([p.white.close(), p.black.close()]);
  });
});

describe('disconnect, reconnect, rejoin', () => {
  it('answers the rejoin of a game that ended while the player was away with how it ended, and nobody else', async () => {
    const p = await pairPlayers(server.url);
    await playMoves(p, ['e2e4', 'e7e5']);
    await p.black.close();
    await p.white.next('opponentDisconnected');
    p.white.send('resign', { gameId: p.gameId });
    await p.white.next('gameEnd');

    const back = await TestClient.connect(server.url, { playerId: p.black.playerId, secret: p.black.secret });
    back.send('rejoinGame', { gameId: p.gameId });
    const end = await back.next('gameEnd');
    expect(end).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'resignation' });
    expect(await back.gets('gameStart', 300)).toBe(false);

    const stranger = await TestClient.connect(server.url);
    stranger.send('rejoinGame', { gameId: p.gameId });
    expect(await stranger.next('error')).toMatchObject({ code: 'unknown_game', message: 'Game not found or not yours.' });
    await Promise.all([p.white.close(), back.close(), stranger.close()]);
  });

  it('tells the opponent, and restores position, moves, clocks and the pending draw offer', async () => {
    const p = await pairPlayers(server.url);
    await playMoves(p, ['e2e4', 'e7e5', 'g1f3']);
    p.white.send('offerDraw', { gameId: p.gameId });
    await p.black.next('drawOffer');
    await p.black.close();
    const left = await p.white.next('opponentDisconnected');
    expect(left.message).toMatch(/disconnected/i);
    // the grace as a number, the one the game step counts (a guest's default), not only a sentence
    expect(left.graceMs).toBe(DEFAULT_GRACE_MS.guest);

    const back = await TestClient.connect(server.url, { playerId: p.black.playerId, secret: p.black.secret });
    expect(back.playerId).toBe(p.black.playerId);
    expect((await p.white.next('opponentReconnected')).message).toMatch(/reconnected/i);
    back.send('checkActiveGame', { playerId: back.playerId });
    const active = await back.next('activeGameStatus');
    expect(active).toMatchObject({ gameId: p.gameId, color: 'black', opponentId: p.white.playerId });

    const state = await rejoinState(back, p.gameId);
    const start = back.received.find((m) => m.type === 'gameStart')!;
    expect(start).toMatchObject({ gameId: p.gameId, color: 'black', opponentId: p.white.playerId, timerDuration: 600 });
    expect(state.moves).toEqual([
      { from: 'e2', to: 'e4' },
      { from: 'e7', to: 'e5' },
      { from: 'g1', to: 'f3' },
    ]);
    expect(state.turn).toBe('black');
    expect(state.fen).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    expect(state.drawOfferFrom).toBe('white');
    expect(await back.next('drawOffer')).toMatchObject({ gameId: p.gameId });
    // the clocks started at ply 2: black's is running, white's spent a little on g1f3
    expect(state.clocks.white).toBeLessThanOrEqual(600_000);
    expect(state.clocks.white).toBeGreaterThan(590_000);
    expect(state.clocks.black).toBeLessThan(600_000);
    expect(state.timers.white).toBeGreaterThanOrEqual(590);

    // the game goes on from the restored seat
    back.send('gameMove', { gameId: p.gameId, move: { from: 'b8', to: 'c6' } });
    expect((await p.white.next('gameMove')).move).toEqual({ from: 'b8', to: 'c6' });
    back.send('resign', { gameId: p.gameId });
    await p.white.next('gameEnd');
    await Promise.all([p.white.close(), back.close()]);
  });
});

/**
 * A game whose white player answers lag pings with `answerPing` (ws's own answer is off) against
 * a player whose client answers them at once.
 */
async function pairWithPongs(url: string, answerPing: (ws: TestClient['ws'], data: Buffer) => void): Promise<Pair> {
  const white = new TestClient(url, null, { autoPong: false });
  white.ws.on('ping', (data: Buffer) => answerPing(white.ws, data));
  await white.opened;
  await white.next('connectionAck');
  const black = await TestClient.connect(url);
  white.send('findGame', { username: 'Pinged' });
  await white.next('matchmakingStatus');
  black.send('findGame', { username: 'Quick' });
  const start = await white.next('gameStart');
  expect(start.color).toBe('white');
  return { white, black, gameId: start.gameId as string };
}

describe('lag compensation', () => {
  it('times lag from the server\'s own clock: a pong whose payload claims an old ping gets no credit', async () => {
    // The game's clock and the pings' times are performance.now(), faked here: time passes only
    // when the test says so (sockets, timers and Date stay real).
    vi.useFakeTimers({ toFake: ['performance'] });
    const s = await startTestServer({ pingIntervalMs: 100 });
    try {
      // The cheater answers every ping at once, but writes into the pong a send time 1.8 s earlier.
      const p = await pairWithPongs(s.url, (ws, data) => ws.pong((Number(data.toString('latin1')) - 1800).toFixed(1)));
      const cheater = p.white;
      await playMoves(p, ['e2e4', 'e7e5']); // the frames carried pings; the forged pongs went back
      cheater.send('checkActiveGame', {}); // a round trip: the pongs sent before it have been read
      await cheater.next('activeGameStatus');
      vi.advanceTimersByTime(1000); // white thinks 1 s on a running clock
      const [m] = await playMoves(p, ['g1f3']);
      const white = (m.clocks as { white: number }).white;
      // the forged payload would have been credited 900 ms (white left with about 599 900)
      expect(white).toBeLessThanOrEqual(599_000 + 20);
      expect(white).toBeGreaterThanOrEqual(599_000 - 20);
      await Promise.all([cheater.close(), p.black.close()]);
    } finally {
      vi.useRealTimers();
      await s.close();
    }
  });

  it('credits a laggy player (measured from ping/pong) with part of the time its move spent on the wire', async () => {
    const clock = useTestClock();
    const s = await startTestServer({ pingIntervalMs: 100 });
    try {
      // A client whose pongs come back 800 ms late: one-way lag about 400 ms.
      const { default: WebSocket } = await import('ws');
      const p = await pairWithPongs(s.url, (ws, data) => setTimeout(() => ws.readyState === WebSocket.OPEN && ws.pong(data), 800));
      const [laggy, other] = [p.white, p.black];
      clock.settleWith(other);
      await clock.advance(1_500, 50); // let the RTT estimate settle
      await playMoves(p, ['e2e4', 'e7e5']);
      await clock.advance(1_500, 50); // white thinks 1.5 s on a running clock
      const [m] = await playMoves(p, ['g1f3']);
      const white = (m.clocks as { white: number }).white;
      // without credit about 598 500 ms would be left; the measured lag gives some of it back
      expect(white).toBeGreaterThan(598_700);
      expect(white).toBeLessThanOrEqual(600_000);
      await Promise.all([laggy.close(), other.close()]);
    } finally {
      await s.close();
    }
  });
});

describe('lag compensation against a held pong', () => {
  // 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d3 d6 6. O-O O-O 7. a4 a5 8. h3 h6 9. Re1 Re8
  // 10. Nbd2 Be6 11. Bb5 Bd7 12. Nf1 Ne7 13. Ng3 Ng6 14. d4 Bb6
  const GAME = 'e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 e1g1 e8g8 a2a4 a7a5 h2h3 h7h6 f1e1 f8e8 b1d2 c8e6 c4b5 e6d7 d2f1 c6e7 f1g3 e7g6 d3d4 c5b6'.split(' ');
  const THINK_MS = 2_000;

  it('credits a player who answers every ping 9 s late no more than an honest player who thinks as long', async () => {
    const clock = useTestClock();
    const s = await startTestServer({ pingIntervalMs: 3_000, ...ROOM_FOR_PROBES });
    try {
      const { default: WebSocket } = await import('ws');
      // white holds each pong 9 s (its payload is the ping's, so it is timed as a 9 s round trip); black's client answers at once
      const p = await pairWithPongs(s.url, (ws, data) => setTimeout(() => ws.readyState === WebSocket.OPEN && ws.pong(data), 9_000));
      const probe = await TestClient.connect(s.url);
      clock.settleWith(probe);
      let last: Msg | undefined;
      for (const [ply, uci] of GAME.entries()) {
        await clock.advance(THINK_MS, 100);
        const mover = ply % 2 === 0 ? p.white : p.black;
        mover.send('gameMove', { gameId: p.gameId, move: { from: uci.slice(0, 2), to: uci.slice(2, 4) } });
        [last] = await Promise.all([p.white.next('gameMove'), p.black.next('gameMove')]);
      }
      const clocks = last!.clocks as { white: number; black: number };
      // both thought 2 s on each of their 13 timed moves; the honest player's lag on loopback is
      // next to nothing, and the holder's 9 s round trips justify no more
      expect(600_000 - clocks.black).toBeGreaterThan(13 * THINK_MS - 500);
      expect(clocks.white - clocks.black).toBeLessThan(100);
      await Promise.all([p.white.close(), p.black.close(), probe.close()]);
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('timerUpdate', () => {
  const REPORT = DEFAULT_CLOCK_REPORT_MS;
  const ticksOf = (c: TestClient) => c.received.filter((m) => m.type === 'timerUpdate');

  it('comes once per report interval (10 s) while a clock runs, and stops when the game ends', async () => {
    const { server: s, p, clock } = await timedGame();
    try {
      expect(REPORT).toBe(10_000);
      await clock.advance(1_200, 50);
      expect(ticksOf(p.white)).toEqual([]); // no clock before both sides moved
      await playMoves(p, ['e2e4', 'e7e5']);
      p.white.drain();
      const t0 = performance.now();
      await clock.advance(REPORT - 100, 100);
      expect(ticksOf(p.white)).toEqual([]); // not before the interval is up
      await clock.advance(2 * REPORT + 300, 100);
      const ticks = ticksOf(p.white);
      expect(ticks.length).toBe(3);
      const whites = ticks.map((m) => (m.clocks as { white: number }).white);
      expect([...whites].sort((a, b) => b - a)).toEqual(whites); // white's clock runs down
      expect(whites[0] - whites[1]).toBeCloseTo(REPORT, -2);
      expect(600_000 - whites.at(-1)!).toBeGreaterThan(performance.now() - t0 - REPORT);
      // black's clock does not run while white is to move
      expect(ticks.map((m) => (m.clocks as { black: number }).black)).toEqual(ticks.map(() => 600_000));
      p.white.send('resign', { gameId: p.gameId });
      await p.black.next('gameEnd');
      const before = p.black.received.length;
      await clock.advance(REPORT + 300, 100);
      expect(p.black.received.slice(before).some((m) => m.type === 'timerUpdate')).toBe(false);
      await Promise.all([p.white.close(), p.black.close()]);
    } finally {
      await s.close();
    }
  });

  it('counts the interval from the last move: a gameMove carries the clocks, so no timerUpdate follows it within one', async () => {
    const { server: s, p, clock } = await timedGame();
    try {
      await playMoves(p, ['e2e4', 'e7e5']);
      // every turn ends before its first report is due
      const ucis = ['g1f3', 'b8c6', 'f1c4', 'g8f6'];
      for (const [i, uci] of ucis.entries()) {
        await clock.advance(0.6 * REPORT, 100);
        const move = { from: uci.slice(0, 2), to: uci.slice(2, 4) };
        (i % 2 === 0 ? p.white : p.black).send('gameMove', { gameId: p.gameId, move });
        await p.white.next('gameMove', (m) => (m.move as { to: string }).to === move.to);
      }
      const moved = p.white.received.filter((m) => m.type === 'gameMove');
      expect(moved.at(-1)?.clocks).toBeDefined();
      expect(ticksOf(p.white)).toEqual([]);
      // then an interval without a move: the report comes
      await clock.advance(REPORT, 100);
      const tick = await p.white.next('timerUpdate');
      expect((tick.clocks as { white: number }).white).toBeLessThan(600_000);
      await Promise.all([p.white.close(), p.black.close()]);
    } finally {
      await s.close();
    }
  });

  it('comes at the interval an operator chooses, and never with 0 (clients count down from the moves\' clocks)', async () => {
    const every = await timedGame({ clockReportMs: 1_000 });
    try {
      await playMoves(every.p, ['e2e4', 'e7e5']);
      every.p.white.drain();
      await every.clock.advance(3_200, 50);
      expect(ticksOf(every.p.white).length).toBe(3);
      await Promise.all([every.p.white.close(), every.p.black.close()]);
    } finally {
      await every.server.close();
    }
    const never = await timedGame({ clockReportMs: 0 });
    try {
      await playMoves(never.p, ['e2e4', 'e7e5']);
      await never.clock.advance(3 * REPORT, 500);
      expect(ticksOf(never.p.white)).toEqual([]);
      expect(ticksOf(never.p.black)).toEqual([]);
      // the moves still carry both clocks
      const [moved] = await playMoves(never.p, ['g1f3']);
      expect((moved.clocks as { white: number }).white).toBeLessThan(600_000 - 2 * REPORT);
      await Promise.all([never.p.white.close(), never.p.black.close()]);
    } finally {
      await never.server.close();
    }
  });
});
