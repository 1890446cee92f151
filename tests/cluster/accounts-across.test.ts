/**
 * A signed-in player whose game is played on one node comes back on another node: their socket
 * starts as a guest, identifies with their access token, and finds the account's game there
 * (checkActiveGame right after `identified`), then plays on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { tokenAccounts } from '../server/tokenAccounts';
import { TestClient, playMoves, startTestServer } from '../server/helpers';
import { testSite, type TestSite } from './site';

let site: TestSite;
const servers: RunningServer[] = [];
const clients: TestClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await site?.destroy();
});

const ALICE = '5b1e6c52-6a4e-4c5e-9d7e-1f2a3b4c5d6e';

async function connect(server: RunningServer): Promise<TestClient> {
  const c = await TestClient.connect(server.url);
  clients.push(c);
  return c;
}

describe('an account across nodes', () => {
  it('finds its game played on another node after identifying there, and plays on', async () => {
    site = testSite();
    // every node checks access tokens against the same key (JWT_PRIVATE_KEY on a site)
    const { accounts, sign } = await tokenAccounts();
    const token = (sub: string) => sign({ sub });
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ cluster: site.options, serverSecret: 'x'.repeat(32), accounts }));
    const [a, b] = servers;
    const alice = await connect(a);
    alice.send('identifyUser', { userId: ALICE, accessToken: await token(ALICE) });
    await alice.next('identified');
    const bob = await connect(b);
    alice.send('findGame', { username: 'Alice' });
    await alice.next('matchmakingStatus', (m) => m.status === 'queued');
    bob.send('findGame', { username: 'Bob' });
    const [start] = await Promise.all([alice.next('gameStart'), bob.next('gameStart')]);
    const gameId = start.gameId as string;
    await playMoves({ white: alice, black: bob, gameId }, ['e2e4', 'e7e5']);

    // Alice's tab closes; she comes back on node b, as a new guest first, then as her account
    await alice.close();
    const again = await connect(b);
    again.send('identifyUser', { userId: ALICE, accessToken: await token(ALICE) });
    await again.next('identified');
    again.send('checkActiveGame', {});
    expect(await again.next('activeGameStatus')).toMatchObject({ gameId, color: 'white' });
    again.send('rejoinGame', { gameId });
    const back = await again.next('gameStart', (m) => m.gameId === gameId);
    expect((back.currentState as { moves: unknown[] }).moves).toHaveLength(2);
    await playMoves({ white: again, black: bob, gameId }, ['g1f3', 'b8c6']);
  });
});
