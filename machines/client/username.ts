/** Profile-setup rules (docs/product.md, Validation and messages). */

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;

export const PROFILE_TEXT = {
  required: 'Username is required',
  pattern: 'Username must be 3-20 characters and can only contain letters, numbers, and underscores',
  fillAll: 'Please fill out all fields',
  taken: 'Username is already taken',
  takenOnSubmit: 'Username already taken. Please choose a different one.',
  available: 'Username is available',
  notAuthenticated: 'User not authenticated',
  saveFailed: 'An error occurred while saving your profile',
} as const;

/** null when the username is acceptable, else the message to show. */
export function usernameError(username: string): string | null {
  if (!username) return PROFILE_TEXT.required;
  if (!USERNAME_PATTERN.test(username)) return PROFILE_TEXT.pattern;
  return null;
}

/**
 * The part of the email before "@", stripped to letters, digits and underscore,
 * lowercased; under 3 characters gives "user_" plus a random number below 10000.
 */
export function defaultUsernameFromEmail(email: string | undefined | null, random: () => number = Math.random): string {
  const local = (email ?? '').split('@')[0] ?? '';
  const base = local.replace(/[^A-Za-z0-9_]/g, '').toLowerCase().slice(0, 20);
  if (base.length < 3) return `user_${Math.floor(random() * 10000)}`;
  return base;
}

export type AvailabilityState = 'idle' | 'checking' | 'available' | 'taken' | 'error';

export interface ProfileForm {
  username: string;
  firstName: string;
  lastName: string;
}

export function profileSubmitDisabled(form: ProfileForm, busy: boolean, availability: AvailabilityState): boolean {
  const valid = usernameError(form.username) === null && form.firstName.trim() !== '' && form.lastName.trim() !== '';
  return !valid || busy || availability === 'taken' || availability === 'checking';
}

/**
 * The pattern that finds a username whatever its case (usernames are unique case-insensitively):
 * for an `ilike` filter, with LIKE's wildcards (`_` is one, and may be in a username) escaped.
 */
export function usernameLookupPattern(username: string): string {
  return username.replace(/[\\%_]/g, (c) => `\\${c}`);
}
