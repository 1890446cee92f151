/**
 * Guest identity: a server-issued id `player_<random>` plus a secret = HMAC-SHA256(id, server key).
 * The secret proves on reconnect (in the socket's upgrade request: the subprotocol a browser
 * offers, or the `chess_guest` cookie) that the client is the same guest; nothing is stored per
 * guest, so it survives restarts as long as the key does.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { HttpRequest } from 'uWebSockets.js';
import { guestFromCookieHeader, guestFromProtocolHeader, type GuestCredentials } from '../../machines/protocol/guestClaim';

const GUEST_ID = /^player_[A-Za-z0-9_-]{8,32}$/;

/** Whether a player id is a guest's (server-issued) or an account's. */
export function playerKind(playerId: string): 'guest' | 'account' {
  return GUEST_ID.test(playerId) ? 'guest' : 'account';
}

export class GuestIdentity {
  constructor(private readonly key: string) {}

  newGuestId(): string {
    return 'player_' + randomBytes(9).toString('base64url');
  }

  secretFor(playerId: string): string {
    return createHmac('sha256', this.key).update(playerId).digest('base64url');
  }

  /** True when `secret` is the one this server issued for `playerId`. Constant-time. */
  verify(playerId: string, secret: string): boolean {
    if (!GUEST_ID.test(playerId) || typeof secret !== 'string' || secret.length > 128) return false;
    const expected = Buffer.from(this.secretFor(playerId));
    const given = Buffer.from(secret);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** Where an upgrade request put the guest identity it claims. */
export type ClaimForm = 'protocol' | 'cookie' | 'url';

/**
 * The guest identity a socket's upgrade request claims: the subprotocol it offers (browsers), the
 * cookie (other clients), or the old form in the URL (`/socket?playerId=…&secret=…`, still
 * accepted until the date in docs/protocol.md); counted by form so an operator sees when no
 * client sends the URL form any more. Null when it claims none.
 */
export function guestClaim(req: HttpRequest): (GuestCredentials & { form: ClaimForm }) | null {
  const offered = guestFromProtocolHeader(req.getHeader('sec-websocket-protocol'));
  if (offered) return { ...offered, form: 'protocol' };
  const cookie = guestFromCookieHeader(req.getHeader('cookie'));
  if (cookie) return { ...cookie, form: 'cookie' };
  const playerId = req.getQuery('playerId') ?? '';
  const secret = req.getQuery('secret') ?? '';
  return playerId || secret ? { playerId, secret, form: 'url' } : null;
}
