/**
 * AI games end to end: the real uWebSockets.js server (server/app.ts) with the real AI service
 * and real Stockfish processes, driven by real `ws` clients. A game against the AI is an ordinary
 * game whose other seat the engine holds: it speaks gameStart, gameMove and gameEnd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startServer, type RunningServer } from '../../server/app';
import { createAiService, type AiService, type AiServiceOptions } from '../../server/ai/index';
import { ChessGame } from '../../machines/chess/index';
import { TestClient, playRandomGame, until } from './helpers';
import { seeded } from '../../server/seeded';

const logger = pino({ level: 'silent' });

/** The engine's next move in the game of `c`, who plays `color`: a gameMove after which it is their turn. */
const engineMove = (c: TestClient, color: 'white' | 'black', timeoutMs?: number) => c.next('gameMove', timeoutMs, (m) => m.nextTurn === color);

async function startWithAi(extra: Partial<AiServiceOptions>, graceMs = 60_000): Promise<{ server: RunningServer; ai: () => AiService }> {
  let svc: AiService | undefined;
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    logger,
    graceMs,
    ai: async (deps) => {
      svc = await createAiService({ replyDelayMs: [0, 5], poolSize: 2, ...extra, ...deps });
      return svc;
    },
  });
  return { server, ai: () => svc! };
}

describe('AI games over the socket', () => {
  let server: RunningServer;
  let ai: () => AiService;
  const clients: TestClient[] = [];
  const connect = async (identity?: { playerId: string; secret: string }) => {
    const c = await TestClient.connect(server.port, identity);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    // Searches capped at 100 ms keep the suite short; the levels' skill/depth still apply.
    ({ server, ai } = await startWithAi({ maxMovetimeMs: 100 }));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.close();
  });

  it('plays a full game at level 1 against a random mover, to the end', async () => {
    const c = await connect();
    const g = await playRandomGame(c, { difficulty: 1, playerColor: 'white' }, seeded(1));
    expect(g.playerColor).toBe('white');
    expect(g.aiMoves).toBeGreaterThan(3);
    const st = g.board.status();
    // The server's verdict matches our own rules on the final position.
    if (g.result.reason === 'max plies') {
      expect(g.board.history().length).toBeGreaterThanOrEqual(600);
      expect(g.result.winner).toBe('draw');
    } else {
      expect(st.over).toBe(true);
      expect(g.result.reason).toBe(st.reason);
      expect(g.result.winner).toBe(st.winner);
    }
    expect(ai().stats().games).toBe(0);
  });

  it('plays a full game at level 10 with the player as black: the AI opens and wins', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 10, playerColor: 'black' } });
    const created = await c.next('gameCreated');
    expect(created).toMatchObject({ playerColor: 'black', opponentName: 'Stockfish AI' });
    const start = await c.next('gameStart');
    expect(start).toMatchObject({ gameId: created.gameId, color: 'black', timerDuration: 0, engineLevel: 10, opponentName: 'Stockfish level 10' });
    expect(start.timeControl).toBeUndefined(); // no clock
    // The AI has white and moves without being asked.
    const first = await engineMove(c, 'black');
    expect(first).toMatchObject({ gameId: created.gameId, seq: 1 });
    c.send('resign', { gameId: created.gameId });
    await c.next('gameEnd');

    const g = await playRandomGame(c, { difficulty: 10, playerColor: 'black' }, seeded(2));
    expect(g.playerColor).toBe('black');
    expect(g.result).toMatchObject({ gameId: g.gameId, reason: 'checkmate', winner: 'white' });
    expect(g.board.status().checkmate).toBe(true);
  });

  it('rejects illegal, out-of-turn and foreign moves without changing the position', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 3, playerColor: 'white' } });
    const { gameId } = await c.next('gameCreated');
    await c.next('gameStart');

    c.send('gameMove', { gameId, move: { from: 'e2', to: 'e5' } });
    const illegal = await c.next('moveRejected');
    expect(illegal.message).toBe('Illegal move');
    expect(illegal.fen).toBe(new ChessGame().fen());

    // the older name of a move in a game against the AI is still understood
    c.send('playerMoveAI', { gameId, move: { from: 'e7', to: 'e5' } }); // black's pawn
    expect((await c.next('moveRejected')).message).toBe('Illegal move');

    c.send('gameMove', { gameId: 'game_not-a-game', move: { from: 'e2', to: 'e4' } });
    expect((await c.next('moveRejected')).message).toBe('Game not found or not yours.');

    // A legal move, then a second one straight away while the AI is thinking.
    c.send('gameMove', { gameId, move: { from: 'e2', to: 'e4' } });
    c.send('gameMove', { gameId, move: { from: 'd2', to: 'd4' } });
    const early = await c.next('moveRejected');
    expect(early.message).toBe('Not your turn');
    const reply = await engineMove(c, 'white');
    const board = new ChessGame();
    board.play('e2e4');
    expect(board.play(reply.move as { from: string; to: string })).not.toBeNull();
    expect(reply.fen).toBe(board.fen()); // d2d4 was not played

    // Another player cannot move in this game.
    const intruder = await connect();
    intruder.send('gameMove', { gameId, move: { from: 'd2', to: 'd4' } });
    expect((await intruder.next('moveRejected')).message).toBe('This is not your game.');
    c.clear(); // our own moves' gameMove
    expect(await c.quietFor('gameMove', 300)).toBe(true);

    c.send('resign', { gameId });
    expect(await c.next('gameEnd')).toMatchObject({ gameId, reason: 'resignation', winner: 'black' });
  });

  it('validates options, resolves a random colour, refuses a second game and allows a new one after resigning', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 11, playerColor: 'white' } });
    expect(await c.next('error')).toMatchObject({ code: 'invalid_options' });
    c.send('startAIGame', { options: { difficulty: 4, playerColor: 'green' } });
    expect((await c.next('error')).message).toMatch(/playerColor/);
    c.send('startAIGame', { options: { difficulty: 5, playerColor: 'white', timeControl: { initial: 0, increment: 0 } } });
    expect((await c.next('error')).message).toMatch(/timeControl/);
    expect(ai().stats().games).toBe(0);

    c.send('startAIGame', { options: { difficulty: 5, playerColor: 'random' } });
    const created = await c.next('gameCreated');
    expect(['white', 'black']).toContain(created.playerColor);
    await c.next('gameStart');

    c.send('startAIGame', { options: { difficulty: 5, playerColor: 'white' } });
    expect(await c.next('error')).toMatchObject({ code: 'ai_game_in_progress', message: 'You already have an AI game in progress' });
    expect(await c.quietFor('gameCreated', 200)).toBe(true);

    // before both sides moved, resigning aborts the game (as every game)
    c.send('resign', { gameId: created.gameId });
    expect(await c.next('gameEnd')).toMatchObject({ reason: 'aborted', winner: 'draw' });
    // The game is gone: moves in it are refused, and a new game can start.
    c.send('gameMove', { gameId: created.gameId, move: { from: 'e2', to: 'e4' } });
    expect((await c.next('moveRejected')).message).toBe('Game not found or not yours.');
    c.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const again = await c.next('gameCreated');
    expect(again.gameId).not.toBe(created.gameId);
    c.send('resign', { gameId: again.gameId });
    await c.next('gameEnd');
  });

  it('keeps the game over a reconnect and shows it again with the current position when asked', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 2, playerColor: 'white' } });
    const { gameId } = await c.next('gameCreated');
    c.send('gameMove', { gameId, move: { from: 'g1', to: 'f3' } });
    const reply = await engineMove(c, 'white');
    await c.close();

    const back = await connect({ playerId: c.playerId, secret: c.secret });
    expect(back.playerId).toBe(c.playerId);
    back.send('rejoinGame', { gameId });
    const resumed = await back.next('gameStart');
    const moves = (resumed.currentState as { moves: { from: string; to: string }[] }).moves;
    expect(resumed).toMatchObject({ gameId, color: 'white' });
    expect(moves).toEqual([{ from: 'g1', to: 'f3' }, { from: (reply.move as { from: string }).from, to: (reply.move as { to: string }).to }]);
    expect((resumed.currentState as { fen: string }).fen).toBe(reply.fen);
    // and play goes on
    back.send('gameMove', { gameId, move: { from: 'e2', to: 'e3' } });
    expect(await engineMove(back, 'white')).toMatchObject({ gameId });
    back.send('resign', { gameId });
    await back.next('gameEnd');
  });
});

describe('AI games with a clock, and watched', () => {
  let server: RunningServer;
  let ai: () => AiService;
  beforeAll(async () => {
    ({ server, ai } = await startWithAi({ maxMovetimeMs: 100 }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a 3+2 game: both clocks run from the second ply, the engine\'s thinking counts on its clock, and increments apply', async () => {
    const c = await TestClient.connect(server.port);
    try {
      // level 10 searches for its whole (capped) movetime: its thinking shows on its clock
      c.send('startAIGame', { options: { difficulty: 10, playerColor: 'white', timeControl: { initial: 180, increment: 2 } } });
      const start = await c.next('gameStart');
      expect(start).toMatchObject({ timerDuration: 180, timeControl: { initial: 180, increment: 2 }, engineLevel: 10 });
      const gameId = String(start.gameId);
      const clocksAfter = async (from: string, to: string) => {
        c.send('gameMove', { gameId, move: { from, to } });
        const mine = await c.next('gameMove', undefined, (m) => m.nextTurn === 'black');
        const engine = await engineMove(c, 'white');
        return { mine: mine.clocks as { white: number; black: number }, engine: engine.clocks as { white: number; black: number } };
      };
      // plies 1 and 2: no clock runs yet, no increment
      const first = await clocksAfter('e2', 'e4');
      expect(first.engine).toEqual({ white: 180_000, black: 180_000 });
      // plies 3 and 4: each mover is charged its time and then given 2 s
      const second = await clocksAfter('g1', 'f3');
      expect(second.mine.white).toBeGreaterThan(180_000);
      expect(second.mine.white).toBeLessThanOrEqual(182_000); // a player's quick move may be all lag credit
      expect(second.engine.black).toBeLessThan(182_000); // its thinking counted
      expect(second.engine.black).toBeGreaterThan(170_000);
      expect(second.engine.white).toBe(second.mine.white);
      expect(ai().stats().games).toBe(1);
      c.send('resign', { gameId });
      expect(await c.next('gameEnd')).toMatchObject({ gameId, reason: 'resignation', winner: 'black' });
    } finally {
      await c.close();
    }
  });

  it('a spectator watches a game against the AI: its moves, the engine\'s, and its end', async () => {
    const c = await TestClient.connect(server.port);
    const watcher = await TestClient.connect(server.port);
    try {
      c.send('startAIGame', { options: { difficulty: 1, playerColor: 'black' } });
      const gameId = String((await c.next('gameCreated')).gameId);
      const opening = await engineMove(c, 'black');
      watcher.send('watchGame', { gameId });
      const seen = await watcher.next('watchStart');
      expect(seen).toMatchObject({ gameId });
      expect(JSON.stringify(seen)).toContain('Stockfish level 1');
      c.send('gameMove', { gameId, move: { from: 'e7', to: 'e6' } });
      const mine = await c.next('gameMove', undefined, (m) => m.nextTurn === 'white');
      expect(await watcher.next('gameMove')).toEqual(mine);
      const reply = await engineMove(c, 'black');
      expect(await watcher.next('gameMove')).toEqual(reply);
      expect(opening.seq).toBe(1);
      c.send('resign', { gameId });
      const end = await c.next('gameEnd');
      expect(await watcher.next('gameEnd')).toEqual(end);
    } finally {
      await c.close();
      await watcher.close();
    }
  });
});

/**
 * One engine shared by two players' games at level 10, whose 1 s searches are long enough to be
 * caught mid-way; white has played e2e4 in the first game and its search runs.
 */
async function twoGamesOnOneEngine() {
  const { server, ai } = await startWithAi({ poolSize: 1 });
  const a = await TestClient.connect(server.port);
  const b = await TestClient.connect(server.port);
  a.send('startAIGame', { options: { difficulty: 10, playerColor: 'white' } });
  b.send('startAIGame', { options: { difficulty: 10, playerColor: 'white' } });
  const ga = String((await a.next('gameCreated')).gameId);
  const gb = String((await b.next('gameCreated')).gameId);
  a.send('gameMove', { gameId: ga, move: { from: 'e2', to: 'e4' } });
  await until(() => ai().enginePidFor(ga) !== undefined);
  const close = async () => {
    await a.close();
    await b.close();
    await server.close();
  };
  return { ai, a, b, ga, gb, pid: ai().enginePidFor(ga)!, close };
}

describe('AI engine failure and limits', () => {
  it('killing the engine mid-search ends only that game as a technical draw; the server and a second game go on', async () => {
    const { ai, a, b, ga, gb, pid, close } = await twoGamesOnOneEngine();
    try {
      process.kill(pid, 'SIGKILL');

      const err = await a.next('error');
      expect(err).toMatchObject({ code: 'engine_failure' });
      expect(await a.next('gameEnd')).toMatchObject({ gameId: ga, reason: 'technical_draw', winner: 'draw' });
      expect(ai().stats().games).toBe(1);

      // The other game is unaffected and gets its reply from the restarted engine.
      b.send('gameMove', { gameId: gb, move: { from: 'd2', to: 'd4' } });
      const reply = await engineMove(b, 'white');
      expect(reply).toMatchObject({ gameId: gb, seq: 2 });
      expect(ai().enginePids()).not.toContain(pid);
      expect(ai().stats().engines).toBe(1);

      // The failed player can start again.
      a.send('startAIGame', { options: { difficulty: 1, playerColor: 'black' } });
      expect(await a.next('gameCreated')).toMatchObject({ playerColor: 'black' });
      expect(await engineMove(a, 'black')).toMatchObject({ seq: 1 });
    } finally {
      await close();
    }
  });

  it("a resignation while the AI thinks gives up that game's search: a waiting one leaves the queue, a running one frees its engine", async () => {
    const { ai, a, b, ga, gb, pid, close } = await twoGamesOnOneEngine();
    try {
      // the second game's search waits for the one engine
      b.send('gameMove', { gameId: gb, move: { from: 'd2', to: 'd4' } });
      await until(() => ai().stats().queue === 1);

      b.send('resign', { gameId: gb });
      expect(await b.next('gameEnd')).toMatchObject({ gameId: gb, reason: 'aborted' });
      // neither waiting for the engine nor on it
      expect(ai().stats().queue).toBe(0);
      expect(ai().enginePidFor(gb)).toBeUndefined();

      a.send('resign', { gameId: ga });
      expect(await a.next('gameEnd')).toMatchObject({ gameId: ga, reason: 'aborted' });
      await until(() => ai().enginePidFor(ga) === undefined);
      expect(ai().enginePids()).toEqual([pid]); // stopped, not killed
    } finally {
      await close();
    }
  });

  it('caps concurrent AI games with a clear message, and abandons a game whose player does not come back', async () => {
    const { server, ai } = await startWithAi({ maxGames: 1, poolSize: 1, maxMovetimeMs: 50 }, 300);
    const a = await TestClient.connect(server.port);
    const b = await TestClient.connect(server.port);
    try {
      a.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
      const { gameId } = await a.next('gameCreated');
      // both sides move: from then on the disconnect grace counts on the player's turn
      a.send('gameMove', { gameId, move: { from: 'e2', to: 'e4' } });
      await engineMove(a, 'white');
      b.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
      const full = await b.next('error');
      expect(full.code).toBe('ai_capacity');
      expect(full.message).toMatch(/maximum of 1 AI games/);
      expect(ai().stats().games).toBe(1);

      await a.close();
      await until(() => ai().stats().games === 0, 5_000);
      b.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
      expect(await b.next('gameCreated')).toMatchObject({ playerColor: 'white' });
      const back = await TestClient.connect(server.port, { playerId: a.playerId, secret: a.secret });
      back.send('rejoinGame', { gameId });
      expect(await back.next('gameEnd')).toMatchObject({ gameId, reason: 'disconnection', winner: 'black' });
      await back.close();
    } finally {
      await a.close();
      await b.close();
      await server.close();
    }
  });
});

describe('AI games on the embedded WASM engine', () => {
  it('plays a full game to the end with the npm stockfish build', async () => {
    const { server, ai } = await startWithAi({ enginePath: 'wasm', poolSize: 1, maxMovetimeMs: 100 });
    const c = await TestClient.connect(server.port);
    try {
      expect(ai().engineLabel).toMatch(/stockfish-19-lite-single\.js/);
      const g = await playRandomGame(c, { difficulty: 6, playerColor: 'black' }, seeded(3));
      expect(g.result).toMatchObject({ reason: 'checkmate', winner: 'white' });
      expect(g.board.status().checkmate).toBe(true);
    } finally {
      await c.close();
      await server.close();
    }
  });
});
