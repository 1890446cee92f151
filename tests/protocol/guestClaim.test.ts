import { describe, expect, it } from 'vitest';
import { guestCookieHeader, guestFromCookieHeader, guestFromProtocolHeader, guestProtocol, guestProtocols } from '../../machines/protocol/guestClaim';

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
});

describe('the guest subprotocol', () => {
  it('carries a guest identity through a Sec-WebSocket-Protocol header, among other protocols', () => {
    expect(guestProtocol(guest)).toBe(`chess_guest.${guest.playerId}.${guest.secret}`);
    expect(guestFromProtocolHeader(guestProtocol(guest))).toEqual(guest);
    expect(guestFromProtocolHeader(`chat, ${guestProtocol(guest)}`)).toEqual(guest);
  });

  it('claims nothing without it, or with a malformed one', () => {
    expect(guestFromProtocolHeader(undefined)).toBeNull();
    expect(guestFromProtocolHeader('')).toBeNull();
    expect(guestFromProtocolHeader('chat')).toBeNull();
    expect(guestFromProtocolHeader('chess_guest.player_abc')).toBeNull();
    expect(guestFromProtocolHeader('chess_guest..secret')).toBeNull();
    expect(guestFromProtocolHeader('chess_guest.player_abc.')).toBeNull();
  });

  it('is what a browser offers: nothing without an identity, or with one the server never issued', () => {
    expect(guestProtocols(guest)).toEqual([guestProtocol(guest)]);
    expect(guestProtocols(null)).toEqual([]);
    expect(guestProtocols({ playerId: 'player abc', secret: guest.secret })).toEqual([]);
    expect(guestProtocols({ playerId: guest.playerId, secret: 'a=b' })).toEqual([]);
    expect(guestProtocols({ playerId: guest.playerId, secret: '' })).toEqual([]);
  });
});
