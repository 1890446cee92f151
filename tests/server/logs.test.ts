/**
 * The server's pino log: one line per game start and end and per refused message, with its
 * reason; nothing per move at info level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { capturedLog } from '../support/capturedLog';
import { pairPlayers, playMoves, startTestServer } from './helpers';

const INFO = 30;
const { logger, lines } = capturedLog();
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer({ logger });
});
afterAll(async () => {
  await server.close();
});

describe('the log of a game', () => {
  it('has a line for its start, for each refused message with the reason, for its end, and none per move', async () => {
    const p = await pairPlayers(server.url);
    const started = lines.filter((l) => l.msg === 'game started' && l.gameId === p.gameId);
    expect(started).toEqual([expect.objectContaining({ level: INFO, white: p.white.playerId, black: p.black.playerId })]);

    const beforeMoves = lines.length;
    await playMoves(p, ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6']);
    expect(lines.slice(beforeMoves).filter((l) => l.level >= INFO)).toEqual([]);

    p.white.sendRaw('{not json');
    await p.white.next('error');
    expect(lines.at(-1)).toMatchObject({ level: INFO, msg: 'message rejected', playerId: p.white.playerId, reason: 'malformed_json' });

    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'e1', to: 'e3' } });
    await p.white.next('moveRejected');
    expect(lines.at(-1)).toMatchObject({ level: INFO, msg: 'move rejected', gameId: p.gameId, playerId: p.white.playerId });
    expect(lines.at(-1)?.reason).toEqual(expect.any(String));

    p.black.send('resign', { gameId: p.gameId });
    await p.white.next('gameEnd');
    const ended = lines.filter((l) => l.msg === 'game ended' && l.gameId === p.gameId);
    expect(ended).toEqual([expect.objectContaining({ level: INFO, winner: 'white', reason: 'resignation' })]);
    await Promise.all([p.white.close(), p.black.close()]);
  });
});
