import { describe, expect, it } from 'vitest';
import { REJECTION, replay } from '../../machines/game';
import { BLACK, WHITE, startGame } from './gameHarness';

describe('game core: moves', () => {
  it('emits moved with san, fen, next turn, both clocks and the ply number', () => {
    const g = startGame();
    g.move(WHITE.id, 'e2e4');
    expect(g.events).toEqual([
      {
        type: 'moved',
        move: { from: 'e2', to: 'e4' },
        san: 'e4',
        fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
        nextTurn: 'black',
        clocks: { white: 60_000, black: 60_000 },
        seq: 1,
        uci: 'e2e4',
        by: 'white',
      },
    ]);
    g.move(BLACK.id, 'c7c5');
    expect(g.ofType('moved').map((e) => [e.san, e.seq, e.nextTurn])).toEqual([
      ['e4', 1, 'black'],
      ['c5', 2, 'white'],
    ]);
    expect(g.state().moves).toEqual(['e2e4', 'c7c5']);
  });

  it('reports the promotion piece, defaulting to a queen when none was sent', () => {
    const g = startGame({ startFen: '8/P6k/8/8/8/8/7p/K7 w - - 0 1' });
    g.move(WHITE.id, 'a7a8');
    g.move(BLACK.id, 'h2h1n');
    const moved = g.ofType('moved');
    expect(moved[0].move).toEqual({ from: 'a7', to: 'a8', promotion: 'q' });
    expect(moved[0].san).toBe('a8=Q');
    expect(moved[1].move).toEqual({ from: 'h2', to: 'h1', promotion: 'n' });
  });

  it.each([
    ['a stranger', 'player_x', 'e2e4', REJECTION.notAPlayer],
    ['the side not to move', BLACK.id, 'e7e5', REJECTION.notYourTurn],
    ['an illegal move', WHITE.id, 'e2e5', REJECTION.illegalMove],
    ["a move of the opponent's piece", WHITE.id, 'e7e5', REJECTION.illegalMove],
    ['a malformed square', WHITE.id, 'z9e4', REJECTION.illegalMove],
  ])('rejects %s and leaves the state unchanged', (_label, playerId, uci, reason) => {
    const g = startGame();
    g.play(['d2d4', 'd7d5']);
    // Black's reply: turn it back to white for the out-of-turn case to be about black.
    const before = g.state();
    g.move(playerId, uci);
    expect(g.events.at(-1)).toEqual({ type: 'rejected', playerId, reason, command: 'MOVE' });
    expect(g.state()).toBe(before);
    expect(g.ofType('moved')).toHaveLength(2);
  });

  it('rejects a non-object move and a bad promotion letter without throwing', () => {
    const g = startGame();
    g.sendRaw({ type: 'MOVE', playerId: WHITE.id, move: null });
    g.sendRaw({ type: 'MOVE', playerId: WHITE.id, move: { from: 'e2', to: 'e4', promotion: 'k' } });
    expect(g.ofType('rejected').map((e) => e.reason)).toEqual([REJECTION.illegalMove, REJECTION.illegalMove]);
    // squares just outside the board, in capitals, too long or not strings
    const odd = [{ from: 'e2', to: 'e0' }, { from: 'i2', to: 'e4' }, { from: '`2', to: 'e4' }, { from: 'E2', to: 'E4' }, { from: 'e2 ', to: 'e4' }, { from: 'e2', to: 4 }];
    for (const move of odd) g.sendRaw({ type: 'MOVE', playerId: WHITE.id, move });
    expect(g.ofType('rejected')).toHaveLength(2 + odd.length);
    expect(g.state().moves).toEqual([]);
    expect(g.result()).toBeNull();
  });

  it('keeps a JSON-serialisable context', () => {
    const g = startGame();
    g.play(['e2e4', 'e7e5', 'g1f3'], 1500);
    const ctx = g.state();
    expect(JSON.parse(JSON.stringify(ctx))).toEqual(ctx);
  });
});

describe('game core: automatic ends', () => {
  it('ends by checkmate (fool’s mate) with the mating side as winner', () => {
    const g = startGame();
    g.play(['f2f3', 'e7e5', 'g2g4', 'd8h4'], 500);
    expect(g.ended()).toMatchObject({ type: 'ended', winner: 'black', reason: 'checkmate' });
    expect(g.ended().pgn).toContain('2. g4 Qh4# 0-1');
    expect(g.ended().pgn).toContain('[Result "0-1"]');
    expect(g.ended().pgn).toContain('[White "Wendy"]');
    expect(g.result()).not.toBeNull();
    expect(g.result()).toEqual({ winner: 'black', reason: 'checkmate' });
    expect(g.events.slice(-2).map((e) => e.type)).toEqual(['moved', 'ended']);
  });

  it('lets the server stop the actor from inside its ended listener', () => {
    const g = startGame();
    const sub = g.actor.on('ended', () => g.actor.stop());
    g.play(['f2f3', 'e7e5', 'g2g4', 'd8h4']);
    sub.unsubscribe();
    expect(g.ended()).toMatchObject({ reason: 'checkmate' });
    // stopped: it takes nothing more (a fromTransition snapshot keeps its status; the actor does not)
    const seen = g.events.length;
    g.move(WHITE.id, 'e2e4');
    expect(g.events).toHaveLength(seen);
  });

  it('ends by stalemate as a draw', () => {
    const g = startGame({ startFen: 'k7/8/8/1Q6/8/8/8/7K w - - 0 1' });
    g.move(WHITE.id, 'b5b6');
    expect(g.result()).toEqual({ winner: 'draw', reason: 'stalemate' });
  });

  it('ends by insufficient material when the last piece that could mate is captured', () => {
    const g = startGame({ startFen: 'k7/8/8/8/8/8/1r6/K7 w - - 0 1' });
    g.move(WHITE.id, 'a1b2');
    expect(g.result()).toEqual({ winner: 'draw', reason: 'insufficient material' });
  });

  it('ends by the fifty-move rule at the hundredth quiet ply', () => {
    const g = startGame({ startFen: '7k/8/8/8/8/8/8/R6K w - - 99 80' });
    g.move(WHITE.id, 'a1a2');
    expect(g.result()).toEqual({ winner: 'draw', reason: 'fifty-move rule' });
  });

  it('ends by threefold repetition', () => {
    const g = startGame();
    g.play(['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1']);
    expect(g.result()).toBeNull();
    g.play(['f6g8']);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'threefold repetition' });
  });

  it('ends as a draw at the maximum game length', () => {
    const g = startGame({ maxPlies: 4 });
    g.play(['g1f3', 'g8f6', 'b1c3']);
    expect(g.result()).toBeNull();
    g.play(['b8c6']);
    expect(g.result()).toEqual({ winner: 'draw', reason: 'max plies' });
  });

  it('uses 600 plies as the default maximum', () => {
    expect(startGame().state().settings.maxPlies).toBe(600);
  });
});

describe('game core: resign', () => {
  it('counts a resignation after both sides moved as a win for the opponent', () => {
    const g = startGame();
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'RESIGN', playerId: WHITE.id });
    expect(g.ended()).toMatchObject({ winner: 'black', reason: 'resignation' });
    expect(g.ended().pgn).toContain('[Result "0-1"]');
  });

  it('reports final clocks that charge the resigning side for its unfinished turn', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(3_000);
    g.send({ type: 'RESIGN', playerId: WHITE.id });
    expect(g.ended().clocks).toEqual({ white: 57_000, black: 60_000 });
  });

  it('treats a resignation before each side has moved as an abort', () => {
    const g = startGame();
    g.play(['e2e4']);
    g.send({ type: 'RESIGN', playerId: BLACK.id });
    expect(g.result()).toEqual({ winner: 'draw', reason: 'aborted' });
  });

  it('refuses a resignation from a stranger', () => {
    const g = startGame();
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'RESIGN', playerId: 'player_x' });
    expect(g.events.at(-1)).toEqual({
      type: 'rejected',
      playerId: 'player_x',
      reason: REJECTION.notAPlayer,
      command: 'RESIGN',
    });
    expect(g.result()).toBeNull();
  });
});

describe('game core: a finished game', () => {
  it('refuses every player command with "game is over" and ignores presence and wake-ups', () => {
    const g = startGame();
    g.play(['f2f3', 'e7e5', 'g2g4', 'd8h4']);
    const over = g.state();
    g.move(WHITE.id, 'e2e4');
    g.send({ type: 'RESIGN', playerId: BLACK.id });
    g.send({ type: 'OFFER_DRAW', playerId: WHITE.id });
    g.send({ type: 'PLAYER_DISCONNECTED', playerId: WHITE.id });
    g.send({ type: 'WAKE' });
    expect(g.events.slice(-3)).toEqual([
      { type: 'rejected', playerId: WHITE.id, reason: REJECTION.gameOver, command: 'MOVE' },
      { type: 'rejected', playerId: BLACK.id, reason: REJECTION.gameOver, command: 'RESIGN' },
      { type: 'rejected', playerId: WHITE.id, reason: REJECTION.gameOver, command: 'OFFER_DRAW' },
    ]);
    expect(g.state()).toBe(over);
    expect(g.ofType('ended')).toHaveLength(1);
  });

  it('keeps its final clocks in its state, and its log replays to the same state', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5'], 1_000);
    g.advance(2_500);
    g.send({ type: 'RESIGN', playerId: WHITE.id });
    expect(g.state().clocks).toEqual({ white: 57_500, black: 60_000 });
    expect(g.ended().clocks).toEqual(g.state().clocks);
    expect(JSON.stringify(replay(g.log))).toBe(JSON.stringify(g.state()));
  });
});
