/**
 * A signed-in player whose game is played on one node comes back on another node: their socket
 * starts as a guest, identifies with their access token, and finds the account's game there
 * (checkActiveGame right after `identified`), then plays on.
 */
import { describe, expect, it } from 'vitest';
import { tokenAccounts } from '../server/tokenAccounts';
import { playMoves } from '../server/helpers';
import { useNodesPerTest } from './nodesPerTest';

const site = useNodesPerTest();

const ALICE = '5b1e6c52-6a4e-4c5e-9d7e-1f2a3b4c5d6e';

describe('an account across nodes', () => {
  it('finds its game played on another node after identifying there, and plays on', async () => {
    // every node checks access tokens against the same key (JWT_PRIVATE_KEY on a site)
    const { accounts, sign } = await tokenAccounts();
    const token = (sub: string) => sign({ sub });
    const [a, b] = await site.start(2, { accounts });
    const alice = await site.connect(a);
    alice.send('identifyUser', { userId: ALICE, accessToken: await token(ALICE) });
    await alice.next('identified');
    const bob = await site.connect(b);
    alice.send('findGame', { username: 'Alice' });
    await alice.next('matchmakingStatus', (m) => m.status === 'queued');
    bob.send('findGame', { username: 'Bob' });
    const [start] = await Promise.all([alice.next('gameStart'), bob.next('gameStart')]);
    const gameId = start.gameId as string;
    await playMoves({ white: alice, black: bob, gameId }, ['e2e4', 'e7e5']);

    // Alice's tab closes; she comes back on node b, as a new guest first, then as her account
    await alice.close();
    const again = await site.connect(b);
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
