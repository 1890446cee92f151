import { describe, expect, it } from 'vitest';
import { guestCookieAssignment, guestCookieHeader, guestFromCookieHeader } from '../../machines/protocol/guestClaim';

const guest = { playerId: 'player_a-B_c1234567', secret: 'Zm9v-YmFy_YmF6' };

describe('the guest cookie', () => {
  it('carries a guest identity through a Cookie header among other cookies', () => {
    expect(guestFromCookieHeader(guestCookieHeader(guest))).toEqual(guest);
    expect(guestFromCookieHeader(`theme=blue; ${guestCookieHeader(guest)}; other=1`)).toEqual(guest);
  });

  it('claims nothing without the cookie, or with a malformed one', () => {
    expect(guestFromCookieHeader(undefined)).toBeNull();
    expect(guestFromCookieHeader('')).toBeNull();
    expect(guestFromCookieHeader('chess_guestx=player_a.b')).toBeNull();
    expect(guestFromCookieHeader('chess_guest=')).toBeNull();
    expect(guestFromCookieHeader('chess_guest=player_abc')).toBeNull();
    expect(guestFromCookieHeader('chess_guest=.secret')).toBeNull();
    expect(guestFromCookieHeader('chess_guest=player_abc.')).toBeNull();
  });

  it('is set by a browser for the socket path only, same-site, briefly; removed when there is no identity', () => {
    expect(guestCookieAssignment(guest, false)).toBe(`chess_guest=${guest.playerId}.${guest.secret}; Path=/socket; Max-Age=60; SameSite=Strict`);
    expect(guestCookieAssignment(guest, true)).toMatch(/; Secure$/);
    expect(guestCookieAssignment(null, false)).toBe('chess_guest=; Path=/socket; Max-Age=0; SameSite=Strict');
  });
});
