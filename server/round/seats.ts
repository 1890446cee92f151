/**
 * The only writer of a player's game state: their seat in a game played here, the game they play
 * on another node, and the node their socket is on when it is not here. PlayerSession declares
 * these fields read-only; every change of them is one of the functions below, so what can happen
 * to a player's seat is this list.
 */
import type { LiveGame, PlayerSession, RemoteGame } from './types';

type Writable<T> = { -readonly [K in keyof T]: T[K] };
const writable = (s: PlayerSession): Writable<PlayerSession> => s;

/** The player sits in `game`, played here. */
export function sit(s: PlayerSession, game: LiveGame): void {
  writable(s).game = game;
}

/** The player leaves `game` (it ended, stopped or moved away); false when it was not their seat. */
export function stand(s: PlayerSession, game: LiveGame): boolean {
  if (s.game !== game) return false;
  writable(s).game = null;
  return true;
}

/** Several nodes: the player (socket here) plays `game` on its owner node. */
export function playElsewhere(s: PlayerSession, game: RemoteGame): void {
  const w = writable(s);
  w.remoteGame = game;
  w.lastRemoteGame = game;
}

/** Several nodes: game `gameId`, played on another node, is against the AI (its owner said so). */
export function elsewhereAgainstAi(s: PlayerSession, gameId: string): void {
  const w = writable(s);
  if (s.remoteGame?.id === gameId) w.remoteGame = { ...s.remoteGame, vsAi: true };
  if (s.lastRemoteGame?.id === gameId) w.lastRemoteGame = { ...s.lastRemoteGame, vsAi: true };
}

/**
 * Several nodes: game `gameId`, played on another node, is over for the player. `keeper`: the node
 * that keeps its end instead (it took the game over once it had ended), asked about it from now on.
 */
export function endedElsewhere(s: PlayerSession, gameId: string, keeper?: string): void {
  const w = writable(s);
  if (s.remoteGame?.id === gameId) w.remoteGame = null;
  if (keeper && s.lastRemoteGame?.id === gameId) w.lastRemoteGame = { ...s.lastRemoteGame, owner: keeper };
}

/** Several nodes: game `gameId` is played here now (taken over): no longer elsewhere. */
export function playedHere(s: PlayerSession, gameId: string): void {
  const w = writable(s);
  if (s.remoteGame?.id === gameId) w.remoteGame = null;
  if (s.lastRemoteGame?.id === gameId) w.lastRemoteGame = null;
}

/** Several nodes: the player's games elsewhere are none of this node's business any more. */
export function forgetElsewhere(s: PlayerSession): void {
  const w = writable(s);
  w.remoteGame = null;
  w.lastRemoteGame = null;
}

/** Several nodes: the node the player's socket is on (null: here, or none). */
export function socketOn(s: PlayerSession, node: string | null): void {
  writable(s).node = node;
}
