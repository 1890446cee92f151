/** GoTrue-shaped errors: {code, message} plus X-Supabase-Api-Version so the client reads `code`. */
import { json, type Reply } from './http';

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
export const API_VERSION = '2024-01-01';

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function authErrorReply(err: AuthError): Reply {
  return json(
    err.status,
    { code: err.code, error_code: err.code, message: err.message, msg: err.message, ...err.extra },
    { [API_VERSION_HEADER]: API_VERSION },
  );
}

export const errors = {
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  badJson: () => new AuthError(400, 'bad_json', 'Could not parse request body as JSON'),
  weakPassword: (min: number) =>
    new AuthError(422, 'weak_password', `Password should be at least ${min} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  phoneNotConfirmed: () => new AuthError(400, 'phone_not_confirmed', 'Phone not confirmed'),
  userExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  noAuthorization: () => new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail: string) => new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  sessionNotFound: () =>
    new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => new AuthError(404, 'user_not_found', 'User from sub claim in JWT does not exist'),
  samePassword: () =>
    new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  refreshNotFound: () =>
    new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshReused: () =>
    new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  overRequestRate: () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  accountLocked: (seconds: number) =>
    new AuthError(429, 'over_request_rate_limit', `Too many failed sign-ins for this account. Try again in ${seconds} seconds.`, {
      retry_after_seconds: seconds,
    }),
  overEmailRate: (seconds: number) =>
    new AuthError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
  overSmsRate: (seconds: number) =>
    new AuthError(
      429,
      'over_sms_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
  phoneProviderDisabled: () => new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider'),
  notFound: () => new AuthError(404, 'not_found', 'Not found'),
  methodNotAllowed: () => new AuthError(405, 'method_not_allowed', 'Method not allowed'),
  tooLarge: () => new AuthError(413, 'request_too_large', 'Request body too large'),
  unavailable: (message: string) => new AuthError(503, 'service_unavailable', message),
  unexpected: () =>
    new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
};
