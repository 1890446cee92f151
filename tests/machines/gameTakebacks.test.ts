/**
 * Takebacks in the game core: who may propose, what an accepted proposal undoes (one ply when the
 * proposer moved last, two when the proposer is to move), and the clocks after it (both as the
 * earliest undone turn began, that turn starting again at the acceptance), all replayed exactly.
 */
import { describe, expect, it } from 'vitest';
import { REJECTION, clockHistory, clocksAt, replay, wakeAt } from '../../machines/game';
import { BLACK, WHITE, startGame } from './gameHarness';

const CASUAL = { takebacks: true, clockMs: 60_000, incrementMs: 2_000 };

describe('game core: takebacks', () => {
  it('are refused in a game whose settings leave them off (the default)', () => {
    const g = startGame();
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    expect(g.events.at(-1)).toEqual({ type: 'rejected', playerId: BLACK.id, reason: REJECTION.takebacksOff, command: 'PROPOSE_TAKEBACK' });
    expect(g.state().takebackOffer).toBeNull();
  });

  it('can be proposed once both sides have moved, and only by a player', () => {
    const g = startGame(CASUAL);
    g.play(['e2e4']);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.takebackTooEarly });
    g.play(['e7e5']);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: 'stranger' });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.notAPlayer });
    g.send({ type: 'ACCEPT_TAKEBACK', playerId: WHITE.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.noTakebackOffer });
  });

  it('undoes the proposer’s last move when it moved last, with both clocks as that turn began', () => {
    const g = startGame(CASUAL);
    g.play(['e2e4', 'e7e5'], 1_000);
    g.advance(5_000);
    g.move(WHITE.id, 'g1f3');
    g.advance(3_000);
    g.move(BLACK.id, 'b8c6'); // black spent 3 s, got 2 s increment
    const beforeBlackMove = { white: 57_000, black: 60_000 };
    expect(g.state().clocks).toEqual({ white: 57_000, black: 59_000 });
    g.advance(4_000); // white thinks 4 s, then black asks to take its move back
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'white', message: { type: 'takebackOffer' } });
    g.advance(1_000);
    g.send({ type: 'ACCEPT_TAKEBACK', playerId: WHITE.id });
    // to both players and the spectators
    expect(g.events.at(-1)).toEqual({
      type: 'told',
      to: 'both',
      message: {
        type: 'takeback',
        plies: 1,
        fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
        turn: 'black',
        clocks: beforeBlackMove,
        seq: 3,
      },
    });
    const s = g.state();
    expect(s.moves).toEqual(['e2e4', 'e7e5', 'g1f3']);
    expect(s.turn).toBe('black');
    expect(s.takebackOffer).toBeNull();
    // black's turn begins again now: its clock runs from 60 s
    g.wait(2_500);
    expect(clocksAt(g.state(), g.now())).toEqual({ white: 57_000, black: 57_500 });
    expect(wakeAt(g.state())).toBe(g.now() - 2_500 + 60_000 + 1_000);
  });

  it('undoes two plies when the proposer is to move: its last move and the reply', () => {
    const g = startGame(CASUAL);
    g.play(['e2e4', 'e7e5', 'g1f3'], 1_000);
    g.advance(2_000);
    g.move(BLACK.id, 'b8c6');
    g.advance(6_000);
    const told = clockHistory(g.log);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    g.send({ type: 'ACCEPT_TAKEBACK', playerId: BLACK.id });
    const back = g.told('takeback')[0].message;
    expect(back).toMatchObject({ plies: 2, turn: 'white', seq: 2 });
    // the clocks as white's third-ply turn began: both as told after ply 2
    expect(back.clocks).toEqual(told[1]);
    expect(g.state().moves).toEqual(['e2e4', 'e7e5']);
    expect(clockHistory(g.log)).toEqual(told.slice(0, 2));
  });

  it('goes back before the clocks started: the first-move deadline runs again', () => {
    const g = startGame({ ...CASUAL, firstMoveDeadlineMs: 30_000 });
    g.play(['e2e4', 'e7e5'], 1_000);
    g.advance(10_000);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    g.send({ type: 'ACCEPT_TAKEBACK', playerId: BLACK.id });
    expect(g.state().moves).toEqual([]);
    expect(wakeAt(g.state())).toBe(g.now() + 30_000);
    g.advance(30_000);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'aborted' });
  });

  it('is declined by the receiver or withdrawn by the proposer, once per position', () => {
    const g = startGame(CASUAL);
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.takebackAlreadyProposed });
    g.send({ type: 'DECLINE_TAKEBACK', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'black', message: { type: 'takebackDeclined' } });
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.takebackTooOften });
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    g.send({ type: 'DECLINE_TAKEBACK', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'black', message: { type: 'takebackDeclined' } });
    expect(g.state().moves).toHaveLength(2);
  });

  it('lapses when either side moves instead of answering; a counter-proposal accepts', () => {
    const g = startGame(CASUAL);
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    g.play(['g1f3']);
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'black', message: { type: 'takebackDeclined' } });
    expect(g.state().takebackOffer).toBeNull();
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'told', to: 'both', message: { type: 'takeback', plies: 1, turn: 'white', seq: 2 } });
  });

  it('counts repetitions from the position it returns to, and replays exactly', () => {
    const g = startGame(CASUAL);
    g.play(['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1']);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    g.send({ type: 'ACCEPT_TAKEBACK', playerId: BLACK.id });
    g.play(['f3g1']); // the same move again: no third repetition yet
    expect(g.result()).toBeNull();
    g.play(['f6g8']); // the start position a third time
    expect(g.result()).toEqual({ winner: 'draw', reason: 'threefold repetition' });
    expect(JSON.stringify(replay(JSON.parse(JSON.stringify(g.log))))).toBe(JSON.stringify(g.state()));
  });

  it('is refused once the game is over', () => {
    const g = startGame(CASUAL);
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: BLACK.id });
    g.send({ type: 'RESIGN', playerId: BLACK.id });
    g.send({ type: 'ACCEPT_TAKEBACK', playerId: WHITE.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.gameOver });
    expect(g.state().moves).toHaveLength(2);
  });
});
