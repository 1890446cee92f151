/**
 * The rules of custom games (lobby hooks) and challenges, as pure functions over their records:
 * who may play which, the colours a game starts with, when a record is gone, how many a player
 * may hold. The server applies them; they take the time as an argument (wall-clock ms).
 * Facts from lichess (lila's lobby and challenge modules): a real-time challenge goes "offline"
 * once its creator has not been seen for 20 s; a challenge that ended is kept 3 hours so its link
 * still tells what became of it; a new challenge of one player to another replaces the previous
 * one; a player has one hook at a time (a new one replaces it).
 */
import type { Challenge, Color, CustomGame, DeclineReason, Hook } from '../protocol/messages';

export const LOBBY_RULES = {
  /** a hook whose creator has not been seen this long (no socket on the site) leaves the lobby */
  hookUnseenMs: 5_000,
  /** an open challenge whose creator has not been seen this long expires (lichess: 20 s) */
  challengeUnseenMs: 20_000,
  /** an ended challenge is kept this long, so its link tells what became of it (lichess: 3 hours) */
  challengeKeptMs: 3 * 60 * 60_000,
  /** open challenges one player may have at once; one more is refused */
  maxOpenChallenges: 20,
  /** hooks in the lobby at most; one more is refused until some leave */
  maxHooks: 500,
} as const;

/** What a player is, as far as these rules care. */
export interface Player {
  id: string;
  signedIn: boolean;
  /** an account's username */
  username?: string;
}

export type Refusal = 'own' | 'rated_needs_account' | 'not_for_you' | 'not_open';

export const REFUSAL_TEXT: Record<Refusal, string> = {
  own: 'That is your own game.',
  rated_needs_account: 'A rated game is only between signed-in players. Sign in to play it, or choose a casual game.',
  not_for_you: 'This challenge is for another player.',
  not_open: 'This challenge is no longer open.',
};

/** Why a player may not create these options (rated needs an account), or null. */
export function createRefusal(options: CustomGame, creator: Player): Refusal | null {
  return options.rated && !creator.signedIn ? 'rated_needs_account' : null;
}

/** Why `player` may not join the hook, or null. */
export function joinRefusal(hook: Hook, player: Player): Refusal | null {
  if (hook.by.id === player.id) return 'own';
  if (hook.rated && !player.signedIn) return 'rated_needs_account';
  return null;
}

/** Whether two usernames are one (usernames are matched without regard to case). */
export const sameName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Whether the challenge is addressed to this player (by username), or open to anyone with the link. */
export function isFor(c: Challenge, player: Player): boolean {
  return c.to === undefined || (player.username !== undefined && sameName(c.to, player.username));
}

/** Why `player` may not accept (or decline) the challenge, or null. */
export function answerRefusal(c: Challenge, player: Player, accepting: boolean): Refusal | null {
  if (c.status !== 'created') return 'not_open';
  if (c.by.id === player.id) return 'own';
  if (!isFor(c, player)) return 'not_for_you';
  if (accepting && c.rated && !player.signedIn) return 'rated_needs_account';
  return null;
}

/** The creator's colour: as chosen, or drawn from `roll` (0 <= roll < 1) for random. */
export function creatorColor(choice: CustomGame['color'], roll: number): Color {
  if (choice !== 'random') return choice;
  return roll < 0.5 ? 'white' : 'black';
}

/** What became of a challenge: its record in its new status, at `now`. */
export function ended(c: Challenge, status: Exclude<Challenge['status'], 'created'>, now: number, extra: { gameId?: string; declineReason?: DeclineReason } = {}): Challenge {
  return { ...c, status, endedAt: now, ...extra };
}

/** An open record whose creator was last seen at `seenAt` is gone at `now` after `unseenMs`. */
export function unseen(seenAt: number, now: number, unseenMs: number): boolean {
  return now - seenAt > unseenMs;
}

/**
 * The hooks a newer one of the same player replaces: all but each player's newest (ties go to the
 * greater id, so every node picks the same). A post replaces the player's hook as it reads them,
 * so one player posting through two nodes at the same instant (a second socket opened while the
 * first was still there) can leave two.
 */
export function supersededHooks(hooks: readonly Hook[]): Hook[] {
  const newest = new Map<string, Hook>();
  for (const h of hooks) {
    const kept = newest.get(h.by.id);
    if (!kept || h.createdAt > kept.createdAt || (h.createdAt === kept.createdAt && h.id > kept.id)) newest.set(h.by.id, h);
  }
  return hooks.filter((h) => newest.get(h.by.id) !== h);
}

/** Whether an ended challenge has been kept long enough to be forgotten. */
export function forgotten(c: Challenge, now: number): boolean {
  return c.status !== 'created' && now - (c.endedAt ?? c.createdAt) > LOBBY_RULES.challengeKeptMs;
}

/** The open challenges of `creatorId` among `all`. */
export function openBy(all: Iterable<Challenge>, creatorId: string): Challenge[] {
  return [...all].filter((c) => c.status === 'created' && c.by.id === creatorId);
}

/**
 * What creating a challenge does to the creator's open ones: a previous one to the same player is
 * replaced (cancelled, as lichess does); past the limit the new one is refused.
 */
export function challengePlan(open: readonly Challenge[], to: string | undefined): { replace: Challenge[]; refused: boolean } {
  const replace = to === undefined ? [] : open.filter((c) => c.to !== undefined && sameName(c.to, to));
  return { replace, refused: open.length - replace.length >= LOBBY_RULES.maxOpenChallenges };
}
