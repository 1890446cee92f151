/**
 * AI games end to end: the real uWebSockets.js server (server/app.ts) with the real AI service
 * and real Stockfish processes, driven by real `ws` clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startServer, type RunningServer } from '../../server/app';
import { createAiService, type AiService, type AiServiceOptions } from '../../server/ai/index';
import { ChessGame } from '../../machines/chess/index';
import { TestClient, playRandomGame, seeded, until } from './helpers';

const logger = pino({ level: 'silent' });

async function startWithAi(extra: Partial<AiServiceOptions>): Promise<{ server: RunningServer; ai: () => AiService }> {
  let svc: AiService | undefined;
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    logger,
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
    ({ server, ai } = await startWithAi({ maxMovetimeMs: 100, disconnectGraceMs: 60_000 }));
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
    expect(ai().hasGame(c.playerId)).toBe(false);
  });

  it('plays a full game at level 10 with the player as black: the AI opens and wins', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 10, playerColor: 'black' } });
    const created = await c.next('gameCreated');
    expect(created).toMatchObject({ playerColor: 'black', opponentName: 'Stockfish AI' });
    expect(await c.next('aiGameStart')).toMatchObject({ gameId: created.gameId, color: 'black', timerDuration: 0 });
    // The AI has white and moves without being asked.
    const first = await c.next('moveMade');
    expect(first).toMatchObject({ gameId: created.gameId, gameOver: false });
    c.send('resign', { gameId: created.gameId });
    await c.next('gameOver');

    const g = await playRandomGame(c, { difficulty: 10, playerColor: 'black' }, seeded(2));
    expect(g.playerColor).toBe('black');
    expect(g.result).toMatchObject({ gameId: g.gameId, reason: 'checkmate', winner: 'white' });
    expect(g.board.status().checkmate).toBe(true);
  });

  it('rejects illegal, out-of-turn and foreign moves without changing the position', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 3, playerColor: 'white' } });
    const { gameId } = await c.next('gameCreated');
    await c.next('aiGameStart');

    c.send('playerMoveAI', { gameId, move: { from: 'e2', to: 'e5' } });
    const illegal = await c.next('moveRejected');
    expect(illegal.message).toBe('Illegal move: e2e5');
    expect(illegal.fen).toBe(new ChessGame().fen());

    c.send('playerMoveAI', { gameId, move: { from: 'e7', to: 'e5' } }); // black's pawn
    expect((await c.next('moveRejected')).message).toBe('Illegal move: e7e5');

    c.send('playerMoveAI', { gameId: 'ai_not-a-game', move: { from: 'e2', to: 'e4' } });
    expect((await c.next('moveRejected')).message).toBe('Not your game');

    // A legal move, then a second one straight away while the AI is thinking.
    c.send('playerMoveAI', { gameId, move: { from: 'e2', to: 'e4' } });
    c.send('playerMoveAI', { gameId, move: { from: 'd2', to: 'd4' } });
    const early = await c.next('moveRejected');
    expect(early.message).toBe('Not your turn');
    const reply = await c.next('moveMade');
    const board = new ChessGame();
    board.play('e2e4');
    expect(board.play(reply.move as { from: string; to: string })).not.toBeNull();
    expect(reply.fen).toBe(board.fen()); // d2d4 was not played

    // Another player cannot move in this game.
    const intruder = await connect();
    intruder.send('playerMoveAI', { gameId, move: { from: 'd2', to: 'd4' } });
    expect((await intruder.next('moveRejected')).message).toBe('Not your game');
    expect(await c.quietFor('moveMade', 300)).toBe(true);

    c.send('resign', { gameId });
    expect(await c.next('gameOver')).toMatchObject({ gameId, reason: 'resignation', winner: 'black' });
  });

  it('validates options, resolves a random colour, refuses a second game and allows a new one after resigning', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 11, playerColor: 'white' } });
    expect(await c.next('error')).toMatchObject({ code: 'invalid_options' });
    c.send('startAIGame', { options: { difficulty: 4, playerColor: 'green' } });
    expect((await c.next('error')).message).toMatch(/playerColor/);
    expect(ai().hasGame(c.playerId)).toBe(false);

    c.send('startAIGame', { options: { difficulty: 5, playerColor: 'random' } });
    const created = await c.next('gameCreated');
    expect(['white', 'black']).toContain(created.playerColor);
    await c.next('aiGameStart');

    c.send('startAIGame', { options: { difficulty: 5, playerColor: 'white' } });
    expect(await c.next('error')).toMatchObject({ code: 'ai_game_in_progress', message: 'You already have an AI game in progress' });
    expect(await c.quietFor('gameCreated', 200)).toBe(true);

    c.send('resign', { gameId: created.gameId });
    const over = await c.next('gameOver');
    expect(over).toMatchObject({ reason: 'resignation', winner: created.playerColor === 'white' ? 'black' : 'white' });
    // The game is gone: moves in it are refused, and a new game can start.
    c.send('playerMoveAI', { gameId: created.gameId, move: { from: 'e2', to: 'e4' } });
    expect((await c.next('moveRejected')).message).toBe('No active AI game');
    c.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const again = await c.next('gameCreated');
    expect(again.gameId).not.toBe(created.gameId);
    c.send('resign', { gameId: again.gameId });
    await c.next('gameOver');
  });

  it('keeps the game over a reconnect and re-sends aiGameStart with the current position', async () => {
    const c = await connect();
    c.send('startAIGame', { options: { difficulty: 2, playerColor: 'white' } });
    const { gameId } = await c.next('gameCreated');
    c.send('playerMoveAI', { gameId, move: { from: 'g1', to: 'f3' } });
    const reply = await c.next('moveMade');
    await c.close();
    await until(() => ai().hasGame(c.playerId));

    const back = await connect({ playerId: c.playerId, secret: c.secret });
    expect(back.playerId).toBe(c.playerId);
    const resumed = await back.next('aiGameStart');
    const moves = (resumed.currentState as { moves: { from: string; to: string }[] }).moves;
    expect(resumed).toMatchObject({ gameId, color: 'white' });
    expect(moves).toEqual([{ from: 'g1', to: 'f3' }, { from: (reply.move as { from: string }).from, to: (reply.move as { to: string }).to }]);
    expect((resumed.currentState as { fen: string }).fen).toBe(reply.fen);
    // and play goes on
    back.send('playerMoveAI', { gameId, move: { from: 'e2', to: 'e3' } });
    expect(await back.next('moveMade')).toMatchObject({ gameId });
    back.send('resign', { gameId });
    await back.next('gameOver');
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
  a.send('playerMoveAI', { gameId: ga, move: { from: 'e2', to: 'e4' } });
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
      expect(await a.next('gameOver')).toMatchObject({ gameId: ga, reason: 'technical_draw', winner: 'draw' });
      expect(ai().hasGame(a.playerId)).toBe(false);

      // The other game is unaffected and gets its reply from the restarted engine.
      b.send('playerMoveAI', { gameId: gb, move: { from: 'd2', to: 'd4' } });
      const reply = await b.next('moveMade');
      expect(reply).toMatchObject({ gameId: gb, gameOver: false });
      expect(ai().enginePids()).not.toContain(pid);
      expect(ai().stats().engines).toBe(1);

      // The failed player can start again.
      a.send('startAIGame', { options: { difficulty: 1, playerColor: 'black' } });
      expect(await a.next('gameCreated')).toMatchObject({ playerColor: 'black' });
      expect(await a.next('moveMade')).toMatchObject({ gameOver: false });
    } finally {
      await close();
    }
  });

  it("a resignation while the AI thinks gives up that game's search: a waiting one leaves the queue, a running one frees its engine", async () => {
    const { ai, a, b, ga, gb, pid, close } = await twoGamesOnOneEngine();
    try {
      // the second game's search waits for the one engine
      b.send('playerMoveAI', { gameId: gb, move: { from: 'd2', to: 'd4' } });
      await until(() => ai().stats().queue === 1);

      b.send('resign', { gameId: gb });
      expect(await b.next('gameOver')).toMatchObject({ gameId: gb, reason: 'resignation' });
      // neither waiting for the engine nor on it
      expect(ai().stats().queue).toBe(0);
      expect(ai().enginePidFor(gb)).toBeUndefined();

      a.send('resign', { gameId: ga });
      expect(await a.next('gameOver')).toMatchObject({ gameId: ga, reason: 'resignation' });
      await until(() => ai().enginePidFor(ga) === undefined);
      expect(ai().enginePids()).toEqual([pid]); // stopped, not killed
    } finally {
      await close();
    }
  });

  it('caps concurrent AI games with a clear message, and abandons a game whose player does not come back', async () => {
    const { server, ai } = await startWithAi({ maxGames: 1, poolSize: 1, disconnectGraceMs: 300, maxMovetimeMs: 50 });
    const a = await TestClient.connect(server.port);
    const b = await TestClient.connect(server.port);
    try {
      a.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
      await a.next('gameCreated');
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
      expect(await back.quietFor('aiGameStart', 300)).toBe(true);
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
