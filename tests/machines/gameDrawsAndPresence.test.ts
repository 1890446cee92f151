import { describe, expect, it } from 'vitest';
import { REJECTION, rejoinState } from '../../machines/game';
import { PRESENCE_TEXT } from '../../machines/protocol/messages';
import { BLACK, WHITE, startGame } from './gameHarness';

const OPENING = ['e2e4', 'e7e5'];
// Quiet knight moves that never repeat a position three times within 20 plies.
const KNIGHT_TOUR = ['g1f3', 'b8c6', 'b1c3', 'g8f6', 'f1c4', 'f8c5', 'd2d3', 'd7d6'];

describe('game core: draw offers', () => {
  it('refuses an offer before both sides have moved', () => {
    const g = startGame();
    g.play(['e2e4']);
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({
      type: 'rejected',
      playerId: WHITE.id,
      reason: REJECTION.drawTooEarly,
      command: 'OFFER_DRAW',
    });
  });

  it('ends by agreement when the receiver accepts', () => {
    const g = startGame();
    g.play(OPENING);
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'black', message: { type: 'drawOffer' } });
    expect(rejoinState(g.state(), g.now()).drawOfferFrom).toBe('white');
    // The offerer cannot accept its own offer.
    g.send({ type: 'ACCEPT_DRAW', playerId: WHITE.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.noDrawOffer });
    g.send({ type: 'ACCEPT_DRAW', playerId: BLACK.id });
    expect(g.ended()).toMatchObject({ winner: 'draw', reason: 'agreement' });
    expect(g.ended().pgn).toContain('[Result "1/2-1/2"]');
  });

  it('allows at most one pending offer and treats a counter-offer as acceptance', () => {
    const g = startGame();
    g.play(OPENING);
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.drawAlreadyOffered });
    expect(g.told('drawOffer')).toHaveLength(1);
    g.send({ type: 'OFFER_DRAW', playerId: BLACK.id });
    expect(g.result()).toEqual({ winner: 'draw', reason: 'agreement' });
  });

  it('tells the offerer drawDeclined on decline and then limits repeat offers to one per 20 plies', () => {
    const g = startGame();
    g.play(OPENING);
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    g.send({ type: 'DECLINE_DRAW', playerId: BLACK.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'white', message: { type: 'drawDeclined' } });
    expect(g.state().drawOffer).toBeNull();
    // Declining again: there is nothing to decline.
    g.send({ type: 'DECLINE_DRAW', playerId: BLACK.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.noDrawOffer });

    g.play(KNIGHT_TOUR); // 8 more plies: 10 plies in all
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.drawTooOften });
    // Black has not offered yet and may.
    g.send({ type: 'OFFER_DRAW', playerId: BLACK.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'white', message: { type: 'drawOffer' } });
    g.send({ type: 'DECLINE_DRAW', playerId: WHITE.id });

    g.play(['c1g5', 'c8g4', 'd1d2', 'd8d7', 'e1c1', 'e8c8', 'h2h3', 'h7h6', 'a2a3', 'a7a6']); // 20 plies since white's offer at ply 2
    expect(g.state().moves).toHaveLength(22 - 2);
    g.play(['g5h4', 'g4h5']);
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'black', message: { type: 'drawOffer' } });
  });

  it('lets a pending offer lapse when the receiver moves instead of answering', () => {
    const g = startGame();
    g.play(OPENING);
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    g.move(WHITE.id, 'g1f3'); // the offerer's own move keeps the offer
    expect(g.state().drawOffer).toBe('white');
    g.move(BLACK.id, 'b8c6');
    expect(g.events.slice(-2)).toEqual([
      expect.objectContaining({ type: 'moved', san: 'Nc6' }),
      { type: 'told', to: 'white', message: { type: 'drawDeclined' } },
    ]);
    g.send({ type: 'ACCEPT_DRAW', playerId: BLACK.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'rejected', reason: REJECTION.noDrawOffer });
    expect(g.result()).toBeNull();
  });

  it('refuses draw commands from a stranger', () => {
    const g = startGame();
    g.play(OPENING);
    for (const type of ['OFFER_DRAW', 'ACCEPT_DRAW', 'DECLINE_DRAW'] as const) {
      g.send({ type, playerId: 'player_x' });
      expect(g.events.at(-1)).toEqual({ type: 'rejected', playerId: 'player_x', reason: REJECTION.notAPlayer, command: type });
    }
  });
});

describe('game core: disconnects', () => {
  it('gives the present player the win after the absent player’s grace on its own turn', () => {
    const g = startGame({ graceMs: 1_000 });
    g.play(OPENING);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: BLACK.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'white', message: { type: 'opponentDisconnected', message: PRESENCE_TEXT.left(1), graceMs: 1_000 } });
    // White thinks for 5 s: black's grace does not count while it is not black's turn.
    g.advance(5_000);
    expect(g.result()).toBeNull();
    g.move(WHITE.id, 'g1f3');
    g.advance(999);
    expect(g.result()).toBeNull();
    g.advance(1);
    expect(g.ended()).toMatchObject({ winner: 'white', reason: 'disconnection' });
    expect(g.ended().pgn).toContain('[Termination "Abandoned"]');
  });

  it('cancels the grace when the player comes back', () => {
    const g = startGame({ graceMs: 1_000, clockMs: 60_000 });
    g.play(OPENING);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.advance(600);
    g.send({ type: 'PLAYER_RECONNECTED', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({ type: 'told', to: 'black', message: { type: 'opponentReconnected', message: PRESENCE_TEXT.back } });
    g.advance(10_000);
    expect(g.result()).toBeNull();
    g.move(WHITE.id, 'g1f3');
    expect(g.ofType('moved').at(-1)?.clocks.white).toBe(49_400);
  });

  it('gives a new absence the full grace again', () => {
    const g = startGame({ graceMs: 1_000 });
    g.play(OPENING);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.advance(900);
    g.send({ type: 'PLAYER_RECONNECTED', playerId: WHITE.id });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.advance(900);
    expect(g.result()).toBeNull();
    g.advance(100);
    expect(g.result()).toEqual({ winner: 'black', reason: 'disconnection' });
  });

  it('ignores repeated and foreign presence reports', () => {
    const g = startGame({ graceMs: 1_000 });
    g.play(OPENING);
    g.send({ type: 'PLAYER_RECONNECTED', playerId: WHITE.id });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: 'player_x' });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: BLACK.id });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: BLACK.id });
    expect(g.events.filter((e) => e.type !== 'moved')).toEqual([
      { type: 'told', to: 'white', message: { type: 'opponentDisconnected', message: PRESENCE_TEXT.left(1), graceMs: 1_000 } },
    ]);
  });

  it('uses the account grace for account holders and the guest grace for guests', () => {
    const g = startGame({ graceMs: { account: 2_000, guest: 1_000 }, accountIds: [WHITE.id] });
    expect(g.state().settings.graceMs).toEqual({ white: 2_000, black: 1_000 });
    const d = startGame({ accountIds: [BLACK.id] });
    expect(d.state().settings.graceMs).toEqual({ white: 40_000, black: 80_000 });
  });

  it('calls an abandoned game a draw when the present player cannot mate', () => {
    // Black has only its king; white leaves.
    const g = startGame({ graceMs: 1_000, startFen: 'k7/8/8/8/8/8/8/3Q3K w - - 0 1' });
    g.play(['h1h2', 'a8a7']);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.advance(1_000);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'disconnection' });
  });

  it('does not count grace before both sides have moved: the first-move deadline aborts instead', () => {
    const g = startGame({ graceMs: 1_000, firstMoveDeadlineMs: 5_000 });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.advance(4_000);
    expect(g.result()).toBeNull();
    g.advance(1_000);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'aborted' });
  });

  it('keeps going on the clocks when both players are away', () => {
    const g = startGame({ graceMs: 1_000, clockMs: 10_000 });
    g.play(OPENING);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: BLACK.id });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.advance(5_000);
    expect(g.result()).toBeNull();
    g.advance(6_000); // white's 10 s + 1 s flag grace
    expect(g.result()).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('awards the game to the one who returns when the other’s grace ran out meanwhile', () => {
    const g = startGame({ graceMs: 1_000, clockMs: 60_000 });
    g.play(OPENING);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: BLACK.id });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.advance(3_000);
    expect(g.result()).toBeNull();
    g.send({ type: 'PLAYER_RECONNECTED', playerId: BLACK.id });
    expect(g.result()).toEqual({ winner: 'black', reason: 'disconnection' });
  });
});

describe('rejoinState', () => {
  it('restores position, move list, turn, running clocks, ply number and the pending offer and proposal', () => {
    const g = startGame({ clockMs: 60_000, takebacks: true });
    g.play(['e2e4', 'e7e5', 'g1f3'], 2_000);
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    g.advance(3_500);
    const state = rejoinState(g.state(), g.now());
    expect(state).toEqual({
      fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
      turn: 'black',
      moves: [
        { from: 'e2', to: 'e4' },
        { from: 'e7', to: 'e5' },
        { from: 'g1', to: 'f3' },
      ],
      timers: { white: 58, black: 57 },
      clocks: { white: 58_000, black: 56_500 },
      seq: 3,
      drawOfferFrom: 'white',
      takebackFrom: 'white',
    });
  });

  it('gives the grace each absent player has left, counted down on their turn only', () => {
    const g = startGame({ graceMs: 40_000 });
    g.play(OPENING);
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: BLACK.id });
    g.advance(5_000);
    expect(rejoinState(g.state(), g.now()).awayGraceMs).toEqual({ black: 40_000 });
    g.move(WHITE.id, 'g1f3');
    g.advance(3_000);
    expect(rejoinState(g.state(), g.now()).awayGraceMs).toEqual({ black: 37_000 });
    g.send({ type: 'PLAYER_RECONNECTED', playerId: BLACK.id });
    expect(rejoinState(g.state(), g.now()).awayGraceMs).toBeUndefined();
  });

  it('lists promotions in the move list', () => {
    const g = startGame({ startFen: '8/P6k/8/8/8/8/8/K7 w - - 0 1' });
    g.move(WHITE.id, 'a7a8r');
    expect(rejoinState(g.state(), g.now()).moves).toEqual([{ from: 'a7', to: 'a8', promotion: 'r' }]);
  });
});
