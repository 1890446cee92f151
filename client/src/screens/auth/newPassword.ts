/** The rule for a password being set (a new account, a reset), and what the forms say about it. */

/** The shortest password the site accepts. */
export const MIN_PASSWORD = 6;
export const PASSWORD_RULE_TEXT = `Password must be at least ${MIN_PASSWORD} characters long`;
export const PASSWORD_MISMATCH_TEXT = 'Passwords do not match';

/** What is wrong with a new password and its confirmation, or null when it may be set. */
export function newPasswordError(password: string, confirm: string): string | null {
  if (password.length < MIN_PASSWORD) return PASSWORD_RULE_TEXT;
  if (password !== confirm) return PASSWORD_MISMATCH_TEXT;
  return null;
}
