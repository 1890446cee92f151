/**
 * AI moves per second with many concurrent AI games: the real server (uWebSockets.js) with the
 * real AI service, and N `ws` clients each playing random moves as fast as replies come
 * (human-like pause off). Also samples the server's event-loop delay while it runs.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import WebSocket from 'ws';
import { ChessGame } from '../../../machines/chess/index';
import { startServer } from '../../app';
import { createAiService } from '../service';

export interface ThroughputResult {
  games: number;
  level: number;
  seconds: number;
  aiMoves: number;
  movesPerSecond: number;
  gamesFinished: number;
  loopDelayP99Ms: number;
  engines: number;
}

export async function measureThroughput(opts: {
  enginePath: string | undefined;
  games: number;
  level: number;
  seconds: number;
  poolSize: number;
  random: () => number;
}): Promise<ThroughputResult> {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    logger: pino({ level: 'silent' }),
    rateLimit: { messages: 100_000, windowMs: 1000 },
    ai: (deps) =>
      createAiService({ ...deps, poolSize: opts.poolSize, replyDelayMs: [0, 0], enginePath: opts.enginePath, maxGames: opts.games + 10 }),
  });
  let aiMoves = 0;
  let finished = 0;
  let running = true;
  const sockets: WebSocket[] = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const play = (ws: WebSocket) => {
    let board = new ChessGame();
    let gameId = '';
    const send = (type: string, payload: unknown) => ws.send(JSON.stringify({ type, payload }));
    const playRandom = () => {
      const legal = board.legalMoves();
      const m = board.play(legal[Math.floor(opts.random() * legal.length)])!;
      send('gameMove', { gameId, move: { from: m.from, to: m.to, promotion: m.promotion } });
    };
    const startGame = () => {
      board = new ChessGame();
      send('startAIGame', { options: { difficulty: opts.level, playerColor: 'white' } });
    };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'connectionAck') startGame();
      else if (m.type === 'gameCreated') {
        gameId = m.gameId;
        playRandom();
      } else if (m.type === 'gameMove' && m.nextTurn === 'white') {
        // the engine's move (the player has white)
        if (running) aiMoves++;
        board.play({ from: m.move.from, to: m.move.to, promotion: m.move.promotion });
        if (!board.status().over) playRandom();
      } else if (m.type === 'gameEnd') {
        finished++;
        if (running) startGame();
      }
    });
  };
  try {
    for (let i = 0; i < opts.games; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/socket`);
      sockets.push(ws);
      play(ws);
    }
    await new Promise((r) => setTimeout(r, 1500)); // connect and warm up
    aiMoves = 0;
    loop.enable();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, opts.seconds * 1000));
    const seconds = (performance.now() - t0) / 1000;
    running = false;
    loop.disable();
    const moves = aiMoves;
    return {
      games: opts.games,
      level: opts.level,
      seconds,
      aiMoves: moves,
      movesPerSecond: moves / seconds,
      gamesFinished: finished,
      loopDelayP99Ms: loop.percentile(99) / 1e6,
      engines: opts.poolSize,
    };
  } finally {
    for (const ws of sockets) ws.close();
    await server.close();
  }
}
