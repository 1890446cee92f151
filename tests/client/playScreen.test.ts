/** The pure parts of the game screen: move list, clocks, castling on the rook, status line, preferences, and the machine's new events. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { extendPlies, moveRows, navigatePly, pgnOf, replayMoves } from '../../machines/client/moveHistory';
import { clockText, msUntilNextChange } from '../../machines/client/clockText';
import { asKingMove, boardDests } from '../../machines/client/engine';
import { playStatus } from '../../machines/client/playStatus';
import { DEFAULT_PREFERENCES, readPreferences } from '../../machines/client/preferences';
import { multiplayerGameMachine, type MultiplayerEmitted } from '../../machines/client/multiplayerGame';
import { DEFAULT_FIRST_MOVE_DEADLINE_MS } from '../../machines/game/defaults';

describe('move history', () => {
  it('replays UCI moves to SAN and positions, and stops at an illegal one', () => {
    const plies = replayMoves(['f2f3', 'e7e5', 'g2g4', 'd8h4', 'a2a3']);
    expect(plies.map((p) => p.san)).toEqual(['f3', 'e5', 'g4', 'Qh4#']);
    expect(plies[1].fen).toBe('rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2');
  });

  it('extends the previous plies by the new move only, and starts over when the list changed otherwise', () => {
    const two = replayMoves(['e2e4', 'e7e5']);
    const three = extendPlies(two, ['e2e4', 'e7e5'], ['e2e4', 'e7e5', 'g1f3']);
    expect(three.slice(0, 2)).toEqual(two);
    expect(three[2].san).toBe('Nf3');
    expect(extendPlies(two, ['e2e4', 'e7e5'], ['d2d4']).map((p) => p.san)).toEqual(['d4']);
  });

  it('lays the moves out two to a row with their ply numbers', () => {
    expect(moveRows(['e4', 'e5', 'Nf3'])).toEqual([
      { number: 1, white: { ply: 0, san: 'e4' }, black: { ply: 1, san: 'e5' } },
      { number: 2, white: { ply: 2, san: 'Nf3' }, black: null },
    ]);
  });

  it('navigates back to the start and forward to following the game (null)', () => {
    expect(navigatePly(null, 'prev', 3)).toBe(1);
    expect(navigatePly(0, 'prev', 3)).toBe(-1);
    expect(navigatePly(-1, 'prev', 3)).toBe(-1);
    expect(navigatePly(1, 'next', 3)).toBeNull();
    expect(navigatePly(null, 'first', 3)).toBe(-1);
    expect(navigatePly(-1, 'last', 3)).toBeNull();
    expect(navigatePly(null, 'next', 3)).toBeNull();
  });

  it('writes the PGN with the players and the moves', () => {
    const pgn = pgnOf(['e2e4', 'e7e5', 'g1f3'], { White: 'Ada', Black: 'Grace' });
    expect(pgn).toContain('[White "Ada"]');
    expect(pgn).toContain('1. e4 e5 2. Nf3 *');
  });
});

describe('clock text', () => {
  it('shows mm:ss, and tenths under ten seconds', () => {
    expect(clockText(600_000)).toBe('10:00');
    expect(clockText(10_000)).toBe('00:10');
    expect(clockText(9_999)).toBe('00:09.9');
    expect(clockText(5_050)).toBe('00:05.0');
    expect(clockText(99)).toBe('00:00.0');
    expect(clockText(0)).toBe('00:00');
    expect(clockText(-3)).toBe('00:00');
  });

  it('wakes when the text changes: the next second above ten seconds, the next tenth below', () => {
    expect(msUntilNextChange(12_345)).toBe(346);
    expect(clockText(12_345 - 346)).toBe('00:12');
    expect(clockText(12_345 - 344)).toBe('00:13');
    expect(msUntilNextChange(9_876)).toBe(77);
    expect(clockText(9_876 - 77)).toBe('00:09.7');
    expect(clockText(9_876 - 76)).toBe('00:09.8');
  });
});

describe('castling by putting the king on its rook', () => {
  const fen = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1';
  it('offers the rook squares as king destinations where castling is legal', () => {
    expect(boardDests(fen).get('e1')).toEqual(expect.arrayContaining(['g1', 'c1', 'h1', 'a1']));
    expect(boardDests('r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1').get('e1')).not.toContain('h1');
  });
  it('turns king-onto-rook into the two-square king move and leaves other moves alone', () => {
    expect(asKingMove(fen, 'e1', 'h1')).toEqual({ from: 'e1', to: 'g1' });
    expect(asKingMove(fen, 'e1', 'a1')).toEqual({ from: 'e1', to: 'c1' });
    expect(asKingMove(fen, 'e1', 'f1')).toEqual({ from: 'e1', to: 'f1' });
    expect(asKingMove(fen, 'a1', 'b1')).toEqual({ from: 'a1', to: 'b1' });
  });
});

describe('status line', () => {
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  it('says whose turn it is, and "Check!" in red', () => {
    expect(playStatus({ fen: start, playerColor: 'white', end: null, theirTurn: "Opponent's Turn" })).toEqual({ text: 'Your Turn', tone: 'mine' });
    expect(playStatus({ fen: start, playerColor: 'black', end: null, theirTurn: 'AI Thinking...' })).toEqual({ text: 'AI Thinking...', tone: 'theirs' });
    const check = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
    expect(playStatus({ fen: check, playerColor: 'white', end: null, theirTurn: '' })).toEqual({ text: 'Check! Your Turn', tone: 'check' });
  });
  it('once over shows only the result, never whose turn it was', () => {
    const end = { title: 'Defeat!', reasonLabel: 'Resignation', aborted: false, draw: false };
    expect(playStatus({ fen: start, playerColor: 'white', end, theirTurn: '' })).toEqual({ text: 'Game over: Defeat! (Resignation)', tone: 'over' });
    expect(playStatus({ fen: start, playerColor: 'white', end: { ...end, aborted: true }, theirTurn: '' }).text).toBe('Game aborted');
    const mate = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
    expect(playStatus({ fen: mate, playerColor: 'white', end, theirTurn: '' }).text).toBe('Checkmate! Black wins.');
  });
});

describe('preferences', () => {
  it('keeps known values and replaces anything else by the default', () => {
    expect(readPreferences({ board: 'blue', pieces: 'glyph', muted: true })).toEqual({ ...DEFAULT_PREFERENCES, board: 'blue', pieces: 'glyph', muted: true });
    const all = { board: 'green', pieces: 'glyph', muted: true, premoves: false, confirmMovesOnPhone: true, zen: true, chatHidden: true, chatMuteOpponent: true };
    expect(readPreferences(all)).toEqual(all);
    expect(readPreferences({ premoves: 'no', zen: 1 })).toEqual(DEFAULT_PREFERENCES);
    expect(readPreferences({ board: 'purple', pieces: 3, muted: 'yes' })).toEqual(DEFAULT_PREFERENCES);
    expect(readPreferences(null)).toEqual(DEFAULT_PREFERENCES);
  });
});

describe('multiplayer machine: what the game screen needs', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function game(color: 'white' | 'black' = 'white') {
    let t = 1000;
    const actor = createActor(multiplayerGameMachine, { input: { now: () => t, random: () => 0 } }).start();
    const out: MultiplayerEmitted[] = [];
    actor.on('*', (e) => out.push(e as MultiplayerEmitted));
    actor.send({ type: 'START', msg: { type: 'gameStart', gameId: 'g1', color, opponentId: 'player_x', timerDuration: 600 } });
    return { actor, out, ctx: () => actor.getSnapshot().context, advance: (ms: number) => { t += ms; } };
  }

  it('a move the socket could not carry is taken back and said so', () => {
    const g = game();
    g.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    g.actor.send({ type: 'MOVE_NOT_SENT' });
    expect(g.ctx().moves).toEqual([]);
    expect(g.ctx().fen).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(g.ctx().turn).toBe('white');
    expect(g.ctx().notice).toMatch(/^Not connected: your move was not sent/);
  });

  it('"Game Started" and "Draw Offered" notify only a hidden tab', () => {
    const g = game();
    g.actor.send({ type: 'DRAW_OFFERED' });
    const notes = g.out.filter((e) => e.type === 'notify');
    expect(notes.map((n) => n.type === 'notify' && [n.title, n.onlyWhenHidden])).toEqual([['Game Started', true], ['Draw Offered', true]]);
  });

  it('counts down the first-move deadline until both sides have moved', () => {
    const g = game();
    expect(g.ctx().firstMoveDeadline).toBe(1000 + DEFAULT_FIRST_MOVE_DEADLINE_MS);
    g.advance(5000);
    g.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    expect(g.ctx().firstMoveDeadline).toBe(6000 + DEFAULT_FIRST_MOVE_DEADLINE_MS);
    g.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    expect(g.ctx().firstMoveDeadline).toBeNull();
  });

  it('keeps that the opponent left and the grace the server gave them; clears it when they are back', () => {
    const g = game();
    g.actor.send({ type: 'OPPONENT_DISCONNECTED', graceMs: 80_000 });
    expect(g.ctx().opponentAway).toEqual({ graceLeftMs: 80_000, countingSince: null });
    g.actor.send({ type: 'OPPONENT_RECONNECTED' });
    expect(g.ctx().opponentAway).toBeNull();
  });

  it('offers a rematch of the game that ended, accepts an offer, and hears a decline', () => {
    const g = game();
    g.actor.send({ type: 'END', msg: { type: 'gameEnd', gameId: 'g1', winner: 'white', reason: 'resignation' } });
    g.actor.send({ type: 'REMATCH_OFFERED', gameId: 'other' });
    expect(g.ctx().rematch).toBe('none');
    g.actor.send({ type: 'REMATCH_OFFERED', gameId: 'g1' });
    expect(g.ctx().rematch).toBe('received');
    g.actor.send({ type: 'OFFER_REMATCH' });
    expect(g.out.filter((e) => e.type === 'send').map((e) => e.type === 'send' && e.message)).toEqual([{ type: 'offerRematch', payload: { gameId: 'g1' } }]);
    expect(g.ctx().rematch).toBe('sent');
    g.actor.send({ type: 'REMATCH_DECLINED', gameId: 'g1' });
    expect(g.ctx().rematch).toBe('declined');
    g.actor.send({ type: 'OFFER_REMATCH' });
    expect(g.out.filter((e) => e.type === 'send')).toHaveLength(1);
    // the new game clears it
    g.actor.send({ type: 'START', msg: { type: 'gameStart', gameId: 'g2', color: 'black', opponentId: 'player_x', timerDuration: 600 } });
    expect(g.ctx()).toMatchObject({ rematch: 'none', endedGameId: null, color: 'black' });
  });

  it('an aborted game ends as aborted and is not recorded as a result', () => {
    const g = game();
    g.actor.send({ type: 'END', msg: { type: 'gameEnd', gameId: 'g1', winner: 'draw', reason: 'aborted' } });
    expect(g.ctx().end).toMatchObject({ aborted: true, reason: 'aborted' });
    expect(g.out.some((e) => e.type === 'finished')).toBe(false);
  });
});
