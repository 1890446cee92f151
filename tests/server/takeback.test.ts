/**
 * Takebacks on the real server: in a casual game a player proposes, the opponent is asked, and an
 * accepted takeback reaches both players and the spectators with the position and clocks after
 * it. (Who may propose and what is undone are the step's rules: tests/machines/gameTakebacks.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { pairPlayers, playMoves, useServerPerTest } from './helpers';

const site = useServerPerTest();

describe('takebacks between two guests (a casual game)', () => {
  it('a proposal reaches the opponent; accepted, both players and the spectators get the position back', async () => {
    const server = await site.start();
    const p = await pairPlayers(server.url);
    site.track(p.white, p.black);
    const s = await site.connect();
    s.send('watchGame', { gameId: p.gameId });
    await s.next('watchStart');
    const [, afterE5] = await playMoves(p, ['e2e4', 'e7e5', 'g1f3']);
    p.white.send('proposeTakeback', { gameId: p.gameId });
    expect(await p.black.next('takebackOffer')).toEqual({ type: 'takebackOffer', gameId: p.gameId });
    p.black.send('acceptTakeback', { gameId: p.gameId });
    const [w, b, watched] = await Promise.all([p.white.next('takeback'), p.black.next('takeback'), s.next('takeback')]);
    expect(w).toEqual({ type: 'takeback', gameId: p.gameId, plies: 1, fen: afterE5.fen, turn: 'white', clocks: afterE5.clocks, seq: 2 });
    expect(b).toEqual(w);
    expect(watched).toEqual(w);
    // the game goes on from there
    const [again] = await playMoves(p, ['b1c3']);
    expect(again).toMatchObject({ seq: 3, san: 'Nc3' });
    // a declined proposal: the proposer is told
    p.white.send('proposeTakeback', { gameId: p.gameId });
    await p.black.next('takebackOffer');
    p.black.send('declineTakeback', { gameId: p.gameId });
    expect(await p.white.next('takebackDeclined')).toEqual({ type: 'takebackDeclined', gameId: p.gameId });
    // two plies back to the start when the proposer is to move
    p.black.send('proposeTakeback', { gameId: p.gameId });
    await p.white.next('takebackOffer');
    p.white.send('acceptTakeback', { gameId: p.gameId });
    expect(await p.black.next('takeback')).toMatchObject({ plies: 2, seq: 1, turn: 'black' });
    expect(await s.next('takeback')).toMatchObject({ plies: 2, seq: 1, turn: 'black' });
  });
});
