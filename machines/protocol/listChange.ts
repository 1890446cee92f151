/**
 * A list a socket follows (the site's live games, the lobby's custom games): sent whole once,
 * then as changes, each the records new or changed and the ids of the records gone. Pure; the
 * server finds the change from one reading of the list to the next, the browser applies it, both
 * with the same description of the list (its records' ids, sameness and order).
 */

/** What changed from one reading of a list to the next. */
export interface ListChange<T> {
  /** records new to the list, or changed */
  updated: T[];
  /** ids of the records gone from it */
  removed: string[];
}

/** What the list's records are to its changes: who each is, when two readings of one are alike, and the list's order. */
export interface ListKind<T> {
  id(record: T): string;
  same(a: T, b: T): boolean;
  order(a: T, b: T): number;
}

/** What changed from list `before` to list `after`: records new or changed, and records gone. */
export function changeBetween<T>(kind: ListKind<T>, before: readonly T[], after: readonly T[]): ListChange<T> {
  const was = new Map(before.map((r) => [kind.id(r), r]));
  const updated = after.filter((r) => {
    const old = was.get(kind.id(r));
    return !old || !kind.same(old, r);
  });
  const kept = new Set(after.map((r) => kind.id(r)));
  return { updated, removed: before.map((r) => kind.id(r)).filter((id) => !kept.has(id)) };
}

/** The list after a change, in the list's order. */
export function withChange<T>(kind: ListKind<T>, list: readonly T[], change: ListChange<T>): T[] {
  const byId = new Map(list.map((r) => [kind.id(r), r]));
  for (const id of change.removed) byId.delete(id);
  for (const r of change.updated) byId.set(kind.id(r), r);
  return [...byId.values()].sort(kind.order);
}

/** Whether a change changes nothing. */
export function isNoChange(change: ListChange<unknown>): boolean {
  return change.updated.length === 0 && change.removed.length === 0;
}
