import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { GAME_TEXT, multiplayerGameMachine, type MultiplayerEmitted } from '../../machines/client/multiplayerGame';
import { statusText } from '../../machines/client/engine';
import type { GameStartMsg } from '../../machines/protocol/messages';
import { createGame, step } from '../../machines/game/step';
import { wakeAt } from '../../machines/game/clock';
import { uciToWireMove } from '../../machines/game/rejoin';
import { DEFAULT_FIRST_MOVE_DEADLINE_MS } from '../../machines/game/defaults';
import type { GameState } from '../../machines/game/types';
import { REJECTION } from '../../machines/game/reasons';

function start(opts: { color?: 'white' | 'black'; random?: number } = {}) {
  let t = 0;
  const now = () => t;
  const actor = createActor(multiplayerGameMachine, { input: { now, random: () => opts.random ?? 0 } }).start();
  const out: MultiplayerEmitted[] = [];
  actor.on('*', (e) => out.push(e as MultiplayerEmitted));
  const begin = (extra: Partial<GameStartMsg> = {}) =>
    actor.send({ type: 'START', msg: { type: 'gameStart', gameId: 'g1', color: opts.color ?? 'white', opponentId: 'player_xyz', timerDuration: 600, ...extra } });
  return { actor, out, begin, advance: (ms: number) => { t += ms; }, ctx: () => actor.getSnapshot().context };
}

const sends = (out: MultiplayerEmitted[]) => out.filter((e) => e.type === 'send').map((e) => (e as Extract<MultiplayerEmitted, { type: 'send' }>).message);

describe('multiplayer game machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks(); });

  it('starts with the colour, 10-minute clocks and a display name derived from the id', () => {
    const h = start({ color: 'black' });
    h.begin();
    const c = h.ctx();
    expect(h.actor.getSnapshot().matches({ game: 'playing' })).toBe(true);
    expect(c.color).toBe('black');
    expect(c.clocks).toEqual({ white: 600_000, black: 600_000 });
    expect(c.opponentName).toBe('Player xyz');
    expect(h.out.find((e) => e.type === 'notify')).toMatchObject({ title: 'Game Started', body: 'Your game with Player xyz has begun.' });
  });

  it('a legal local move is applied and sent with the piece; the turn passes', () => {
    const h = start();
    h.begin();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    expect(sends(h.out)).toEqual([{ type: 'gameMove', payload: { gameId: 'g1', move: { from: 'e2', to: 'e4', piece: 'p' } } }]);
    expect(h.ctx().turn).toBe('black');
    expect(h.ctx().lastMove).toEqual(['e2', 'e4']);
    // a second move before the opponent's is not ours to make
    const v = h.ctx().boardVersion;
    h.actor.send({ type: 'LOCAL_MOVE', from: 'd2', to: 'd4' });
    expect(sends(h.out)).toHaveLength(1);
    expect(h.ctx().boardVersion).toBe(v + 1);
  });

  it('an illegal drop is dropped locally and the board reset', () => {
    const h = start();
    h.begin();
    const v = h.ctx().boardVersion;
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e5' });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e7', to: 'e5' });
    expect(sends(h.out)).toHaveLength(0);
    expect(h.ctx().boardVersion).toBe(v + 2);
  });

  it("opponent moves give the turn back; our echoed move is not applied twice", () => {
    const h = start();
    h.begin();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e2', to: 'e4' }, nextTurn: 'black' } });
    expect(h.ctx().moves).toEqual(['e2e4']);
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    expect(h.ctx().moves).toEqual(['e2e4', 'e7e5']);
    expect(h.ctx().turn).toBe('white');
    expect(h.ctx().lastMove).toEqual(['e7', 'e5']);
  });

  it('a server move the engine rejects is logged and the turn is still handed back', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const h = start({ color: 'black' });
    h.begin();
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e2', to: 'e6' }, nextTurn: 'black' } });
    expect(warn).toHaveBeenCalled();
    expect(h.ctx().turn).toBe('black');
  });

  it('clocks: the side to move ticks from the second ply; server clocks override', () => {
    const h = start();
    h.begin();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    expect(h.ctx().clockRunning).toBeNull();
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white', clocks: { white: 599_000, black: 598_000 } } });
    expect(h.ctx().clockRunning).toBe('white');
    expect(h.ctx().clocks).toEqual({ white: 599_000, black: 598_000 });
    h.actor.send({ type: 'TIMERS', msg: { type: 'timerUpdate', gameId: 'g1', timers: { white: 590, black: 598 } } });
    expect(h.ctx().clocks).toEqual({ white: 590_000, black: 598_000 });
  });

  it('rejoin restores position, last move, turn and timers', () => {
    const h = start({ color: 'black' });
    h.begin({
      currentState: {
        fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', turn: 'black',
        moves: [{ from: 'e2', to: 'e4' }], timers: { white: 590, black: 600 },
      },
    });
    const c = h.ctx();
    expect(c.turn).toBe('black');
    expect(c.lastMove).toEqual(['e2', 'e4']);
    expect(c.clocks).toEqual({ white: 590_000, black: 600_000 });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e7', to: 'e5' });
    expect(sends(h.out)).toHaveLength(1);
  });

  it('draw offers: sent, received (Accept/Decline), declined for 3 s', () => {
    const h = start();
    h.begin();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    h.actor.send({ type: 'OFFER_DRAW' });
    expect(h.ctx().draw).toBe('sent');
    expect(sends(h.out).at(-1)).toEqual({ type: 'offerDraw', payload: { gameId: 'g1' } });
    h.actor.send({ type: 'DRAW_DECLINED' });
    expect(h.ctx().notice).toBe('Draw offer declined');
    vi.advanceTimersByTime(2999);
    expect(h.ctx().notice).toBe('Draw offer declined');
    vi.advanceTimersByTime(1);
    expect(h.ctx().notice).toBeNull();
    h.actor.send({ type: 'DRAW_OFFERED' });
    expect(h.ctx().draw).toBe('received');
    h.actor.send({ type: 'DECLINE_DRAW' });
    expect(sends(h.out).at(-1)).toEqual({ type: 'declineDraw', payload: { gameId: 'g1' } });
    expect(h.ctx().draw).toBe('none');
    expect(h.actor.getSnapshot().matches({ game: 'playing' })).toBe(true);
  });

  it('takebacks: offered only where the game allows them, proposed, answered, and the board goes back with the server', () => {
    const off = start();
    off.begin({ currentState: { fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', turn: 'white', moves: [uciToWireMove('e2e4'), uciToWireMove('e7e5')], timers: { white: 600, black: 600 } } });
    expect(off.ctx()).toMatchObject({ takebacksAllowed: false, takebackRefusal: REJECTION.takebacksOff });
    off.actor.send({ type: 'PROPOSE_TAKEBACK' });
    expect(sends(off.out)).toEqual([]);

    const h = start();
    h.begin({ takebacks: true });
    expect(h.ctx()).toMatchObject({ takebacksAllowed: true, takebackRefusal: REJECTION.takebackTooEarly });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white', seq: 2 } });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    expect(h.ctx().takebackRefusal).toBeNull();
    h.actor.send({ type: 'PROPOSE_TAKEBACK' });
    expect(sends(h.out).at(-1)).toEqual({ type: 'proposeTakeback', payload: { gameId: 'g1' } });
    expect(h.ctx().takeback).toBe('sent');
    h.actor.send({ type: 'TAKEBACK_DECLINED' });
    expect(h.ctx()).toMatchObject({ takeback: 'none', notice: GAME_TEXT.takebackDeclined });
    // the server takes the move back: the board, the moves and the clocks follow
    h.advance(5_000);
    const v = h.ctx().boardVersion;
    h.actor.send({ type: 'TAKEN_BACK', msg: { type: 'takeback', gameId: 'g1', plies: 1, fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', turn: 'white', clocks: { white: 600_000, black: 600_000 }, seq: 2 } });
    expect(h.ctx()).toMatchObject({ moves: ['e2e4', 'e7e5'], turn: 'white', clockRunning: 'white', notice: GAME_TEXT.takenBack, boardVersion: v + 1 });
    // the opponent proposes: we are asked, and our answer goes to the server
    h.actor.send({ type: 'TAKEBACK_OFFERED' });
    expect(h.ctx().takeback).toBe('received');
    h.actor.send({ type: 'ACCEPT_TAKEBACK' });
    expect(sends(h.out).at(-1)).toEqual({ type: 'acceptTakeback', payload: { gameId: 'g1' } });
    h.actor.send({ type: 'DECLINE_TAKEBACK' });
    expect(sends(h.out).at(-1)).toEqual({ type: 'declineTakeback', payload: { gameId: 'g1' } });
    expect(h.ctx().takeback).toBe('none');
  });

  it('giving time: through the core (once a second), sent, and the clocks the server tells win, for the giver and the receiver', () => {
    const h = start();
    h.begin();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white', clocks: { white: 600_000, black: 600_000 }, seq: 2 } });
    h.advance(2_000);
    h.actor.send({ type: 'GIVE_TIME' });
    expect(sends(h.out).at(-1)).toEqual({ type: 'giveTime', payload: { gameId: 'g1' } });
    // the core's arithmetic at once: black's clock 15 s more, ours running on
    expect(h.ctx().clocks.black).toBe(615_000);
    // again at once: the core refuses, nothing is sent
    h.actor.send({ type: 'GIVE_TIME' });
    expect(sends(h.out).filter((m) => m.type === 'giveTime')).toHaveLength(1);
    expect(h.ctx().notice).toBe(REJECTION.giveTimeTooOften);
    // the server's clocks win
    h.actor.send({ type: 'TIME_GIVEN', msg: { type: 'timeGiven', gameId: 'g1', color: 'black', ms: 15_000, clocks: { white: 597_500, black: 615_000 } } });
    expect(h.ctx()).toMatchObject({ clocks: { white: 597_500, black: 615_000 }, clockRunning: 'white', notice: GAME_TEXT.timeGiven(15) });
    // the opponent gives us time
    h.actor.send({ type: 'TIME_GIVEN', msg: { type: 'timeGiven', gameId: 'g1', color: 'white', ms: 15_000, clocks: { white: 612_000, black: 615_000 } } });
    expect(h.ctx()).toMatchObject({ clocks: { white: 612_000, black: 615_000 }, notice: GAME_TEXT.timeReceived(15) });
    // another game's is not ours
    h.actor.send({ type: 'TIME_GIVEN', msg: { type: 'timeGiven', gameId: 'g2', color: 'white', ms: 15_000, clocks: { white: 1, black: 1 } } });
    expect(h.ctx().clocks).toEqual({ white: 612_000, black: 615_000 });
  });

  it('reconnect text clears after 3 s; rejected move shows "Invalid move: …" for 3 s', () => {
    const h = start();
    h.begin();
    h.actor.send({ type: 'OPPONENT_DISCONNECTED', graceMs: 40_000 });
    vi.advanceTimersByTime(10_000);
    expect(h.ctx().notice).toBeNull();
    h.actor.send({ type: 'OPPONENT_RECONNECTED' });
    expect(h.ctx().notice).toBe(GAME_TEXT.opponentBack);
    vi.advanceTimersByTime(3000);
    expect(h.ctx().notice).toBeNull();
    h.actor.send({ type: 'REJECTED', message: 'Not your turn' });
    expect(h.ctx().notice).toBe('Invalid move: Not your turn');
    vi.advanceTimersByTime(3000);
    expect(h.ctx().notice).toBeNull();
  });

  it('game end: outcome for the local player, game id cleared, result stored, message chosen', () => {
    const h = start({ color: 'black', random: 0 });
    h.begin();
    h.actor.send({ type: 'END', msg: { type: 'gameEnd', gameId: 'g1', winner: 'black', reason: 'checkmate' } });
    const snap = h.actor.getSnapshot();
    expect(snap.matches({ game: 'over' })).toBe(true);
    expect(snap.context.gameId).toBeNull();
    expect(snap.context.end).toMatchObject({ outcome: 'win', reason: 'checkmate' });
    expect(snap.context.end?.message.length).toBeGreaterThan(0);
    const finished = h.out.find((e) => e.type === 'finished') as Extract<MultiplayerEmitted, { type: 'finished' }>;
    expect(finished.result).toMatchObject({ id: 'g1', playerColor: 'black', result: 'win', reason: 'checkmate', opponentId: 'player_xyz' });
    // as the original client: notification colour is fixed to white, so a black win notifies "Defeat"
    expect(h.out.filter((e) => e.type === 'notify').at(-1)).toMatchObject({ title: 'Defeat', body: 'Game ended by checkmate' });
    // the same gameEnd a second time (several nodes may send it twice): nothing more is shown or stored
    const told = h.out.length;
    h.actor.send({ type: 'END', msg: { type: 'gameEnd', gameId: 'g1', winner: 'black', reason: 'checkmate' } });
    expect(h.out.length).toBe(told);
    expect(h.actor.getSnapshot().context.end).toBe(snap.context.end);
    h.actor.send({ type: 'RESET' });
    expect(h.actor.getSnapshot().matches({ game: 'idle' })).toBe(true);
  });

  it("ratings from gameStart; the ended game's rating change is kept, another game's ignored, a new game clears it", () => {
    const h = start({ color: 'white' });
    const ratings = { white: { rating: 1512, provisional: false }, black: null };
    h.begin({ ratings });
    expect(h.ctx().ratings).toEqual(ratings);
    h.actor.send({ type: 'END', msg: { type: 'gameEnd', gameId: 'g1', winner: 'white', reason: 'resignation' } });
    const change = { white: { before: 1512, after: 1524 }, black: { before: 1500, after: 1488 } };
    h.actor.send({ type: 'RATING_CHANGE', msg: { type: 'ratingChange', gameId: 'other', speed: 'rapid', ...change } });
    expect(h.ctx().ratingChange).toBeNull();
    h.actor.send({ type: 'RATING_CHANGE', msg: { type: 'ratingChange', gameId: 'g1', speed: 'rapid', ...change } });
    expect(h.ctx().ratingChange).toEqual({ speed: 'rapid', ...change });
    h.begin({ gameId: 'g2' });
    expect(h.ctx()).toMatchObject({ ratings: null, ratingChange: null });
  });
});

describe('local engine status texts', () => {
  it('turn, check, checkmate and stalemate', () => {
    expect(statusText('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toBe("White's turn.");
    expect(statusText('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3')).toBe('Checkmate! Black wins.');
    expect(statusText('4k3/8/8/8/8/8/4q3/4K3 w - - 0 1')).toBe("Check! White's turn.");
    expect(statusText('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1')).toBe('Stalemate! Game is a draw.');
    expect(statusText('4k3/8/8/8/8/8/8/4K3 w - - 0 1', true)).toBe('Draw!');
  });
});

describe('multiplayer game view: the game is the core\'s state, kept by the core\'s step', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks(); });

  /** The same moves through the core directly, each at its time, white's id 'white' and black's 'black'. */
  function coreAfter(moves: [string, number][], startedAt = 0): GameState {
    let state = createGame({ gameId: 'g1', white: { id: 'white', name: '' }, black: { id: 'black', name: '' }, startedAt });
    for (const [uci, at] of moves) state = step(state, { type: 'MOVE', playerId: state.turn, move: uciToWireMove(uci) }, at).state;
    return state;
  }

  it("holds the core's state after our moves and the server's, and shows what the core says", () => {
    const h = start();
    h.begin();
    h.advance(3000);
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.advance(2000);
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    h.advance(4000);
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    const core = coreAfter([['e2e4', 3000], ['e7e5', 5000], ['g1f3', 9000]]);
    expect(h.ctx().game).toEqual(core);
    expect(h.ctx()).toMatchObject({
      fen: core.fen, moves: core.moves, turn: 'black', clocks: core.clocks, clockSyncedAt: 9000,
      clockRunning: 'black', firstMoveDeadline: null, lastMove: ['g1', 'f3'],
    });
    expect(h.ctx().clocks.white).toBe(600_000 - 4000);
  });

  it("a game with an increment: the core adds it to our clock after our timed move, as the server's core does", () => {
    const h = start();
    h.begin({ timerDuration: 180, timeControl: { initial: 180, increment: 2 } });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    h.advance(3_000);
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    expect(h.ctx().clocks.white).toBe(180_000 - 3_000 + 2_000);
  });

  it("the first-move deadline is the core's wake-up time until both sides have moved", () => {
    const h = start();
    h.advance(1500);
    h.begin();
    const game = h.ctx().game;
    expect(game && wakeAt(game)).toBe(h.ctx().firstMoveDeadline);
    expect(h.ctx().firstMoveDeadline).toBe(1500 + DEFAULT_FIRST_MOVE_DEADLINE_MS);
  });

  it('a rejoin replays the moves the server lists through the core, with the server clocks', () => {
    const h = start({ color: 'white' });
    h.advance(10_000);
    h.begin({ currentState: { fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', turn: 'white', moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }], timers: { white: 500, black: 550 }, clocks: { white: 500_000, black: 550_000 } } });
    expect(h.ctx().moves).toEqual(['e2e4', 'e7e5']);
    expect(h.ctx().game?.fen).toBe(coreAfter([['e2e4', 0], ['e7e5', 0]]).fen);
    expect(h.ctx()).toMatchObject({ clocks: { white: 500_000, black: 550_000 }, clockSyncedAt: 10_000, clockRunning: 'white' });
  });

  it('a rejoin after the server lost moves (a power loss) shows the server\'s position, not the moves this client saw', () => {
    const h = start({ color: 'white' });
    h.begin();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e2', to: 'e4' }, nextTurn: 'black' } });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'g1', to: 'f3' }, nextTurn: 'black' } });
    expect(h.ctx().moves).toEqual(['e2e4', 'e7e5', 'g1f3']);
    // the restarted server resumed the game at its last synced position: two moves
    h.begin({ currentState: { fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', turn: 'white', moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }], timers: { white: 590, black: 595 }, clocks: { white: 590_000, black: 595_000 } } });
    expect(h.ctx().moves).toEqual(['e2e4', 'e7e5']);
    expect(h.ctx().turn).toBe('white');
    expect(h.ctx().game?.fen).toBe(coreAfter([['e2e4', 0], ['e7e5', 0]]).fen);
    // and the lost move can be played again
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    expect(sends(h.out).at(-1)).toEqual({ type: 'gameMove', payload: { gameId: 'g1', move: { from: 'g1', to: 'f3', piece: 'n' } } });
  });

  it('a clock at zero is the server\'s to flag: the copy shows 0:00 and still takes the move', () => {
    const h = start();
    h.begin({ timerDuration: 60 });
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    h.advance(61_000);
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    expect(sends(h.out)).toHaveLength(2);
    expect(h.ctx().game?.result).toBeNull();
    expect(h.ctx().clocks.white).toBe(0);
  });

  it('a mating move ends the copy at once (clocks stop); the view waits for the server to end the game', () => {
    const h = start({ color: 'black' });
    h.begin();
    for (const [from, to] of [['f2', 'f3'], ['g2', 'g4']]) {
      h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from, to }, nextTurn: 'black' } });
      if (from === 'f2') h.actor.send({ type: 'LOCAL_MOVE', from: 'e7', to: 'e5' });
    }
    h.actor.send({ type: 'LOCAL_MOVE', from: 'd8', to: 'h4' });
    expect(h.ctx().game?.result).toEqual({ winner: 'black', reason: 'checkmate' });
    expect(h.ctx().clockRunning).toBeNull();
    expect(h.actor.getSnapshot().matches({ game: 'playing' })).toBe(true);
  });
});

describe('multiplayer game view: draw offers, presence and the end are the core\'s state', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks(); });

  /** White after 1. e4 e5, at t = 2000. */
  function afterOpening() {
    const h = start();
    h.begin();
    h.advance(1000);
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.advance(1000);
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'e7', to: 'e5' }, nextTurn: 'white' } });
    return h;
  }

  it('the core says when a draw may be offered: not before both sides moved, not again within 20 plies; nothing refused is sent', () => {
    const h = start();
    h.begin();
    expect(h.ctx().drawOfferRefusal).toBe(REJECTION.drawTooEarly);
    h.actor.send({ type: 'OFFER_DRAW' });
    expect(sends(h.out)).toEqual([]);
    expect(h.ctx()).toMatchObject({ draw: 'none', notice: REJECTION.drawTooEarly });

    const g = afterOpening();
    expect(g.ctx().drawOfferRefusal).toBeNull();
    g.actor.send({ type: 'OFFER_DRAW' });
    expect(g.ctx().game?.drawOffer).toBe('white');
    expect(g.ctx()).toMatchObject({ draw: 'sent', drawOfferRefusal: REJECTION.drawAlreadyOffered });
    // the receiver moves instead of answering: the core lapses the offer, and we may not offer again yet
    g.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    g.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'b8', to: 'c6' }, nextTurn: 'white' } });
    expect(g.ctx()).toMatchObject({ draw: 'none', drawOfferRefusal: REJECTION.drawTooOften });
    g.actor.send({ type: 'OFFER_DRAW' });
    expect(sends(g.out).filter((m) => m.type === 'offerDraw')).toHaveLength(1);
  });

  it("the opponent's offer stands in the core until we answer or move", () => {
    const h = afterOpening();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    h.actor.send({ type: 'DRAW_OFFERED' });
    expect(h.ctx().game?.drawOffer).toBe('black');
    expect(h.ctx().draw).toBe('received');
    h.actor.send({ type: 'SERVER_MOVE', msg: { type: 'gameMove', gameId: 'g1', move: { from: 'b8', to: 'c6' }, nextTurn: 'white' } });
    expect(h.ctx().draw).toBe('received');
    h.actor.send({ type: 'LOCAL_MOVE', from: 'f1', to: 'c4' });
    expect(h.ctx().draw).toBe('none');
  });

  it("the opponent's grace counts down only on their turn, from the server's number, when the server's core would end the game", () => {
    const h = afterOpening();
    // gone on our turn: their grace waits
    h.actor.send({ type: 'OPPONENT_DISCONNECTED', graceMs: 40_000 });
    expect(h.ctx().opponentAway).toEqual({ graceLeftMs: 40_000, countingSince: null });
    h.advance(30_000);
    expect(h.ctx().game && wakeAt(h.ctx().game!)).toBeGreaterThan(2000 + 40_000);
    // our move at t = 32 000 starts it: it runs out at 72 000, the moment the server's core (same rule) wakes to end the game
    h.actor.send({ type: 'LOCAL_MOVE', from: 'g1', to: 'f3' });
    expect(h.ctx().opponentAway).toEqual({ graceLeftMs: 40_000, countingSince: 32_000 });
    const server = step(h.ctx().game!, { type: 'WAKE' }, 72_000);
    expect(server.state.result).toEqual({ winner: 'white', reason: 'disconnection' });
    expect(step(h.ctx().game!, { type: 'WAKE' }, 71_999).state.result).toBeNull();
    h.actor.send({ type: 'OPPONENT_RECONNECTED' });
    expect(h.ctx().opponentAway).toBeNull();
  });

  it('a rejoin while the opponent is away takes the grace the server says they have left', () => {
    const h = start({ color: 'black' });
    h.advance(10_000);
    h.begin({ currentState: {
      fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', turn: 'white', moves: [{ from: 'e2', to: 'e4' }, { from: 'e7', to: 'e5' }],
      timers: { white: 500, black: 550 }, awayGraceMs: { white: 31_000 },
    } });
    expect(h.ctx().opponentAway).toEqual({ graceLeftMs: 31_000, countingSince: 10_000 });
  });

  it('before the clocks run the grace does not count (the first-move deadline decides)', () => {
    const h = start();
    h.begin();
    h.actor.send({ type: 'LOCAL_MOVE', from: 'e2', to: 'e4' });
    h.actor.send({ type: 'OPPONENT_DISCONNECTED', graceMs: 40_000 });
    expect(h.ctx().opponentAway).toEqual({ graceLeftMs: 40_000, countingSince: null });
  });

  it("the end is the core's result, as the server gave it; presence and offers go with it", () => {
    const h = afterOpening();
    h.actor.send({ type: 'DRAW_OFFERED' });
    h.actor.send({ type: 'OPPONENT_DISCONNECTED', graceMs: 40_000 });
    h.actor.send({ type: 'END', msg: { type: 'gameEnd', gameId: 'g1', winner: 'white', reason: 'disconnection' } });
    expect(h.ctx().game?.result).toEqual({ winner: 'white', reason: 'disconnection' });
    expect(h.ctx()).toMatchObject({ result: { winner: 'white', reason: 'disconnection' }, draw: 'none', opponentAway: null, end: { outcome: 'win', reason: 'disconnection' } });
  });
});
