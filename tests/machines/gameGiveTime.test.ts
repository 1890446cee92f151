/**
 * Giving time in the game core (lichess "moretime"): a player adds 15 s to the opponent's clock,
 * in a game with a clock between two players, at most once a second; both players and the
 * spectators are told the clocks after it, and the log replays it exactly.
 */
import { describe, expect, it } from 'vitest';
import { GAME_DEFAULTS, REJECTION, clocksAt, replay, wakeAt } from '../../machines/game';
import { BLACK, WHITE, startGame } from './gameHarness';

const { GIVE_TIME_MS } = GAME_DEFAULTS;

describe('game core: giving time', () => {
  it('adds 15 s to the opponent’s clock and tells both players and the spectators the clocks', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5']);
    g.advance(4_000); // white thinks 4 s
    g.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({
      type: 'told',
      to: 'both',
      message: { type: 'timeGiven', color: 'black', ms: GIVE_TIME_MS, clocks: { white: 56_000, black: 75_000 } },
    });
    expect(clocksAt(g.state(), g.now())).toEqual({ white: 56_000, black: 75_000 });
    // white's clock runs on as it did: its move is charged from its turn's start
    g.advance(1_000);
    g.move(WHITE.id, 'g1f3');
    expect(g.ofType('moved').at(-1)?.clocks).toEqual({ white: 55_000, black: 75_000 });
  });

  it('gives time to the side to move: its flag falls 15 s later', () => {
    const g = startGame({ clockMs: 10_000 });
    g.play(['e2e4', 'e7e5']);
    const flagAt = wakeAt(g.state());
    g.advance(6_000);
    g.send({ type: 'GIVE_TIME', playerId: BLACK.id });
    expect(g.told('timeGiven').at(-1)?.message).toEqual({ type: 'timeGiven', color: 'white', ms: GIVE_TIME_MS, clocks: { white: 19_000, black: 10_000 } });
    expect(wakeAt(g.state())).toBe(flagAt + GIVE_TIME_MS);
    g.advance(flagAt - g.now());
    expect(g.result()).toBeNull();
    g.advance(GIVE_TIME_MS);
    expect(g.result()).toEqual({ winner: 'black', reason: 'timeout' });
  });

  it('allows once a second per player', () => {
    const g = startGame();
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    g.wait(999);
    g.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({ type: 'rejected', playerId: WHITE.id, reason: REJECTION.giveTimeTooOften, command: 'GIVE_TIME' });
    // the other player's limit is its own
    g.send({ type: 'GIVE_TIME', playerId: BLACK.id });
    expect(g.events.at(-1)).toMatchObject({ type: 'told', to: 'both', message: { type: 'timeGiven', color: 'white' } });
    g.wait(1);
    g.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    expect(g.told('timeGiven').map((t) => t.message.color)).toEqual(['black', 'white', 'black']);
    expect(g.state().clocks.black).toBe(60_000 + 2 * GIVE_TIME_MS);
  });

  it('stays given when a takeback puts the clocks back to an earlier turn', () => {
    const g = startGame({ clockMs: 60_000, takebacks: true });
    g.play(['e2e4', 'e7e5']);
    g.advance(3_000);
    g.move(WHITE.id, 'g1f3'); // white 57 s
    g.send({ type: 'GIVE_TIME', playerId: BLACK.id }); // white 72 s
    g.advance(2_000);
    g.move(BLACK.id, 'b8c6'); // black 58 s
    // white, to move, takes back its knight and the reply: back to its turn's start, gift kept
    g.send({ type: 'PROPOSE_TAKEBACK', playerId: WHITE.id });
    g.send({ type: 'ACCEPT_TAKEBACK', playerId: BLACK.id });
    expect(g.told('takeback').at(-1)?.message).toMatchObject({ plies: 2, clocks: { white: 60_000 + GIVE_TIME_MS, black: 60_000 } });
    expect(clocksAt(g.state(), g.now())).toEqual({ white: 60_000 + GIVE_TIME_MS, black: 60_000 });
    expect(replay(g.log).clocks).toEqual(g.state().clocks);
  });

  it('is refused without a clock, against the AI, to a stranger and once the game is over, changing nothing', () => {
    const untimed = startGame({ untimed: true, clockMs: 30_000 });
    untimed.play(['e2e4', 'e7e5']);
    const before = untimed.state();
    untimed.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    expect(untimed.events.at(-1)).toEqual({ type: 'rejected', playerId: WHITE.id, reason: REJECTION.giveTimeUntimed, command: 'GIVE_TIME' });
    expect(untimed.state()).toBe(before);

    const engine = startGame({ black: { id: 'engine_1', name: 'Stockfish', engine: { level: 3 } } });
    engine.play(['e2e4', 'e7e5']);
    engine.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    expect(engine.events.at(-1)).toEqual({ type: 'rejected', playerId: WHITE.id, reason: REJECTION.giveTimeAgainstAi, command: 'GIVE_TIME' });
    expect(engine.state().clocks).toEqual({ white: 60_000, black: 60_000 });

    const g = startGame();
    g.play(['e2e4', 'e7e5']);
    g.send({ type: 'GIVE_TIME', playerId: 'player_x' });
    expect(g.events.at(-1)).toEqual({ type: 'rejected', playerId: 'player_x', reason: REJECTION.notAPlayer, command: 'GIVE_TIME' });
    g.send({ type: 'RESIGN', playerId: BLACK.id });
    const ended = g.state();
    g.wait(5_000);
    g.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    expect(g.events.at(-1)).toEqual({ type: 'rejected', playerId: WHITE.id, reason: REJECTION.gameOver, command: 'GIVE_TIME' });
    expect(g.state()).toBe(ended);
    expect(g.told('timeGiven')).toEqual([]);
  });

  it('after the flag of the side to move has fallen, finds the game lost on time', () => {
    const g = startGame({ clockMs: 5_000 });
    g.play(['e2e4', 'e7e5']);
    g.wait(20_000); // nobody woke the game
    g.send({ type: 'GIVE_TIME', playerId: BLACK.id });
    expect(g.result()).toEqual({ winner: 'black', reason: 'timeout' });
    expect(g.told('timeGiven')).toEqual([]);
  });

  it('replays from the log to the same clocks', () => {
    const g = startGame({ clockMs: 30_000, incrementMs: 2_000 });
    g.play(['e2e4', 'e7e5'], 500);
    g.advance(3_000);
    g.send({ type: 'GIVE_TIME', playerId: BLACK.id });
    g.move(WHITE.id, 'g1f3');
    g.advance(2_000);
    g.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    g.advance(1_500);
    g.send({ type: 'GIVE_TIME', playerId: WHITE.id });
    g.move(BLACK.id, 'b8c6');
    const replayed = replay(JSON.parse(JSON.stringify(g.log)));
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(g.state()));
    expect(replayed.clocks).toEqual({ white: 30_000 - 3_000 + 2_000 + GIVE_TIME_MS, black: 30_000 - 3_500 + 2_000 + 2 * GIVE_TIME_MS });
  });
});
