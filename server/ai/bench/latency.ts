/**
 * Reply latency per level through the real server and its AI (engine seat + pool + policy), with
 * the human-like pause switched off so the number is the AI's own cost: from the player's move
 * (`gameMove`) to the engine's `gameMove`. The player is a random mover; one game at a time.
 */
import pino from 'pino';
import WebSocket from 'ws';
import { ChessGame } from '../../../machines/chess/index';
import type { ServerMessage } from '../../../machines/protocol/messages';
import { startServer } from '../../app';
import { aiServiceFactory } from '../index';
import { percentile } from './stats';

export interface LatencyRow {
  level: number;
  replies: number;
  p50: number;
  p95: number;
  max: number;
}

export async function measureLatency(opts: {
  enginePath: string | undefined;
  levels: number[];
  repliesPerLevel: number;
  random: () => number;
}): Promise<LatencyRow[]> {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    logger: pino({ level: 'silent' }),
    ai: aiServiceFactory({ poolSize: 1, replyDelayMs: [0, 0], enginePath: opts.enginePath, random: opts.random }),
  });
  const rows: LatencyRow[] = [];
  try {
    for (const level of opts.levels) {
      const samples: number[] = [];
      while (samples.length < opts.repliesPerLevel) await playOne(server.url, level, opts.random, samples, opts.repliesPerLevel);
      const sorted = samples.sort((a, b) => a - b);
      rows.push({ level, replies: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] });
    }
  } finally {
    await server.close();
  }
  return rows;
}

/** One game against the AI at `level` on a socket of its own, each reply's latency added to `samples` until it has `wanted`. */
function playOne(url: string, level: number, random: () => number, samples: number[], wanted: number): Promise<void> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket`);
  const send = (msg: unknown) => ws.send(JSON.stringify(msg));
  const board = new ChessGame();
  let gameId = '';
  let sentAt = 0;
  const playRandom = () => {
    const legal = board.legalMoves();
    const m = board.play(legal[Math.floor(random() * legal.length)])!;
    sentAt = performance.now();
    send({ type: 'gameMove', payload: { gameId, move: { from: m.from, to: m.to, promotion: m.promotion } } });
  };
  return new Promise<void>((resolve) => {
    const done = () => {
      ws.close();
      resolve();
    };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type === 'connectionAck') send({ type: 'startAIGame', payload: { options: { difficulty: level, playerColor: 'white' } } });
      else if (m.type === 'gameStart') {
        gameId = m.gameId;
        playRandom();
      } else if (m.type === 'gameMove' && m.nextTurn === 'white') {
        samples.push(performance.now() - sentAt);
        board.play({ from: m.move.from, to: m.move.to, promotion: m.move.promotion });
        if (samples.length >= wanted) send({ type: 'resign', payload: { gameId } });
        else if (!board.status().over) playRandom();
      } else if (m.type === 'gameEnd' || m.type === 'error') done();
    });
  });
}
