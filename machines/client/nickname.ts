/** Guest nicknames and ids (docs/product.md: 30 adjectives, 30 nouns, a number 10..99). */

export const ADJECTIVES = [
  'Swift', 'Clever', 'Brave', 'Silent', 'Mighty', 'Sly', 'Bold', 'Calm', 'Daring', 'Eager',
  'Fierce', 'Gentle', 'Happy', 'Jolly', 'Keen', 'Lucky', 'Noble', 'Quick', 'Royal', 'Sharp',
  'Tricky', 'Wise', 'Zesty', 'Cosmic', 'Crafty', 'Dashing', 'Grand', 'Humble', 'Mystic', 'Witty',
] as const;

export const NOUNS = [
  'Knight', 'Bishop', 'Rook', 'Pawn', 'King', 'Queen', 'Castle', 'Gambit', 'Tiger', 'Falcon',
  'Dragon', 'Wizard', 'Panther', 'Eagle', 'Wolf', 'Fox', 'Bear', 'Lion', 'Hawk', 'Otter',
  'Badger', 'Raven', 'Phoenix', 'Squire', 'Jester', 'Monarch', 'Sphinx', 'Titan', 'Ranger', 'Sage',
] as const;

export type RandomFn = () => number;

function pick<T>(list: readonly T[], random: RandomFn): T {
  return list[Math.min(list.length - 1, Math.floor(random() * list.length))];
}

/** e.g. "SwiftKnight42". */
export function generateNickname(random: RandomFn = Math.random): string {
  const n = 10 + Math.min(89, Math.floor(random() * 90));
  return `${pick(ADJECTIVES, random)}${pick(NOUNS, random)}${n}`;
}

export const NICKNAME_PATTERN = /^[A-Z][a-z]+[A-Z][a-z]+[1-9][0-9]$/;

/** `anon_` + the lowercased username with spaces replaced by underscores. */
export function guestId(username: string): string {
  return `anon_${username.toLowerCase().replace(/ /g, '_')}`;
}

export interface GuestRecord {
  id: string;
  username: string;
  nickname: string;
  isAnonymous: true;
}

export function makeGuest(nickname: string): GuestRecord {
  return { id: guestId(nickname), username: nickname, nickname, isAnonymous: true };
}

export function isGuestRecord(v: unknown): v is GuestRecord {
  const g = v as GuestRecord | null;
  return !!g && typeof g === 'object' && g.isAnonymous === true && typeof g.username === 'string' && g.username.length > 0;
}
