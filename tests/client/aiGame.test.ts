import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { aiGameMachine, presetFor } from '../../machines/client/aiGame';
import type { ClientMessage } from '../../machines/protocol/messages';

/** The AI's move is played by the game core's step as it arrives. */
const aiMovePlayed = () => Promise.resolve();

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start() {
  const sent: ClientMessage[] = [];
  const actor = createActor(aiGameMachine, { input: undefined }).start();
  actor.on('send', (e) => sent.push(e.message));
  return { actor, sent, ctx: () => actor.getSnapshot().context };
}

describe('AI game machine', () => {
  it('defaults to level 5 and white; presets and slider clamp to 1..10', () => {
    const h = start();
    expect(h.ctx().difficulty).toBe(5);
    expect(h.ctx().colorChoice).toBe('white');
    h.actor.send({ type: 'SET_DIFFICULTY', level: 42 });
    expect(h.ctx().difficulty).toBe(10);
    h.actor.send({ type: 'SET_DIFFICULTY', level: 0 });
    expect(h.ctx().difficulty).toBe(1);
    expect([1, 3, 4, 7, 8, 10].map(presetFor)).toEqual(['Beginner', 'Beginner', 'Inter', 'Inter', 'Advanced', 'Advanced']);
  });

  it('start sends startAIGame; a second start while in progress is ignored', () => {
    const h = start();
    h.actor.send({ type: 'SET_DIFFICULTY', level: 1 });
    h.actor.send({ type: 'SET_COLOR', color: 'black' });
    h.actor.send({ type: 'START' });
    h.actor.send({ type: 'START' });
    expect(h.sent).toEqual([{ type: 'startAIGame', payload: { options: { difficulty: 1, playerColor: 'black' } } }]);
    h.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'black', opponentName: 'Stockfish AI' } });
    expect(h.actor.getSnapshot().value).toBe('playing');
    h.actor.send({ type: 'START' });
    expect(h.sent).toHaveLength(1);
  });

  it('plays AI and player moves; a game-ending moveMade ends the game', async () => {
    const h = start();
    h.actor.send({ type: 'START' });
    h.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'white', opponentName: 'Stockfish AI' } });
    const moves: [string, string][] = [['f2', 'f3'], ['g2', 'g4']];
    const replies: [string, string][] = [['e7', 'e5'], ['d8', 'h4']];
    for (let i = 0; i < 2; i++) {
      h.actor.send({ type: 'LOCAL_MOVE', from: moves[i][0], to: moves[i][1] });
      h.actor.send({ type: 'MOVE_MADE', msg: { type: 'gameMove', gameId: 'ai1', move: { from: replies[i][0], to: replies[i][1] }, nextTurn: 'white' } });
      await aiMovePlayed();
    }
    expect(h.sent.filter((m) => m.type === 'gameMove')).toHaveLength(2);
    const s = h.actor.getSnapshot();
    expect(s.value).toBe('over');
    expect(s.context.result).toMatchObject({ outcome: 'loss', reason: 'checkmate' });
    expect(s.context.modalOpen).toBe(true);
    h.actor.send({ type: 'CLOSE_MODAL' });
    expect(h.ctx().modalOpen).toBe(false);
    h.actor.send({ type: 'PLAY_AGAIN' });
    expect(h.actor.getSnapshot().value).toBe('setup');
    expect(h.ctx()).toMatchObject({ gameId: null, colorChoice: 'white', moves: [], result: null });
  });

  it('resign ends the game as a loss and sends resign (before both moved: aborted); an error ends it with "Error: …"', () => {
    const a = start();
    a.actor.send({ type: 'START' });
    a.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai0', playerColor: 'white', opponentName: 'Stockfish AI' } });
    a.actor.send({ type: 'RESIGN' });
    expect(a.ctx().result).toMatchObject({ outcome: 'draw', reason: 'aborted' });

    const h = start();
    h.actor.send({ type: 'START' });
    h.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'white', opponentName: 'Stockfish AI' } });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'MOVE_MADE', msg: { type: 'gameMove', gameId: 'ai1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    h.actor.send({ type: 'RESIGN' });
    expect(h.sent.at(-1)).toEqual({ type: 'resign', payload: { gameId: 'ai1' } });
    expect(h.ctx().result).toMatchObject({ outcome: 'loss', reason: 'resignation' });

    const e = start();
    e.actor.send({ type: 'START' });
    e.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai2', playerColor: 'black', opponentName: 'Stockfish AI' } });
    e.actor.send({ type: 'ERROR', message: 'engine crashed' });
    expect(e.actor.getSnapshot().value).toBe('over');
    expect(e.ctx().error).toBe('Error: engine crashed');
  });

  it('server gameOver: draw on technical_draw, else by winner colour', () => {
    const h = start();
    h.actor.send({ type: 'START' });
    h.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'black', opponentName: 'X' } });
    h.actor.send({ type: 'GAME_OVER', msg: { type: 'gameEnd', gameId: 'ai1', reason: 'technical_draw', winner: 'black' } });
    expect(h.ctx().result?.outcome).toBe('draw');
  });

  it('moves are refused when it is the AI\'s turn', async () => {
    const h = start();
    h.actor.send({ type: 'START' });
    h.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'black', opponentName: 'X' } });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e7', to: 'e5' });
    expect(h.sent.filter((m) => m.type === 'gameMove')).toHaveLength(0);
    h.actor.send({ type: 'MOVE_MADE', msg: { type: 'gameMove', gameId: 'ai1', move: { from: 'e2', to: 'e4' }, nextTurn: 'black' } });
    await aiMovePlayed();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e7', to: 'e5' });
    expect(h.sent.filter((m) => m.type === 'gameMove')).toHaveLength(1);
  });
});

describe('the AI game is the game core\'s state', () => {
  it('an echo of the player\'s own move is ignored; a reconnect resumes from the server\'s moves', async () => {
    const h = start();
    h.actor.send({ type: 'START' });
    h.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'white', opponentName: 'X' } });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    const afterE4 = h.ctx().fen;
    h.actor.send({ type: 'MOVE_MADE', msg: { type: 'gameMove', gameId: 'ai1', move: { from: 'e2', to: 'e4' }, nextTurn: 'black', fen: afterE4 } });
    h.actor.send({ type: 'MOVE_MADE', msg: { type: 'gameMove', gameId: 'ai1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    await aiMovePlayed();
    expect(h.ctx()).toMatchObject({ moves: ['e2e4', 'e7e5'], lastMove: ['e7', 'e5'] });

    const r = start();
    r.actor.send({
      type: 'AI_GAME_START',
      msg: {
        type: 'gameStart', gameId: 'ai9', color: 'black', opponentId: 'engine_ai9', timerDuration: 0, engineLevel: 3,
        currentState: { fen: afterE4, turn: 'black', moves: [{ from: 'e2', to: 'e4' }], timers: { white: 0, black: 0 } },
      },
    });
    expect(r.actor.getSnapshot().value).toBe('playing');
    r.actor.send({ type: 'LOCAL_MOVE', from: 'c7', to: 'c5' });
    expect(r.sent).toEqual([{ type: 'gameMove', payload: { gameId: 'ai9', move: { from: 'c7', to: 'c5', piece: 'p' } } }]);
    expect(r.ctx().difficulty).toBe(3);
    r.actor.send({ type: 'LOCAL_MOVE', from: 'd7', to: 'd5' });
    expect(r.sent).toHaveLength(1);
  });

  it("a repetition ends the game where the multiplayer game's core ends it, with the core's result", () => {
    const h = start();
    h.actor.send({ type: 'START' });
    h.actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'white', opponentName: 'X' } });
    const mine = ['g1f3', 'f3g1', 'g1f3', 'f3g1'];
    const theirs = ['g8f6', 'f6g8', 'g8f6', 'f6g8'];
    for (let i = 0; i < 4; i++) {
      h.actor.send({ type: 'LOCAL_MOVE', from: mine[i].slice(0, 2), to: mine[i].slice(2) });
      h.actor.send({ type: 'MOVE_MADE', msg: { type: 'gameMove', gameId: 'ai1', move: { from: theirs[i].slice(0, 2), to: theirs[i].slice(2) }, nextTurn: 'white' } });
    }
    expect(h.ctx().game?.result).toEqual({ winner: 'draw', reason: 'threefold repetition' });
    expect(h.actor.getSnapshot().value).toBe('over');
    expect(h.ctx().result).toEqual({ outcome: 'draw', reason: 'threefold repetition', winner: 'draw' });
  });

  it('a resumed game is rebuilt by the core from the server\'s moves; the server\'s end is the core\'s result', () => {
    const h = start();
    h.actor.send({
      type: 'AI_GAME_START',
      msg: { type: 'gameStart', gameId: 'ai3', color: 'white', opponentId: 'engine_ai3', timerDuration: 0, engineLevel: 1, currentState: { fen: '', turn: 'white', moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }], timers: { white: 0, black: 0 } } },
    });
    expect(h.ctx().game?.moves).toEqual(['e2e4', 'e7e5']);
    expect(h.ctx().turn).toBe('white');
    h.actor.send({ type: 'GAME_OVER', msg: { type: 'gameEnd', gameId: 'ai3', reason: 'disconnection', winner: 'black' } });
    expect(h.ctx().game?.result).toEqual({ winner: 'black', reason: 'disconnection' });
    expect(h.ctx().result).toMatchObject({ outcome: 'loss', reason: 'disconnection' });
  });
});

describe('the clocks of a game against the AI with a time control', () => {
  it('asks for the chosen clock, shows the server\'s clocks, and none without a clock', () => {
    let now = 1_000;
    const sent: ClientMessage[] = [];
    const actor = createActor(aiGameMachine, { input: { now: () => now } }).start();
    actor.on('send', (e) => sent.push(e.message));
    actor.send({ type: 'SET_TIME_CONTROL', timeControl: { initial: 180, increment: 2 } });
    actor.send({ type: 'START' });
    expect(sent).toEqual([{ type: 'startAIGame', payload: { options: { difficulty: 5, playerColor: 'white', timeControl: { initial: 180, increment: 2 } } } }]);
    actor.send({
      type: 'AI_GAME_START',
      msg: { type: 'gameStart', gameId: 'g1', color: 'white', opponentId: 'engine_g1', timerDuration: 180, timeControl: { initial: 180, increment: 2 }, engineLevel: 5 },
    });
    expect(actor.getSnapshot().context).toMatchObject({ timeControl: { initial: 180, increment: 2 }, clocks: { white: 180_000, black: 180_000 }, clockRunning: null });
    for (const [mine, theirs, clocks] of [
      ['e2e4', 'e7e5', { white: 180_000, black: 180_000 }],
      ['g1f3', 'b8c6', { white: 181_000, black: 179_500 }],
    ] as const) {
      actor.send({ type: 'LOCAL_MOVE', from: mine.slice(0, 2), to: mine.slice(2) });
      now += 500;
      actor.send({ type: 'MOVE_MADE', msg: { type: 'gameMove', gameId: 'g1', move: { from: theirs.slice(0, 2), to: theirs.slice(2) }, nextTurn: 'white', clocks } });
    }
    // the player's clock runs from the server's reading
    expect(actor.getSnapshot().context).toMatchObject({ clocks: { white: 181_000, black: 179_500 }, clockSyncedAt: now, clockRunning: 'white' });
    actor.send({ type: 'TIMER_UPDATE', msg: { type: 'timerUpdate', gameId: 'g1', timers: { white: 170, black: 179 }, clocks: { white: 170_400, black: 179_500 } } });
    expect(actor.getSnapshot().context.clocks).toEqual({ white: 170_400, black: 179_500 });
  });
});

describe('AI game notices', () => {
  it('a rejected move shows "Invalid move: …" until cleared; errors from the server stay', () => {
    const actor = createActor(aiGameMachine, { input: undefined }).start();
    actor.send({ type: 'START' });
    actor.send({ type: 'GAME_CREATED', msg: { type: 'gameCreated', gameId: 'ai1', playerColor: 'white', opponentName: 'X' } });
    actor.send({ type: 'REJECTED', message: 'Not your turn' });
    expect(actor.getSnapshot().context.error).toBe('Invalid move: Not your turn');
    actor.send({ type: 'CLEAR_NOTICE' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'ERROR', message: 'engine crashed' });
    actor.send({ type: 'CLEAR_NOTICE' });
    expect(actor.getSnapshot().context.error).toBe('Error: engine crashed');
  });
});
