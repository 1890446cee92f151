/**
 * The name a player plays under, in a pool, a custom game or a chat: an account plays under its
 * username whatever its client sends; an account that has not chosen one yet plays as
 * TEXT.anonymousName, which no username can be (3-20 letters, digits or _), so no account passes
 * for another; a guest plays under the name it gave, shown marked as a guest's wherever it shows.
 */
import { TEXT } from '../../machines/protocol/messages';
import type { PlayerSession } from './types';

export function playingName(s: Pick<PlayerSession, 'kind' | 'username' | 'name'>, given?: string | null): string {
  if (s.kind === 'account') return s.username ?? TEXT.anonymousName;
  return given || s.name || TEXT.anonymousName;
}
