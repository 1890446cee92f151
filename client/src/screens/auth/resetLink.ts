/** Reading the reset link's hash (docs/product.md, Validation and messages). */
export const RESET_TEXT = {
  expired: 'The password reset link has expired. Please request a new one.',
  invalid: 'Invalid reset link. Please request a new one.',
  noSession: 'No active session found. Your reset link may have expired. Please request a new password reset link.',
  checkFailed: 'Unable to verify your session. Please try again or request a new password reset link.',
} as const;

export interface ResetLinkError { message: string; expired: boolean }

export function resetLinkError(hash: string): ResetLinkError | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const error = params.get('error');
  if (!error) return null;
  if (error === 'access_denied' && params.get('error_code') === 'otp_expired') return { message: RESET_TEXT.expired, expired: true };
  const description = params.get('error_description');
  return { message: description ? safeDecode(description) : RESET_TEXT.invalid, expired: true };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
