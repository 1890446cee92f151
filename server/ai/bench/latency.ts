/**
 * Reply latency per level through the real AI service (machine + pool + policy), with the
 * human-like pause switched off so the number is the AI's own cost: from the player's move
 * (`move()`) to the `moveMade` message. The player is a random mover; one game at a time.
 */
import pino from 'pino';
import { ChessGame } from '../../../machines/chess/index';
import type { ServerMessage } from '../../../machines/protocol/messages';
import { createAiService } from '../service';
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
  let onMsg: (m: ServerMessage) => void = () => {};
  const svc = await createAiService({
    send: (_p, m) => onMsg(m),
    logger: pino({ level: 'silent' }),
    poolSize: 1,
    replyDelayMs: [0, 0],
    enginePath: opts.enginePath,
    random: opts.random,
  });
  const rows: LatencyRow[] = [];
  try {
    for (const level of opts.levels) {
      const samples: number[] = [];
      let gameNo = 0;
      while (samples.length < opts.repliesPerLevel) {
        const playerId = `bench_${level}_${gameNo++}`;
        const board = new ChessGame();
        let gameId = '';
        let sentAt = 0;
        await new Promise<void>((resolve) => {
          const playRandom = () => {
            const legal = board.legalMoves();
            const uci = legal[Math.floor(opts.random() * legal.length)];
            const m = board.play(uci)!;
            sentAt = performance.now();
            svc.move(playerId, { gameId, move: { from: m.from, to: m.to, promotion: m.promotion } });
          };
          onMsg = (m) => {
            if (m.type === 'gameCreated') gameId = m.gameId;
            else if (m.type === 'aiGameStart') playRandom();
            else if (m.type === 'moveMade') {
              samples.push(performance.now() - sentAt);
              board.play({ from: m.move.from, to: m.move.to, promotion: m.move.promotion });
              if (m.gameOver || samples.length >= opts.repliesPerLevel) {
                if (!m.gameOver) svc.resign(playerId, gameId);
                else resolve();
              } else playRandom();
            } else if (m.type === 'gameOver' || m.type === 'error') resolve();
          };
          svc.start(playerId, { difficulty: level, playerColor: 'white' });
        });
      }
      const sorted = samples.sort((a, b) => a - b);
      rows.push({ level, replies: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] });
    }
  } finally {
    await svc.close();
  }
  return rows;
}
