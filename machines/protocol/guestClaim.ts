/**
 * How a client proves a stored guest identity when it opens the game socket: a cookie sent with
 * the upgrade request (docs/protocol.md, "Identity on connect"), never the URL, which browsers
 * print in console errors and proxies write to their access logs. The browser sets it just before
 * it connects; other clients send it as a `Cookie` header.
 */

/** A guest identity: the server-issued id and the secret from `connectionAck`. */
export interface GuestCredentials {
  playerId: string;
  secret: string;
}

export const GUEST_COOKIE = 'chess_guest';
/** The socket path the cookie is scoped to: no other request carries it. */
export const GUEST_COOKIE_PATH = '/socket';
/** The browser sets the cookie again before every connection; it need not outlive the handshake by much. */
export const GUEST_COOKIE_MAX_AGE_SECONDS = 60;

const SEPARATOR = '.';

/** The cookie's value: `<playerId>.<secret>` (both are base64url, so neither holds the separator). */
export function guestCookieValue(guest: GuestCredentials): string {
  return `${guest.playerId}${SEPARATOR}${guest.secret}`;
}

/** A `Cookie` request header carrying the identity (for clients that set headers themselves). */
export function guestCookieHeader(guest: GuestCredentials): string {
  return `${GUEST_COOKIE}=${guestCookieValue(guest)}`;
}

/** The identity in a request's `Cookie` header, or null when it has none (or a malformed one). */
export function guestFromCookieHeader(header: string | undefined): GuestCredentials | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== GUEST_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    const dot = value.indexOf(SEPARATOR);
    if (dot <= 0 || dot === value.length - 1) return null;
    return { playerId: value.slice(0, dot), secret: value.slice(dot + 1) };
  }
  return null;
}

/**
 * The `document.cookie` assignment a browser makes before it opens the socket: the identity,
 * scoped to the socket path, same-site only (another site's page cannot open a socket as this
 * guest); with no identity, the removal of any earlier one (a new guest is a new guest).
 */
export function guestCookieAssignment(guest: GuestCredentials | null, secure: boolean): string {
  const value = guest ? guestCookieValue(guest) : '';
  const maxAge = guest ? GUEST_COOKIE_MAX_AGE_SECONDS : 0;
  return `${GUEST_COOKIE}=${value}; Path=${GUEST_COOKIE_PATH}; Max-Age=${maxAge}; SameSite=Strict${secure ? '; Secure' : ''}`;
}
