/**
 * Giving time on the real server (lichess's "+" by the opponent's clock): a player's `giveTime`
 * reaches both players and the spectators as `timeGiven` with the clocks after it, the opponent's
 * clock 15 s more, and the moves after it are timed from those clocks. The game runs on the
 * test's clock. (Who may give time and when: tests/machines/gameGiveTime.test.ts.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { playMoves, timedGame, useClients } from './helpers';

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
const clients = useClients();

describe('giving time', () => {
  it('adds 15 s to the opponent’s clock, told to both players and the spectators', async () => {
    const { server, p, clock } = await timedGame({ clockMs: 60_000 });
    servers.push(server);
    clients.track(p.white, p.black);
    const s = await clients.connect(server.url);
    s.send('watchGame', { gameId: p.gameId });
    await s.next('watchStart');
    await playMoves(p, ['e2e4', 'e7e5']);
    await clock.advance(3_000);

    p.white.send('giveTime', { gameId: p.gameId });
    const [w, b, watched] = await Promise.all([p.white.next('timeGiven'), p.black.next('timeGiven'), s.next('timeGiven')]);
    expect(w).toEqual({ type: 'timeGiven', gameId: p.gameId, color: 'black', ms: 15_000, clocks: { white: 57_000, black: 75_000 } });
    expect(b).toEqual(w);
    expect(watched).toEqual(w);

    // again at once: refused to the giver only, nothing changes
    p.white.send('giveTime', { gameId: p.gameId });
    expect(await p.white.next('moveRejected')).toMatchObject({ gameId: p.gameId, message: 'You can give time again in a second' });

    // the moves after it are timed from the new clocks
    await clock.advance(1_000);
    await playMoves(p, ['g1f3']);
    await clock.advance(2_000);
    p.black.send('gameMove', { gameId: p.gameId, move: { from: 'b8', to: 'c6' } });
    const [afterNc6] = await Promise.all([p.white.next('gameMove', (m) => m.seq === 4), p.black.next('gameMove', (m) => m.seq === 4), s.next('gameMove', (m) => m.seq === 4)]);
    expect(afterNc6.clocks).toEqual({ white: 56_000, black: 73_000 });
    expect([p.black, s].every((c) => c.received.filter((m) => m.type === 'timeGiven').length === 1)).toBe(true);
  });
});
