/**
 * AI games per client address, and the slots of games whose players are gone (issue 24: one
 * address starting and abandoning 200 AI games filled every slot for 5 minutes). The real server
 * with the real AI service and engine; clients connect from two loopback addresses.
 */
import type { GuestCredentials } from '../../machines/protocol/guestClaim';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app';
import type { AiServiceOptions } from '../../server/ai/index';
import { quickAi } from './quickAi';
import { TestClient } from '../server/helpers';

const A = { localAddress: '127.0.0.1' };
const B = { localAddress: '127.0.0.2' };
const LEVEL_1 = { options: { difficulty: 1, playerColor: 'white' } };
const servers: RunningServer[] = [];
const clients: TestClient[] = [];

async function startWithAi(extra: Partial<AiServiceOptions>): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    logger: pino({ level: 'silent' }),
    // a long resume window: only the need for a slot may end a gone player's game here
    graceMs: 300_000,
    ai: quickAi(extra),
  });
  servers.push(server);
  return server;
}

async function connect(server: RunningServer, from: { localAddress: string }, guest: GuestCredentials | null = null): Promise<TestClient> {
  const c = await TestClient.connect(server.url, guest, from);
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('AI games per address', () => {
  it('refuses one more game than AI_GAMES_PER_ADDRESS from one address, with a clear message, and serves another address', async () => {
    const server = await startWithAi({ maxGamesPerAddress: 2, maxGames: 10 });
    for (let i = 0; i < 2; i++) {
      const c = await connect(server, A);
      c.send('startAIGame', LEVEL_1);
      await c.next('gameCreated');
    }
    const third = await connect(server, A);
    third.send('startAIGame', LEVEL_1);
    const refused = await third.next('error');
    expect(refused.code).toBe('ai_address_limit');
    expect(refused.message).toMatch(/At most 2 AI games/);
    const other = await connect(server, B);
    other.send('startAIGame', LEVEL_1);
    expect(await other.next('gameCreated')).toMatchObject({ playerColor: 'white' });
  });
});

describe('the slot of a gone player', () => {
  it('goes to a new game when the server is full, while a gone player whose slot was not needed can still resume', async () => {
    const server = await startWithAi({ maxGames: 2 });
    const leaver = await connect(server, A);
    leaver.send('startAIGame', LEVEL_1);
    await leaver.next('gameCreated');
    const stayer = await connect(server, B);
    stayer.send('startAIGame', LEVEL_1);
    const stayerGame = (await stayer.next('gameCreated')).gameId;

    // the leaver's only socket closes: its game keeps the resume window but not the slot
    await leaver.close();
    const newcomer = await connect(server, B);
    newcomer.send('startAIGame', LEVEL_1);
    expect(await newcomer.next('gameCreated')).toMatchObject({ playerColor: 'white' });

    // the stayer leaves too, with no one needing its slot, and resumes its game
    await stayer.close();
    const back = await connect(server, B, stayer);
    expect(back.playerId).toBe(stayer.playerId);
    back.send('rejoinGame', { gameId: stayerGame });
    expect((await back.next('gameStart')).gameId).toBe(stayerGame);
  });
});
