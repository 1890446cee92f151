/**
 * Games against the AI survive a restart: the real server with the real AI service (Stockfish)
 * journals each game's start and moves; a second server on the same data directory resumes
 * it, and the player who comes back with their saved identity gets the same moves and plays on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app';
import { createAiService } from '../../server/ai/index';
import { quickAi } from './quickAi';
import type { CurrentState } from '../../machines/protocol/messages';
import { TestClient } from './helpers';

const SECRET = 'a'.repeat(40);

function serverOn(dataDir: string): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    logger: pino({ level: 'silent' }),
    serverSecret: SECRET,
    durableDir: dataDir,
    ai: quickAi({ disconnectGraceMs: 60_000 }),
  });
}

describe('durable AI games', () => {
  it('records each step of a game before it tells the player of it (the server\'s send waits for the record to be durable)', async () => {
    const said: string[] = [];
    let gameId = '';
    const svc = await createAiService({
      replyDelayMs: [0, 5],
      poolSize: 1,
      logger: pino({ level: 'silent' }),
      send: (_player, msg) => {
        said.push(`told ${msg.type}`);
        if (msg.type === 'gameCreated') gameId = msg.gameId;
      },
      recorder: { aiStarted: () => said.push('recorded start'), aiMoved: () => said.push('recorded move'), aiEnded: () => said.push('recorded end') },
    });
    try {
      svc.start('player-1', { difficulty: 1, playerColor: 'white' });
      svc.resign('player-1', gameId);
      expect(said).toEqual(['recorded start', 'told gameCreated', 'told aiGameStart', 'recorded end', 'told gameOver']);
    } finally {
      await svc.close();
    }
  });

  it('resumes a game against the AI after a restart with its moves, and the AI answers the next move', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ai-durable-'));
    const first = await serverOn(dataDir);
    const c = await TestClient.connect(first.port);
    c.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const { gameId } = await c.next('gameCreated');
    await c.next('aiGameStart');
    const replies: string[] = [];
    for (const move of [{ from: 'e2', to: 'e4' }, { from: 'g1', to: 'f3' }]) {
      c.send('playerMoveAI', { gameId, move });
      const made = await c.next('moveMade');
      replies.push(`${(made.move as { from: string }).from}${(made.move as { to: string }).to}`);
    }
    await first.close();

    const second = await serverOn(dataDir);
    const back = await TestClient.connect(second.port, { playerId: c.playerId, secret: c.secret });
    const start = await back.next('aiGameStart');
    expect(start.gameId).toBe(gameId);
    const moves = (start.currentState as CurrentState).moves.map((m) => m.from + m.to);
    expect(moves).toEqual(['e2e4', replies[0], 'g1f3', replies[1]]);
    back.send('playerMoveAI', { gameId, move: { from: 'f1', to: 'c4' } });
    const answer = await back.next('moveMade');
    expect(answer.gameId).toBe(gameId);
    back.send('resign', { gameId });
    await back.next('gameOver');
    await back.close();
    await second.close();
  }, 60_000);
});
