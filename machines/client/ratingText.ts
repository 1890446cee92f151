/** How a rating and a rating change read on screen (lichess: "1500?" while provisional, "+12" / "−12"). */
import type { PlayerRating, RatingChange } from '../protocol/messages';

export function ratingText(r: PlayerRating): string {
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** The change in whole rating points, signed: "+12", "−12" (a minus sign), "+0". */
export function ratingDeltaText(change: RatingChange): string {
  const delta = Math.round(change.after) - Math.round(change.before);
  return delta < 0 ? `\u2212${-delta}` : `+${delta}`;
}
