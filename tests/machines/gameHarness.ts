/**
 * Test harness for the game core: a game actor (XState's fromTransition running the step) fed
 * timed commands from an injected clock. `advance` moves the clock as a host does, sending WAKE
 * at every due time it passes (the server does the same from its timing wheel); `wait` moves it
 * without waking the game. Every command sent is kept in the game's log.
 */
import { createActor } from 'xstate';
import { gameLogic, newGameLog, wakeAt, type Color, type GameCommand, type GameEmitted, type GameInput, type GameLog, type GameNotice } from '../../machines/game';

export const WHITE = { id: 'player_w', name: 'Wendy' };
export const BLACK = { id: 'player_b', name: 'Bruno' };

/** The input of a test game: 60 s clocks, started at time 0. */
export function testInput(overrides: Partial<GameInput> = {}): GameInput {
  return { gameId: 'g1', white: WHITE, black: BLACK, clockMs: 60_000, startedAt: 0, ...overrides };
}

export function startGame(overrides: Partial<GameInput> = {}) {
  const input = testInput(overrides);
  let now = input.startedAt;
  const log: GameLog = newGameLog(input);
  const actor = createActor(gameLogic, { input });
  const events: GameEmitted[] = [];
  actor.on('*', (e) => events.push(e));
  actor.start();

  const state = () => actor.getSnapshot().context;

  /** Sends a command stamped with the clock's time, and logs it. */
  const send = (command: GameCommand) => {
    const entry = { ...command, at: now };
    log.entries.push(entry);
    actor.send(entry);
  };

  /** Sends whatever a buggy host might forward (parsed JSON, unchecked), stamped and logged. */
  const sendRaw = (command: Record<string, unknown>) => {
    const entry = JSON.parse(JSON.stringify({ ...command, at: now }));
    log.entries.push(entry);
    actor.send(entry);
  };

  const move = (playerId: string, uci: string, lagMs?: number, unansweredPingMs?: number) =>
    send({
      type: 'MOVE',
      playerId,
      move: {
        from: uci.slice(0, 2),
        to: uci.slice(2, 4),
        ...(uci[4] ? { promotion: uci[4] as 'q' | 'r' | 'b' | 'n' } : {}),
      },
      ...(lagMs !== undefined ? { lagMs } : {}),
      ...(unansweredPingMs !== undefined ? { unansweredPingMs } : {}),
    });

  /** Moves the clock by `ms` without telling the game. */
  const wait = (ms: number) => {
    now += ms;
  };

  /** Moves the clock by `ms`, sending WAKE at each due time on the way, as a host does. */
  const advance = (ms: number) => {
    const until = now + ms;
    for (let due = wakeAt(state()); due <= until; due = wakeAt(state())) {
      const before = state();
      now = Math.max(now, due);
      send({ type: 'WAKE' });
      if (state() === before) throw new Error(`WAKE at its due time ${due} changed nothing`);
    }
    now = until;
  };

  /** Plays alternating moves starting with whoever is to move, `thinkMs` before each. */
  const play = (ucis: string[], thinkMs = 0) => {
    for (const uci of ucis) {
      if (thinkMs) advance(thinkMs);
      move(state().turn === 'white' ? WHITE.id : BLACK.id, uci);
    }
  };

  function ofType<T extends GameEmitted['type']>(type: T): Extract<GameEmitted, { type: T }>[] {
    return events.filter((e): e is Extract<GameEmitted, { type: T }> => e.type === type);
  }

  /** What the game told players with a message of `type`, in order, each with whom it is for. */
  function told<T extends GameNotice['type']>(type: T): { to: 'both' | Color; message: Extract<GameNotice, { type: T }> }[] {
    return ofType('told')
      .filter((e) => e.message.type === type)
      .map((e) => ({ to: e.to, message: e.message as Extract<GameNotice, { type: T }> }));
  }

  return {
    actor,
    events,
    log,
    send,
    sendRaw,
    move,
    play,
    wait,
    advance,
    ofType,
    told,
    now: () => now,
    state,
    result: () => state().result,
    ended: () => ofType('ended')[0],
  };
}
