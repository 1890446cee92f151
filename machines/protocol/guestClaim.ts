/**
 * How a client proves a stored guest identity when it opens the game socket: in the upgrade
 * request itself (docs/protocol.md, "Identity on connect"), never in the URL, which browsers
 * print in console errors and proxies write to their access logs. A browser offers it as the
 * socket's subprotocol, the one header a page sets on a socket's request; other clients may send
 * it as a cookie in a `Cookie` header. (A browser does not set the cookie: Chromium can send a
 * socket's request opened just after `document.cookie` was written without the cookie, and the
 * guest then comes back as a new one.)
 */

/** A guest identity: the server-issued id and the secret from `connectionAck`. */
export interface GuestCredentials {
  playerId: string;
  secret: string;
}

export const GUEST_COOKIE = 'chess_guest';
/** The subprotocol a browser offers: this prefix, then the identity (`chess_guest.<playerId>.<secret>`). */
export const GUEST_PROTOCOL_PREFIX = 'chess_guest.';

const SEPARATOR = '.';

/** The identity as a cookie or protocol carries it: `<playerId>.<secret>` (both are base64url, so neither holds the separator). */
function guestValue(guest: GuestCredentials): string {
  return `${guest.playerId}${SEPARATOR}${guest.secret}`;
}

/** The identity in a `<playerId>.<secret>` value, or null when it is malformed. */
function guestFromValue(value: string): GuestCredentials | null {
  const dot = value.indexOf(SEPARATOR);
  if (dot <= 0 || dot === value.length - 1) return null;
  return { playerId: value.slice(0, dot), secret: value.slice(dot + 1) };
}

/** A `Cookie` request header carrying the identity (for clients that set headers themselves). */
export function guestCookieHeader(guest: GuestCredentials): string {
  return `${GUEST_COOKIE}=${guestValue(guest)}`;
}

/** The identity in a request's `Cookie` header, or null when it has none (or a malformed one). */
export function guestFromCookieHeader(header: string | undefined): GuestCredentials | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== GUEST_COOKIE) continue;
    return guestFromValue(part.slice(eq + 1).trim());
  }
  return null;
}

/** The subprotocol that carries the identity. */
export function guestProtocol(guest: GuestCredentials): string {
  return `${GUEST_PROTOCOL_PREFIX}${guestValue(guest)}`;
}

/** What the server issues for both parts (base64url), and characters a subprotocol may hold. */
const ISSUED = /^[A-Za-z0-9_-]+$/;

/**
 * The subprotocols a browser offers (`new WebSocket(url, guestProtocols(guest))`): the identity's,
 * or none without one, or with one the server never issued (other characters would make the
 * WebSocket constructor throw, at every attempt).
 */
export function guestProtocols(guest: GuestCredentials | null): string[] {
  return guest && ISSUED.test(guest.playerId) && ISSUED.test(guest.secret) ? [guestProtocol(guest)] : [];
}

/**
 * The identity offered in a request's `Sec-WebSocket-Protocol` header (a comma-separated list),
 * or null when it offers none (or a malformed one).
 */
export function guestFromProtocolHeader(header: string | undefined): GuestCredentials | null {
  if (!header) return null;
  for (const offered of header.split(',')) {
    const protocol = offered.trim();
    if (protocol.startsWith(GUEST_PROTOCOL_PREFIX)) return guestFromValue(protocol.slice(GUEST_PROTOCOL_PREFIX.length));
  }
  return null;
}
