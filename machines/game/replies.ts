/** What the step's rules share: who a command's player is, the answers that change nothing, and what players are told. */
import type { Color, GameCommand, GameEmitted, GameNotice, GameState, StepResult } from './types';

const NOTHING: readonly GameEmitted[] = Object.freeze([]);

/** The state unchanged and no event. */
export function unchanged(state: GameState): StepResult {
  return { state, events: NOTHING };
}

/** The seat `playerId` plays, or null for anyone else. */
export function colorOf(state: GameState, playerId: unknown): Color | null {
  if (playerId === state.white.id) return 'white';
  if (playerId === state.black.id) return 'black';
  return null;
}

/** The command refused: the state unchanged and why, for the player who sent it. */
export function rejected(state: GameState, playerId: string, reason: string, command: GameCommand['type']): StepResult {
  return { state, events: [{ type: 'rejected', playerId, reason, command }] };
}

/** `message` for the seat `to`, or for both players and the game's spectators. */
export function tell(to: 'both' | Color, message: GameNotice): GameEmitted {
  return { type: 'told', to, message };
}
