/**
 * Replay is exact: 2,000 seeded random games, half of them with an increment and half with takebacks (moves good and bad, draw offers, takebacks, time given, disconnections,
 * resignations, time running out, first-move deadlines missed) through the live game actor. After
 * every command the state the log's entries lead to (folded with the pure step from a JSON copy
 * of the log, as a restarted server would read it) is the actor's state, byte for byte; at the
 * end `replay(log)` is too, and the PGN and clock history taken from the log are what the players
 * were told. Every way a game can end is reached.
 */
import { describe, expect, it } from 'vitest';
import { ChessGame } from '../../machines/chess';
import {
  clockHistory,
  createGame,
  logPgn,
  rejoinState,
  replay,
  step,
  type ClocksMs,
  type GameCommand,
  type GameInput,
  type GameLog,
  type GameState,
  type TimedCommand,
} from '../../machines/game';
import { seeded } from '../../server/seeded';
import { BLACK, WHITE, startGame } from './gameHarness';

const GAMES = 2_000;

/** Start positions that reach the rarer endings by random play. */
const STARTS: (string | undefined)[] = [
  undefined,
  undefined,
  undefined,
  'k7/8/8/1Q6/8/8/8/7K w - - 0 1', // stalemate or mate a move away
  '7k/8/8/8/8/8/8/R6K w - - 90 80', // fifty-move rule within ten quiet plies
  'k7/8/8/8/8/8/1r6/K7 w - - 0 1', // capture the rook: insufficient material
  '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1', // back-rank mate available
  'k7/8/8/8/8/8/8/3Q3K w - - 0 1', // lone king: timeouts become draws
];

/** Scripted openings: fool's mate, and knights shuffling into a repetition. */
const FOOLS_MATE = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];
const SHUFFLE = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8'];

function randomInput(rnd: () => number, n: number): Partial<GameInput> {
  const startFen = STARTS[Math.floor(rnd() * STARTS.length)];
  return {
    gameId: `g${n}`,
    clockMs: 5_000 + Math.floor(rnd() * 30_000),
    graceMs: rnd() < 0.5 ? 2_000 + Math.floor(rnd() * 5_000) : { guest: 3_000, account: 6_000 },
    accountIds: rnd() < 0.5 ? [WHITE.id] : [],
    firstMoveDeadlineMs: 3_000 + Math.floor(rnd() * 10_000),
    lag: rnd() < 0.3 ? { perMoveCapMs: 500, initialBankMs: 1_000, refillPerMoveMs: 0 } : {},
    startedAt: Math.floor(rnd() * 1e9),
    ...(rnd() < 0.15 ? { maxPlies: 4 + Math.floor(rnd() * 40) } : {}),
    ...(startFen ? { startFen } : {}),
    // half the games have a Fischer increment (0 to 3 s)
    ...(rnd() < 0.5 ? { incrementMs: Math.floor(rnd() * 4) * 1_000 } : {}),
    ...(rnd() < 0.5 ? { takebacks: true } : {}),
  };
}

/** Checks what the state must always be: plain JSON, clocks not negative, moves that replay to its position. */
function checkInvariants(state: GameState, now: number): void {
  expect(state.clocks.white).toBeGreaterThanOrEqual(0);
  expect(state.clocks.black).toBeGreaterThanOrEqual(0);
  const chess = new ChessGame(state.startFen);
  for (const m of state.moves) expect(chess.play(m)).not.toBeNull();
  expect(chess.fen()).toBe(state.fen);
  expect(chess.turn()).toBe(state.turn);
  const rejoin = rejoinState(state, now);
  expect(rejoin.seq).toBe(state.moves.length);
  expect(rejoin.timers.white).toBeGreaterThanOrEqual(0);
}

describe('game replay', () => {
  it(`rebuilds the live actor's state byte for byte after every command of ${GAMES.toLocaleString('en')} random games`, () => {
    const rnd = seeded(20261125);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const players = [WHITE.id, BLACK.id, 'player_x'];
    const reasons = new Map<string, number>();
    let commands = 0;
    let takenBack = 0;
    let given = 0;

    for (let n = 0; n < GAMES; n++) {
      const g = startGame(randomInput(rnd, n));
      // the replayer reads the log as stored: JSON, entry by entry
      let replayed = createGame(JSON.parse(JSON.stringify(g.log.input)));
      let checked = 0;
      const catchUp = () => {
        for (; checked < g.log.entries.length; checked++) {
          const entry: TimedCommand = JSON.parse(JSON.stringify(g.log.entries[checked]));
          replayed = step(replayed, entry, entry.at).state;
          commands++;
        }
        expect(JSON.stringify(replayed)).toBe(JSON.stringify(g.state()));
      };
      const script = rnd() < 0.1 ? FOOLS_MATE : rnd() < 0.12 ? SHUFFLE : [];
      for (let i = 0; i < 100 && g.result() === null; i++) {
        const state = g.state();
        const mover = state.turn === 'white' ? WHITE.id : BLACK.id;
        const r = rnd();
        if (i < script.length) {
          g.move(mover, script[i]);
        } else if (r < 0.5) {
          // mostly legal moves by the right player, sometimes garbage or out of turn
          const legal = new ChessGame(state.fen).legalMoves();
          const uci = rnd() < 0.85 && legal.length ? pick(legal) : pick(['e2e4', 'a1a8', 'zz99', 'e7e8q', 'h2h1n']);
          const who = rnd() < 0.9 ? mover : pick(players);
          g.move(who, uci, Math.floor(rnd() * 3_000) - 500);
        } else if (r < 0.57) {
          g.send({ type: pick(['OFFER_DRAW', 'ACCEPT_DRAW', 'DECLINE_DRAW'] as const), playerId: pick(players) });
        } else if (r < 0.62) {
          g.send({ type: pick(['PROPOSE_TAKEBACK', 'DECLINE_TAKEBACK'] as const), playerId: pick(players) });
          if (rnd() < 0.1) g.advance(Math.floor(rnd() * 2_500));
          if (rnd() < 0.7) g.send({ type: pick(['ACCEPT_TAKEBACK', 'PROPOSE_TAKEBACK'] as const), playerId: pick(players) });
        } else if (r < 0.66) {
          g.send({ type: 'GIVE_TIME', playerId: pick(players) });
        } else if (r < 0.72) {
          g.send({ type: pick(['PLAYER_DISCONNECTED', 'PLAYER_RECONNECTED'] as const), playerId: pick(players) });
        } else if (r < 0.735) {
          g.send({ type: 'RESIGN', playerId: pick(players) });
        } else if (r < 0.75) {
          // what the schema should have caught, to be sure it cannot break the game
          g.sendRaw({ type: 'MOVE', playerId: pick(players), move: pick([null, 7, { from: 1 }, {}]) });
        } else if (r < 0.77) {
          g.send({ type: 'WAKE' }); // an early or spurious wake-up
        } else {
          g.advance(rnd() < 0.1 ? Math.floor(rnd() * 20_000) : Math.floor(rnd() * 2_500));
        }
        catchUp();
        if (i % 8 === 0) checkInvariants(g.state(), g.now());
        // a state read back from JSON steps exactly as the live one (nothing hides outside the JSON)
        if (rnd() < 0.05) replayed = JSON.parse(JSON.stringify(replayed));
      }
      // whatever is left is settled by the clocks (or the first-move deadline)
      g.advance(200_000);
      catchUp();
      checkInvariants(g.state(), g.now());

      expect(g.result()).not.toBeNull();
      const ended = g.ofType('ended');
      expect(ended).toHaveLength(1);
      reasons.set(ended[0].reason, (reasons.get(ended[0].reason) ?? 0) + 1);
      // the clocks after each move of the game as the players were told them: a takeback drops its moves'
      const history: ClocksMs[] = [];
      // the clocks as each turn began (the start, then after each move) with the time given since: where a takeback goes back to
      const turnStarts: ClocksMs[] = [{ ...createGame(g.log.input).clocks }];
      for (const e of g.events) {
        if (e.type === 'moved') {
          expect(e.seq).toBe(history.length + 1);
          history.push(e.clocks);
          turnStarts.push({ ...e.clocks });
        } else if (e.type === 'told' && e.message.type === 'timeGiven') {
          const { color, ms } = e.message;
          for (const clocks of turnStarts) clocks[color] += ms;
          given++;
        } else if (e.type === 'told' && e.message.type === 'takeback') {
          const back = e.message;
          expect(e.to).toBe('both');
          expect(back.seq).toBe(history.length - back.plies);
          // the clocks go back to those the players were told as the earliest undone move's turn began, with the time given since
          expect(back.clocks).toEqual(turnStarts[back.seq]);
          history.length = back.seq;
          turnStarts.length = back.seq + 1;
          takenBack++;
        }
      }

      const stored: GameLog = JSON.parse(JSON.stringify(g.log));
      expect(JSON.stringify(replay(stored))).toBe(JSON.stringify(g.state()));
      expect(logPgn(stored)).toBe(ended[0].pgn);
      expect(clockHistory(stored)).toEqual(history);
    }

    expect(commands).toBeGreaterThan(GAMES * 20);
    expect(takenBack).toBeGreaterThan(GAMES / 40);
    expect(given).toBeGreaterThan(GAMES / 4);
    // every ending (a fivefold repetition cannot happen: the third occurrence already ends the game)
    expect([...reasons.keys()].sort()).toEqual(
      [
        'aborted',
        'agreement',
        'checkmate',
        'disconnection',
        'fifty-move rule',
        'insufficient material',
        'max plies',
        'resignation',
        'stalemate',
        'threefold repetition',
        'timeout',
      ].sort(),
    );
  }, 240_000);

  it('refuses a log of another version', () => {
    const log: GameLog = JSON.parse(JSON.stringify({ v: 2, input: { gameId: 'g', white: WHITE, black: BLACK, startedAt: 0 }, entries: [] }));
    expect(() => replay(log)).toThrow(/version 2 is not supported/);
  });
});

describe('what a finished game’s log gives', () => {
  it('the PGN, and the clocks after each move', () => {
    const g = startGame({ clockMs: 60_000 });
    g.play(['e2e4', 'e7e5'], 1_000);
    g.advance(3_000);
    g.move(WHITE.id, 'g1f3', 200);
    g.advance(1_500);
    g.move(BLACK.id, 'b8c6');
    g.send({ type: 'RESIGN', playerId: BLACK.id } satisfies GameCommand);
    expect(clockHistory(g.log)).toEqual([
      { white: 60_000, black: 60_000 },
      { white: 60_000, black: 60_000 },
      { white: 57_200, black: 60_000 },
      { white: 57_200, black: 58_500 },
    ]);
    expect(logPgn(g.log)).toContain('1. e4 e5 2. Nf3 Nc6 1-0');
    expect(logPgn(g.log)).toContain('[Termination "Normal"]');
  });
});
