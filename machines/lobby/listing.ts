/**
 * The lobby's list of custom games as its watchers see it (docs/protocol.md, "Custom games and
 * challenges"): oldest first, sent whole once, then as changes (games posted, games gone). Pure;
 * the server orders the list and finds its changes, the browser applies them, with these functions.
 */
import type { Hook } from '../protocol/messages';
import { changeBetween, withChange, type ListChange, type ListKind } from '../protocol/listChange';

/** The list's order: oldest first, as they were posted; a tie goes to the id, so every node and browser orders alike. */
export function byPostingOrder(a: Hook, b: Hook): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const LOBBY_LIST: ListKind<Hook> = {
  id: (h) => h.id,
  // a hook is not edited once posted (a new one has a new id); one read back differently counts as changed
  same: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  order: byPostingOrder,
};

/** The hooks in the list's order (a new array). */
export function lobbyOrder(hooks: readonly Hook[]): Hook[] {
  return [...hooks].sort(byPostingOrder);
}

/** What changed from list `before` to list `after`: hooks posted (or changed), and the ids of hooks gone. */
export function lobbyChange(before: readonly Hook[], after: readonly Hook[]): ListChange<Hook> {
  return changeBetween(LOBBY_LIST, before, after);
}

/** The list after a change, in the list's order. */
export function applyLobbyChange(list: readonly Hook[], change: ListChange<Hook>): Hook[] {
  return withChange(LOBBY_LIST, list, change);
}
