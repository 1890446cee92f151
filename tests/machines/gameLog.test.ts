/**
 * The entries of a game's log as a host makes them (`timedCommand`): the command with the time it
 * arrived, and every command of a kind sharing one V8 hidden class. A server stamps every move it
 * relays; commands with a class each made every read of them in the step, the actor and the
 * journal miss V8's inline caches (a measurable share of a move's CPU) and kept a class per
 * logged entry in memory.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { timedCommand, type GameCommand } from '../../machines/game';

setFlagsFromString('--allow-natives-syntax');
/** V8's own answer: do two objects have the same hidden class (map)? */
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Commands of every kind, as the server's sockets and timing wheel make them (object literals). */
function commands(n: number): GameCommand[] {
  return [
    { type: 'MOVE', playerId: `p${n}`, move: { from: 'g1', to: 'f3', promotion: undefined }, lagMs: n * 1.5, unansweredPingMs: n % 3 ? undefined : n * 2.5 },
    { type: 'WAKE' },
    { type: 'RESIGN', playerId: `p${n}` },
    { type: 'PLAYER_DISCONNECTED', playerId: `p${n}` },
    { type: 'PLAYER_RECONNECTED', playerId: `p${n}` },
    { type: 'OFFER_DRAW', playerId: `p${n}` },
    { type: 'ACCEPT_DRAW', playerId: `p${n}` },
    { type: 'DECLINE_DRAW', playerId: `p${n}` },
    // made another way: a class of its own for every such object
    { ...{ type: 'MOVE' as const, playerId: `p${n}` }, move: { from: 'e2', to: 'e4', promotion: undefined }, lagMs: n % 2 ? n * 0.5 : undefined, unansweredPingMs: undefined },
  ];
}

describe('timedCommand: a log entry', () => {
  it('is the command with the time it arrived', () => {
    for (const command of commands(3)) expect(timedCommand(command, 1301.25)).toEqual({ ...command, at: 1301.25 });
  });

  it('gives every command of a kind one hidden class, however often and however it was made', () => {
    // V8's caches at the stamping site go from one kind of command (a server relaying moves) to a
    // few (moves, wake-ups, resignations, disconnections) to all of them; checked at each stage,
    // after enough calls for V8 to optimise the function
    for (const kinds of [1, 4, 9]) {
      for (let n = 0; n < 20_000; n++) for (const c of commands(n).slice(0, kinds)) timedCommand(c, n + 0.5);
      const early = commands(1).slice(0, kinds).map((c) => timedCommand(c, 10.5));
      const late = commands(2).slice(0, kinds).map((c) => timedCommand(c, 99_999.5));
      late.forEach((entry, i) => {
        expect(sameHiddenClass(entry, early[i]), `${kinds} kinds: ${entry.type} #${i}`).toBe(true);
      });
    }
  });
});
