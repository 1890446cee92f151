/**
 * The game machine as the server runs it: `drivenGameMachine`, with the one transition that every
 * relayed move takes computed directly instead of by XState's statechart interpreter.
 *
 * That transition is `running --MOVE [acceptableMove] / applyMove--> running` when the move does
 * not end the game. It has no target, so no state is exited or entered; its only effects are the
 * context update and the events of `applyMove`, and afterwards the eventless `always` transition
 * to `over` cannot fire (no result). So the next snapshot is the current one with the context
 * update, and the emitted events are those of `planMove`, which is the `applyMove` action itself.
 *
 * Why: on a loaded server the interpreter meets every move with cold caches (other processes
 * run on the same cores between two moves of a game), and there its fixed cost per event
 * (transition selection, microsteps, action resolution, the eventless check) was several times
 * the cost of the chess and clock work the move needs. The event still goes through the XState
 * actor (mailbox, snapshot observers, emitted-event listeners, inspection of the event and the
 * snapshot); only the interpreter's walk of this one transition is skipped. Everything else
 * (illegal, out-of-turn and game-ending moves, the moves before the clocks start, every other
 * event) is the machine's.
 * tests/machines/gameDirectMoves.test.ts replays random games through both and compares every
 * snapshot and emitted event.
 */
import type { ActorScope } from 'xstate';
import { drivenGameMachine, isOwnWellFormedMove, nowOf, planMove, unplanMove } from './gameMachine';
import type { GameContext, GameEmitted, GameEvent } from './types';

type DrivenGameMachine = typeof drivenGameMachine;
type Snapshot = ReturnType<DrivenGameMachine['transition']>;

/**
 * The snapshot with another context: XState's own snapshot fields (createMachineSnapshot), written
 * out in its order. A spread of the snapshot took V8's slow object-cloning path on every move;
 * this literal makes objects of one shape. tests/machines/gameDirectMoves.test.ts checks that
 * the keys are XState's, so a new XState field cannot be dropped unnoticed.
 */
function withContext(snapshot: Snapshot, context: GameContext): Snapshot {
  const s = snapshot as Snapshot & Record<'_nodes' | 'historyValue' | 'toJSON', unknown>;
  return {
    status: s.status,
    output: s.output,
    error: s.error,
    machine: s.machine,
    context,
    _nodes: s._nodes,
    value: s.value,
    tags: s.tags,
    children: s.children,
    historyValue: s.historyValue,
    matches: s.matches,
    hasTag: s.hasTag,
    can: s.can,
    getMeta: s.getMeta,
    toJSON: s.toJSON,
  } as unknown as Snapshot;
}

/** `machine` with the direct transition for moves in `running` (see the top of this file). */
function withDirectMoves(machine: DrivenGameMachine): DrivenGameMachine {
  // Everything else (initial snapshot, persistence, restoring, inspection data) is the machine's.
  const logic = Object.create(machine) as DrivenGameMachine;
  logic.transition = (snapshot: Snapshot, event: GameEvent, scope: ActorScope<Snapshot, GameEvent, never, GameEmitted>) => {
    if (event.type === 'MOVE' && snapshot.status === 'active' && snapshot.value === 'running') {
      const context: GameContext = snapshot.context;
      if (isOwnWellFormedMove(context, event)) {
        // planMove plays the move only if it is legal (the guard's check, made once)
        const plan = planMove(context, event, nowOf(scope.self));
        if (plan?.next.result === null) {
          for (const e of plan.emitted) scope.defer(() => scope.emit(e));
          return withContext(snapshot, plan.next);
        }
        // An illegal move, or one that ends the game: undo it, and the machine rejects it or ends the game.
        if (plan) unplanMove(context, plan);
      }
    }
    return machine.transition(snapshot, event as never, scope as never);
  };
  return logic;
}

/** The game machine the server runs: driven timing and direct moves. */
export const serverGameMachine: DrivenGameMachine = withDirectMoves(drivenGameMachine);
