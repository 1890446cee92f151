/**
 * The matchmaking pools as a pure step: `poolStep(state, command) -> { state, events }`.
 * Time and chance come in with the commands (`at`, `roll`), so a pool is replayed exactly from
 * its commands and the XState actor that hosts it (`poolLogic`) reads no clock and no random
 * source. Rules (docs/matchmaking.md):
 *
 * - A search names its pool, a time control (machines/game/timeControl.ts: 10+0, 3+2, ...), and
 *   is paired only within it; a JOIN without one is the 10+0 pool's. A player waits in one pool
 *   at a time: a search in another pool moves them there (to the back of its line).
 * - A player is its id: a second JOIN in the same pool keeps the first place in line (and
 *   refreshes the name and rating), so nobody is paired with themselves.
 * - Two players fit when either is unrated (a guest) or their ratings are within the rating
 *   window of the one who has waited longer. The window starts at ±100, widens by 50 every 5 s
 *   of waiting, and is open to anyone after 60 s: a small site must not keep a player waiting
 *   for the perfect opponent.
 * - A newcomer is paired with the longest-waiting player that fits; every TICK (the host sends
 *   one a second) pairs the queue again in arrival order, since windows have widened.
 * - Colours: the command's `roll` in [0, 1): below 0.5, the longer waiter gets white.
 */
import { fromTransition, type ActorRefFromLogic, type ActorScope, type TransitionSnapshot } from 'xstate';
import { DEFAULT_TIME_CONTROL, sameTimeControl, type TimeControl } from '../game/timeControl';

export interface QueuedPlayer {
  playerId: string;
  name: string;
  /** the player's pool rating; null for a guest (unrated) */
  rating: number | null;
  /** when the player joined, in the host's time base (ms) */
  since: number;
  /** the pool: the time control the player searches for */
  timeControl: TimeControl;
}

export interface PoolState {
  /** waiting players, longest-waiting first */
  queue: QueuedPlayer[];
}

export type PoolCommand =
  | { type: 'JOIN'; playerId: string; name: string; rating: number | null; at: number; roll: number; timeControl?: TimeControl }
  | { type: 'LEAVE'; playerId: string; at: number }
  | { type: 'TICK'; at: number; roll: number };

export interface Seat {
  id: string;
  name: string;
}

export type PoolEmitted =
  | { type: 'queued'; playerId: string }
  | { type: 'left'; playerId: string }
  | { type: 'paired'; white: Seat; black: Seat; timeControl: TimeControl };

export const POOL_WINDOW = {
  /** ± rating difference accepted at once */
  initial: 100,
  /** added every `stepMs` of waiting */
  step: 50,
  stepMs: 5_000,
  /** after this long, anyone fits */
  openAfterMs: 60_000,
} as const;

export const EMPTY_POOL: PoolState = { queue: [] };

/** The rating difference a player who has waited `waitedMs` accepts. */
export function ratingWindow(waitedMs: number): number {
  if (waitedMs >= POOL_WINDOW.openAfterMs) return Infinity;
  return POOL_WINDOW.initial + POOL_WINDOW.step * Math.floor(Math.max(0, waitedMs) / POOL_WINDOW.stepMs);
}

/** Whether two players may be paired at `now` (`a` has waited at least as long as `b`). */
export function fits(a: QueuedPlayer, b: QueuedPlayer, now: number): boolean {
  if (a.playerId === b.playerId || !sameTimeControl(a.timeControl, b.timeControl)) return false;
  if (a.rating === null || b.rating === null) return true;
  return Math.abs(a.rating - b.rating) <= ratingWindow(now - Math.min(a.since, b.since));
}

function pairing(waiter: QueuedPlayer, other: QueuedPlayer, roll: number): PoolEmitted {
  const w = { id: waiter.playerId, name: waiter.name };
  const o = { id: other.playerId, name: other.name };
  const timeControl = waiter.timeControl;
  return roll < 0.5 ? { type: 'paired', white: w, black: o, timeControl } : { type: 'paired', white: o, black: w, timeControl };
}

/** Pairs the queue in arrival order, each with the longest-waiting player that fits. */
function pairQueue(queue: readonly QueuedPlayer[], now: number, roll: number): { queue: QueuedPlayer[]; events: PoolEmitted[] } {
  const left = [...queue];
  const events: PoolEmitted[] = [];
  for (let i = 0; i < left.length; i++) {
    const a = left[i]!;
    const j = left.findIndex((b, k) => k > i && fits(a, b, now));
    if (j < 0) continue;
    events.push(pairing(a, left[j]!, roll));
    left.splice(j, 1);
    left.splice(i, 1);
    i -= 1;
  }
  return { queue: left, events };
}

export function poolStep(state: PoolState, command: PoolCommand): { state: PoolState; events: readonly PoolEmitted[] } {
  switch (command.type) {
    case 'JOIN': {
      const timeControl = command.timeControl ?? DEFAULT_TIME_CONTROL;
      const known = state.queue.find((p) => p.playerId === command.playerId);
      if (known && sameTimeControl(known.timeControl, timeControl)) {
        const queue = state.queue.map((p) => (p === known ? { ...p, name: command.name, rating: command.rating } : p));
        return { state: { queue }, events: [{ type: 'queued', playerId: command.playerId }] };
      }
      // a search in another pool leaves the one the player waited in
      const others = known ? state.queue.filter((p) => p !== known) : state.queue;
      const newcomer: QueuedPlayer = { playerId: command.playerId, name: command.name, rating: command.rating, since: command.at, timeControl };
      const opponent = others.find((p) => fits(p, newcomer, command.at));
      const queued: PoolEmitted = { type: 'queued', playerId: command.playerId };
      if (!opponent) return { state: { queue: [...others, newcomer] }, events: [queued] };
      return {
        state: { queue: others.filter((p) => p !== opponent) },
        events: [queued, pairing(opponent, newcomer, command.roll)],
      };
    }
    case 'LEAVE': {
      if (!state.queue.some((p) => p.playerId === command.playerId)) return { state, events: [] };
      return { state: { queue: state.queue.filter((p) => p.playerId !== command.playerId) }, events: [{ type: 'left', playerId: command.playerId }] };
    }
    case 'TICK': {
      if (state.queue.length < 2) return { state, events: [] };
      const { queue, events } = pairQueue(state.queue, command.at, command.roll);
      return events.length === 0 ? { state, events } : { state: { queue }, events };
    }
  }
}

/** Whatever actor system the actor runs in (the pool uses none of it). */
type AnySystem = ActorScope<TransitionSnapshot<PoolState>, PoolCommand>['system'];

/** The pool as an XState actor: `createActor(poolLogic)`; its events are emitted after each step. */
export const poolLogic = fromTransition<PoolState, PoolCommand, AnySystem, undefined, PoolEmitted>(
  (state, command, { defer, emit }) => {
    if (command.type.startsWith('xstate.')) return state;
    const { state: next, events } = poolStep(state, command);
    if (events.length > 0) defer(() => events.forEach(emit));
    return next;
  },
  EMPTY_POOL,
);

export type PoolActor = ActorRefFromLogic<typeof poolLogic>;
