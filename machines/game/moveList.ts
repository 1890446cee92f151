/**
 * A game's move list is never changed in place: each move makes a new list (contexts and
 * snapshots are values). This makes it in one allocation of exactly its size. `[...list, uci]`
 * copies the list and then grows the copy for the last element, which allocates twice and keeps
 * about twice the memory the list needs for as long as the position is the current one (1,071
 * against 555 bytes at 60 plies); a server holds one such list per live game and makes one per
 * move.
 */
export function withMove(list: readonly string[], uci: string): string[] {
  const n = list.length;
  const next = new Array<string>(n + 1);
  for (let i = 0; i < n; i++) next[i] = list[i];
  next[n] = uci;
  return next;
}
