/**
 * Games against the AI reach the archive: the real server with the real AI service (real
 * Stockfish) and the real accounts module on PGlite; a guest plays and resigns over a real socket.
 */
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publicGameSchema } from '../../machines/protocol/archive';
import type { RunningServer } from '../../server/app';
import { createAccounts, type AccountsModule } from '../../server/accounts';
import { quickAi } from '../ai/quickAi';
import { TestClient, startTestServer } from '../server/helpers';
import { freshDataDir } from '../support/pgliteTemplate';

let dataDir: string;
let accounts: AccountsModule;
let server: RunningServer;

beforeAll(async () => {
  dataDir = await freshDataDir('archive-ai-');
  accounts = await createAccounts({ logger: pino({ level: 'silent' }), dataDir, siteUrl: 'http://127.0.0.1', autoconfirm: true });
  server = await startTestServer({
    accounts,
    ai: quickAi(),
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('archives a finished game against the AI, unrated, with its moves and the level as the opponent', async () => {
  const c = await TestClient.connect(server.url);
  c.send('startAIGame', { options: { difficulty: 3, playerColor: 'white' } });
  const created = await c.next('gameCreated');
  const gameId = created.gameId as string;
  c.send('gameMove', { gameId, move: { from: 'e2', to: 'e4' } });
  await c.next('gameMove', (m) => m.nextTurn === 'white', 20_000);
  c.send('resign', { gameId });
  expect(await c.next('gameEnd')).toMatchObject({ winner: 'black', reason: 'resignation' });
  let body: unknown = null;
  for (let i = 0; i < 100 && body === null; i++) {
    const res = await fetch(`${server.url}/api/games/${gameId}`);
    if (res.status === 200) body = await res.json();
    else await new Promise((r) => setTimeout(r, 50));
  }
  const game = publicGameSchema.parse(body);
  expect(game).toMatchObject({ kind: 'ai', rated: false, winner: 'black', reason: 'resignation', plies: 2 });
  expect(game.moves[0]).toBe('e2e4');
  expect(game.black).toEqual({ name: 'Stockfish level 3', username: null, guest: false, rating: null });
  expect(game.white.username).toBeNull();
  expect(game.pgn).toContain('1. e4');
  expect(JSON.stringify(game)).not.toContain(c.playerId);
  await c.close();
});
