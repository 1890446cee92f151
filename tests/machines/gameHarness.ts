/** Test harness for the game machine: fake timers drive both `after` delays and now(). */
import { vi } from 'vitest';
import { createActor } from 'xstate';
import { gameMachine, type drivenGameMachine, type GameEmitted, type GameInput } from '../../machines/game';

export const WHITE = { id: 'player_w', name: 'Wendy' };
export const BLACK = { id: 'player_b', name: 'Bruno' };

/** Starts a game on the self-timed machine, or on the driven one when it is passed. */
export function startGame(overrides: Partial<GameInput> = {}, machine: typeof gameMachine | typeof drivenGameMachine = gameMachine) {
  const input: GameInput = {
    gameId: 'g1',
    white: WHITE,
    black: BLACK,
    clockMs: 60_000,
    now: () => Date.now(),
    ...overrides,
  };
  const actor = createActor(machine as typeof gameMachine, { input });
  const events: GameEmitted[] = [];
  actor.on('*', (e) => events.push(e));
  actor.start();

  const move = (playerId: string, uci: string, lagMs?: number) =>
    actor.send({
      type: 'MOVE',
      playerId,
      move: {
        from: uci.slice(0, 2),
        to: uci.slice(2, 4),
        ...(uci[4] ? { promotion: uci[4] as 'q' | 'r' | 'b' | 'n' } : {}),
      },
      ...(lagMs !== undefined ? { lagMs } : {}),
    });

  /** Plays alternating moves starting with whoever is to move, `thinkMs` before each. */
  const play = (ucis: string[], thinkMs = 0) => {
    for (const uci of ucis) {
      if (thinkMs) vi.advanceTimersByTime(thinkMs);
      const ctx = actor.getSnapshot().context;
      move(ctx.turn === 'white' ? WHITE.id : BLACK.id, uci);
    }
  };

  function ofType<T extends GameEmitted['type']>(type: T): Extract<GameEmitted, { type: T }>[] {
    return events.filter((e): e is Extract<GameEmitted, { type: T }> => e.type === type);
  }

  return {
    actor,
    events,
    move,
    play,
    ofType,
    ctx: () => actor.getSnapshot().context,
    snap: () => actor.getSnapshot(),
    ended: () => ofType('ended')[0],
  };
}
