/**
 * Client addresses in every spelling the server meets: uWS's eight full hex groups (an IPv4 peer
 * on a socket listening on "::" comes mapped into IPv6 that way), the short IPv6 form, the
 * dotted IPv4-mapped form of X-Forwarded-For. The per-address limits, the proxy list and the
 * loopback checks must see one client as one address.
 */
import { describe, expect, it } from 'vitest';
import { TrustedProxies, clientAddress, fromThisMachine, ipv6Groups, isLoopbackAddress, plainAddress } from '../../server/http/clientAddress';
import { addressKey } from '../../server/realtime/admission';

/** How uWS writes 127.0.0.1 and ::1 as the peer of a socket listening on "::". */
const UWS_MAPPED_LOOPBACK = '0000:0000:0000:0000:0000:ffff:7f00:0001';
const UWS_LOOPBACK6 = '0000:0000:0000:0000:0000:0000:0000:0001';

describe('plainAddress', () => {
  it('turns an IPv4-mapped IPv6 address into the IPv4 address, in every spelling', () => {
    expect(plainAddress(UWS_MAPPED_LOOPBACK)).toBe('127.0.0.1');
    expect(plainAddress('0000:0000:0000:0000:0000:FFFF:C0A8:0A01')).toBe('192.168.10.1');
    expect(plainAddress('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(plainAddress('::FFFF:10.0.0.7')).toBe('10.0.0.7');
    expect(plainAddress('::ffff:102:304')).toBe('1.2.3.4');
  });

  it('writes other IPv6 addresses in their short form', () => {
    expect(plainAddress(UWS_LOOPBACK6)).toBe('::1');
    expect(plainAddress('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(plainAddress('2001:db8::1')).toBe('2001:db8::1');
    // IPv4-compatible and NAT64 addresses are not IPv4-mapped
    expect(plainAddress('0000:0000:0000:0000:0000:0000:7f00:0001')).toBe('::7f00:1');
    expect(plainAddress('64:ff9b::102:304')).toBe('64:ff9b::102:304');
  });

  it('leaves IPv4 addresses and non-addresses as they are', () => {
    expect(plainAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(plainAddress('unknown')).toBe('unknown');
    expect(plainAddress('')).toBe('');
  });
});

describe('one client, one address', () => {
  it('a proxy listed as IPv4 is trusted when uWS reports it mapped into IPv6', () => {
    const proxies = new TrustedProxies(['127.0.0.1', '10.0.0.0/8']);
    expect(clientAddress(UWS_MAPPED_LOOPBACK, '198.51.100.7', proxies)).toBe('198.51.100.7');
    expect(clientAddress('0000:0000:0000:0000:0000:ffff:0a01:0203', '198.51.100.7, 10.9.9.9', proxies)).toBe('198.51.100.7');
    // a direct client, mapped or not, cannot choose its address
    expect(clientAddress('0000:0000:0000:0000:0000:ffff:cb00:7109', '127.0.0.1', proxies)).toBe('203.0.113.9');
  });

  it('a mapped hop in X-Forwarded-For is the IPv4 client', () => {
    const proxies = new TrustedProxies(['10.0.0.1']);
    expect(clientAddress('10.0.0.1', '::ffff:198.51.100.7', proxies)).toBe('198.51.100.7');
  });

  it('loopback is loopback in uWS spelling, for the dev inbox and /metrics', () => {
    expect(isLoopbackAddress(UWS_MAPPED_LOOPBACK)).toBe(true);
    expect(isLoopbackAddress(UWS_LOOPBACK6)).toBe(true);
    expect(isLoopbackAddress('0000:0000:0000:0000:0000:ffff:cb00:7109')).toBe(false);
    const none = new TrustedProxies([]);
    expect(fromThisMachine(UWS_MAPPED_LOOPBACK, { host: 'localhost:8080' }, none)).toBe(true);
    expect(fromThisMachine(UWS_LOOPBACK6, { host: '[::1]:8080' }, none)).toBe(true);
  });

  it('the per-address limits count a mapped IPv4 client as the IPv4 address and IPv6 by its /64, however written', () => {
    expect(addressKey(UWS_MAPPED_LOOPBACK)).toBe('127.0.0.1');
    expect(addressKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey(UWS_LOOPBACK6)).toBe('0:0:0:0::/64');
  });
});

describe('ipv6Groups', () => {
  it('gives the eight groups of any spelling, and null for anything else', () => {
    expect(ipv6Groups('::1')).toEqual(['0', '0', '0', '0', '0', '0', '0', '1']);
    expect(ipv6Groups('2001:db8::')).toEqual(['2001', 'db8', '0', '0', '0', '0', '0', '0']);
    expect(ipv6Groups('fe80:0:0:0:1:2:3:4')).toEqual(['fe80', '0', '0', '0', '1', '2', '3', '4']);
    expect(ipv6Groups('1.2.3.4')).toBeNull();
    expect(ipv6Groups('nonsense')).toBeNull();
  });
});
