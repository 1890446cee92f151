/**
 * Games against the AI survive a restart as every game does: the real server with the real AI
 * (Stockfish) journals the game's start and commands; a second server on the same data directory
 * resumes it, the engine takes its seat again, and the player who comes back with their saved
 * identity gets the same moves and plays on. A journal written before games against the AI were
 * ordinary games (its `ai`/`aimove` records) is read as ordinary games too.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app';
import { encodeRecord } from '../../server/game/journalRecords';
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
    ai: quickAi(),
  });
}

const engineMove = (c: TestClient, color: 'white' | 'black') => c.next('gameMove', undefined, (m) => m.nextTurn === color);

describe('durable AI games', () => {
  it('resumes a game against the AI after a restart with its moves, and the AI answers the next move', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ai-durable-'));
    const first = await serverOn(dataDir);
    const c = await TestClient.connect(first.port);
    c.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const { gameId } = await c.next('gameCreated');
    await c.next('gameStart');
    const replies: string[] = [];
    for (const move of [{ from: 'e2', to: 'e4' }, { from: 'g1', to: 'f3' }]) {
      c.send('gameMove', { gameId, move });
      const made = await engineMove(c, 'white');
      replies.push(`${(made.move as { from: string }).from}${(made.move as { to: string }).to}`);
    }
    await first.close();

    const second = await serverOn(dataDir);
    const back = await TestClient.connect(second.port, { playerId: c.playerId, secret: c.secret });
    back.send('rejoinGame', { gameId });
    const start = await back.next('gameStart');
    expect(start).toMatchObject({ gameId, engineLevel: 1 });
    const moves = (start.currentState as CurrentState).moves.map((m) => m.from + m.to);
    expect(moves).toEqual(['e2e4', replies[0], 'g1f3', replies[1]]);
    back.send('gameMove', { gameId, move: { from: 'f1', to: 'c4' } });
    const answer = await engineMove(back, 'white');
    expect(answer.gameId).toBe(gameId);
    back.send('resign', { gameId });
    await back.next('gameEnd');
    await back.close();
    await second.close();
  }, 60_000);

  it('reads the AI records of an older journal as an ordinary game the engine plays on, its player shown it when they come back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ai-old-journal-'));
    // the identity the old game's player had (the first server issues it)
    const issuer = await serverOn(mkdtempSync(join(tmpdir(), 'ai-old-id-')));
    const c = await TestClient.connect(issuer.port);
    await c.close();
    await issuer.close();
    const gameId = 'ai_0b1f7ad4-7a51-4f57-9a3f-5d0bb1e0c1a2';
    mkdirSync(join(dataDir, 'games'), { recursive: true });
    writeFileSync(
      join(dataDir, 'games', 'journal'),
      [
        encodeRecord({ k: 'alive', at: 1_000 }),
        encodeRecord({ k: 'ai', g: gameId, playerId: c.playerId, playerColor: 'white', difficulty: 2 }),
        encodeRecord({ k: 'aimove', g: gameId, uci: 'e2e4' }),
        encodeRecord({ k: 'aimove', g: gameId, uci: 'e7e5' }),
        // an ended one is over: nothing to resume
        encodeRecord({ k: 'ai', g: 'ai_ended', playerId: 'someone', playerColor: 'black', difficulty: 1 }),
        encodeRecord({ k: 'aiend', g: 'ai_ended' }),
      ].join(''),
    );
    const server = await serverOn(dataDir);
    try {
      const back = await TestClient.connect(server.port, { playerId: c.playerId, secret: c.secret });
      back.send('rejoinGame', { gameId });
      const start = await back.next('gameStart');
      expect(start).toMatchObject({ gameId, color: 'white', engineLevel: 2, timerDuration: 0 });
      expect((start.currentState as CurrentState).moves.map((m) => m.from + m.to)).toEqual(['e2e4', 'e7e5']);
      back.send('gameMove', { gameId, move: { from: 'g1', to: 'f3' } });
      expect(await engineMove(back, 'white')).toMatchObject({ gameId, seq: 4 });
      back.send('rejoinGame', { gameId: 'ai_ended' });
      expect(await back.next('error')).toMatchObject({ code: 'unknown_game' });
      back.send('resign', { gameId });
      expect(await back.next('gameEnd')).toMatchObject({ gameId, reason: 'resignation', winner: 'black' });
      await back.close();
    } finally {
      await server.close();
    }
  }, 60_000);
});
