/**
 * A game against the AI never holds a player for good: a search it blocks names it (so the
 * player can go back to it or resign it), an abandoned one ends by the disconnect grace of every
 * game, and an idle one ends, so held games cannot keep everyone else at the AI's capacity. The
 * real server, the real engine, real sockets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app';
import type { AiService } from '../../server/wiring';
import { quickAi } from './quickAi';
import { TestClient, until } from './helpers';

const servers: RunningServer[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server with the AI; `games()` counts its live AI games. */
async function start(opts: Partial<Parameters<typeof startServer>[0]> = {}, ai: Parameters<typeof quickAi>[0] = {}): Promise<RunningServer & { games: () => number }> {
  let service: AiService | undefined;
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: '/nonexistent',
    ai: async (deps) => (service = await quickAi(ai)(deps)),
    ...opts,
  });
  servers.push(server);
  return Object.assign(server, { games: () => service?.stats().games ?? 0 });
}

async function connect(server: RunningServer, identity?: { playerId: string; secret: string }): Promise<TestClient> {
  const c = await TestClient.connect(server.port, identity);
  clients.push(c);
  return c;
}

/** Starts a game against the AI with the player as white (their move first); its id. */
async function startAiGame(c: TestClient): Promise<string> {
  c.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
  return String((await c.next('gameCreated')).gameId);
}

/** The player (white) plays e2e4 and the engine answers: both sides have moved. */
async function bothMoved(c: TestClient, gameId: string): Promise<void> {
  c.send('gameMove', { gameId, move: { from: 'e2', to: 'e4' } });
  await c.next('gameMove', undefined, (m) => m.nextTurn === 'white');
}

describe('a game against the AI and matchmaking', () => {
  it('a refused search names the AI game that holds the player; resigning it frees them', async () => {
    const server = await start();
    const c = await connect(server);
    const gameId = await startAiGame(c);
    await c.next('gameStart');
    await bothMoved(c, gameId);

    c.send('findGame', { username: 'Ann' });
    const refused = await c.next('matchmakingStatus');
    expect(refused).toMatchObject({ status: 'idle', activeGame: { gameId, vsAi: true } });

    c.send('resign', { gameId });
    expect(await c.next('gameEnd')).toMatchObject({ gameId, reason: 'resignation', winner: 'black' });
    c.send('findGame', { username: 'Ann' });
    expect(await c.next('matchmakingStatus')).toMatchObject({ status: 'queued' });
  });

  it('an abandoned AI game ends by the disconnect grace of every game, lost by the absent player; back, they can search', async () => {
    // the site's disconnect grace (GRACE_GUEST_SECONDS in production), nothing set for the AI
    const server = await start({ graceMs: 300 });
    const c = await connect(server);
    const gameId = await startAiGame(c);
    await c.next('gameStart');
    await bothMoved(c, gameId);
    await c.close();

    const back = await connect(server, { playerId: c.playerId, secret: c.secret });
    // within the grace the game is still there: the player is shown it again
    back.send('rejoinGame', { gameId });
    expect(await back.next('gameStart')).toMatchObject({ gameId, color: 'white', engineLevel: 1 });
    await back.close();
    await until(() => server.games() === 0, 10_000);

    const last = await connect(server, { playerId: c.playerId, secret: c.secret });
    last.send('rejoinGame', { gameId });
    expect(await last.next('gameEnd')).toMatchObject({ gameId, reason: 'disconnection', winner: 'black' });
    last.send('findGame', { username: 'Ann' });
    expect(await last.next('matchmakingStatus')).toMatchObject({ status: 'queued' });
    // and finds a game against another player
    const other = await connect(server);
    other.send('findGame', { username: 'Bob' });
    const paired = await last.next('gameStart');
    expect(paired).toMatchObject({ opponentName: 'Bob', opponentId: other.playerId });
    expect(paired.engineLevel).toBeUndefined();
  });

  it('a game on a clock abandoned before the player\'s first move is aborted at every game\'s first-move deadline; back, they can search', async () => {
    const server = await start({ firstMoveMs: 300 });
    const c = await connect(server);
    c.send('startAIGame', { options: { difficulty: 1, playerColor: 'white', timeControl: { initial: 180, increment: 2 } } });
    const gameId = String((await c.next('gameCreated')).gameId);
    await c.close();
    await until(() => server.games() === 0, 10_000);
    const back = await connect(server, { playerId: c.playerId, secret: c.secret });
    back.send('rejoinGame', { gameId });
    expect(await back.next('gameEnd')).toMatchObject({ gameId, reason: 'aborted', winner: 'draw' });
    back.send('findGame', { username: 'Ann' });
    expect(await back.next('matchmakingStatus')).toMatchObject({ status: 'queued' });
  });

  it('players who stay connected but do not move cannot hold the AI\'s slots: one game each, and an idle one ends', async () => {
    const server = await start({}, { maxGames: 2, maxGamesPerAddress: 5, idleMs: 300 });
    const [a, b, c] = [await connect(server), await connect(server), await connect(server)];
    const gameA = await startAiGame(a);
    a.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    expect(await a.next('error')).toMatchObject({ code: 'ai_game_in_progress' });
    await startAiGame(b);
    c.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    expect(await c.next('error')).toMatchObject({ code: 'ai_capacity' });

    // neither holder moves: before their first move the game is aborted (as every game), and the slots are free again
    expect(await a.next('gameEnd')).toMatchObject({ gameId: gameA, reason: 'aborted', winner: 'draw' });
    await b.next('gameEnd');
    expect(server.games()).toBe(0);
    // once both sides moved, a player who does not move within the limit loses on time
    const gameC = await startAiGame(c);
    await bothMoved(c, gameC);
    expect(await c.next('gameEnd')).toMatchObject({ gameId: gameC, reason: 'timeout', winner: 'black' });
  });
});
