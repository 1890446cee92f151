/**
 * What the custom-game screens say (the lobby's list, a challenge's page, the notice of a
 * challenge): pure text from the protocol's records, so the screens and the tests read one wording.
 */
import type { Challenge, Color, CustomGame, DeclineReason, Hook } from '../protocol/messages';
import { timeControlName } from '../game/timeControl';

/** "5+3 Blitz · Casual": a custom game's time control and whether it is rated. */
export function customGameLine(game: Pick<CustomGame, 'timeControl' | 'rated'>): string {
  return `${timeControlName(game.timeControl)} · ${game.rated ? 'Rated' : 'Casual'}`;
}

const OTHER: Record<Color, Color> = { white: 'black', black: 'white' };

/** The colour the viewer would play: the creator's choice for the creator, its opposite for the other, or random. */
export function viewerColorText(color: CustomGame['color'], viewerIsCreator: boolean): string {
  if (color === 'random') return 'Random colour';
  return `You play ${viewerIsCreator ? color : OTHER[color]}`;
}

/** A creator as listed: their name, a guest's marked, a signed-in player's rating when known. */
export function creatorText(by: Hook['by']): string {
  const rating = by.rating ? ` (${Math.round(by.rating.rating)}${by.rating.provisional ? '?' : ''})` : '';
  return `${by.name}${by.guest ? ' (guest)' : rating}`;
}

/** The decline reasons as the player picks one. */
export const DECLINE_LABEL: Record<DeclineReason, string> = {
  generic: 'Not now',
  later: 'Later',
  tooFast: 'Too fast',
  tooSlow: 'Too slow',
  timeControl: 'Not this time control',
  rated: 'Rated only',
  casual: 'Casual only',
};

/** What the challenger is told of a decline. */
export const DECLINE_TEXT: Record<DeclineReason, string> = {
  generic: 'They are not accepting challenges at the moment.',
  later: 'This is not the right time for them; they may accept later.',
  tooFast: 'This time control is too fast for them.',
  tooSlow: 'This time control is too slow for them.',
  timeControl: 'They do not accept challenges with this time control.',
  rated: 'They would rather play a rated game.',
  casual: 'They would rather play a casual game.',
};

/** What became of a challenge, in a sentence; null while it is open. */
export function challengeOutcome(c: Challenge): string | null {
  switch (c.status) {
    case 'created':
      return null;
    case 'accepted':
      return 'Challenge accepted.';
    case 'declined':
      return `Challenge declined. ${DECLINE_TEXT[c.declineReason ?? 'generic']}`;
    case 'canceled':
      return 'The challenge was cancelled.';
    case 'expired':
      return 'The challenge expired: its creator left.';
  }
}
