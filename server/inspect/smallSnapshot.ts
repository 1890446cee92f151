/**
 * What the inspector is shown of an actor's state: the step's state without the game's history.
 * A game's (and an AI game's) context carries every move played (`moves`) and, for repetitions,
 * the positions since the last capture (`positions`); copied into every snapshot, each move would
 * stream the whole game again. They give way to the ply count and the last move.
 */
import type { Snapshot } from 'xstate';

/** The history fields of a game's context, and what stands for them. */
export interface HistorySummary {
  ply: number;
  lastMove: string | null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `context` without its history (`moves`, `positions`); anything else is returned as it is. */
export function smallContext(context: unknown): unknown {
  if (!isRecord(context) || !('moves' in context || 'positions' in context)) return context;
  const { moves, positions: _positions, ...state } = context;
  if (!Array.isArray(moves)) return state;
  const summary: HistorySummary = { ply: moves.length, lastMove: typeof moves.at(-1) === 'string' ? (moves.at(-1) as string) : null };
  return { ...state, ...summary };
}

/** The parts of a snapshot the inspector draws: status, state value (machines), context, output, error. */
export interface SmallSnapshot {
  status?: Snapshot<unknown>['status'];
  value?: unknown;
  context?: unknown;
  output?: unknown;
  error?: unknown;
}

/**
 * A snapshot as the inspector is sent it: those parts, with a small context. The rest of an
 * XState snapshot (its children's actor objects, the machine, its history value) is no concern of
 * the inspector's and costly to serialise. Taking its own result, it returns the same.
 */
export function smallSnapshot(snapshot: SmallSnapshot): SmallSnapshot {
  const small: SmallSnapshot = { status: snapshot.status };
  if ('value' in snapshot) small.value = snapshot.value;
  if ('context' in snapshot) small.context = smallContext(snapshot.context);
  if (snapshot.output !== undefined) small.output = snapshot.output;
  if (snapshot.error !== undefined) small.error = snapshot.error instanceof Error ? snapshot.error.message : snapshot.error;
  return small;
}
