/**
 * Which game TV shows (docs/product.md, "Watching"), as lichess TV does: the best game of the
 * site's list (machines/game/liveList.ts orders it: the best-rated first), kept until it ends;
 * then, after a pause on its result, the best game still being played. Pure.
 */
import type { LiveGameSummary } from '../protocol/messages';

/** How long TV stays on a finished game's result before it moves on. */
export const TV_RESULT_PAUSE_MS = 3_000;

/**
 * The game TV shows next: the current one while it is not over, else the first of the list
 * (already in the list's order) that TV has not seen end.
 */
export function tvGame(list: readonly LiveGameSummary[], current: string | null, ended: ReadonlySet<string>): string | null {
  if (current !== null && !ended.has(current)) return current;
  return list.find((g) => !ended.has(g.gameId))?.gameId ?? null;
}
