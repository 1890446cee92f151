/**
 * The address of the client behind a request: the peer's address, or, when the peer is one of
 * the configured reverse proxies, the nearest address in X-Forwarded-For that is not itself a
 * trusted proxy (read from the right, the way a chain of proxies appends to it). A forwarded
 * header from anyone else is ignored, so a direct client cannot choose its own address.
 */
import { BlockList, isIP } from 'node:net';

export class TrustedProxies {
  private readonly list = new BlockList();
  readonly size: number;

  /** `entries`: IPs or CIDR ranges ("10.0.0.0/8", "::1"); throws on a malformed one. */
  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const problem = proxyEntryProblem(entry);
      if (problem) throw new Error(problem);
      const [address, prefix] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
    this.size = entries.length;
  }

  has(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    return this.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** Why `entry` is not an IP address or CIDR range, or null when it is one. */
export function proxyEntryProblem(entry: string): string | null {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return `"${entry}" is not an IP address or CIDR range`;
  if (prefix !== undefined) {
    const bits = Number(prefix);
    if (!/^\d{1,3}$/.test(prefix) || bits > (family === 6 ? 128 : 32)) return `"${entry}" has a bad prefix length`;
  }
  return null;
}

/** An IPv4 address mapped into IPv6, in the short form (its last 32 bits as two hex groups). */
const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One spelling per address, so that limits, proxy lists and loopback checks see the same client
 * however it was written. uWS gives an IPv6 peer as eight full hex groups, and on a socket
 * listening on "::" (HOST=::) an IPv4 peer mapped into IPv6 the same way:
 * "0000:0000:0000:0000:0000:ffff:7f00:0001" is 127.0.0.1, "0000:…:0000:0001" is ::1. An
 * IPv4-mapped address in any spelling ("::ffff:1.2.3.4" too) becomes the IPv4 address, another
 * IPv6 address its short form ("2001:db8::1", RFC 5952); anything else is returned as it is.
 */
export function plainAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const short = shortIPv6(address);
  const mapped = IPV4_MAPPED.exec(short);
  return mapped ? ipv4FromGroups(mapped[1], mapped[2]) : short;
}

/** The RFC 5952 form of an IPv6 address (the URL parser writes hosts that way); a zoned one lower-cased. */
function shortIPv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase(); // a zone ("fe80::1%eth0") is no URL host
  }
}

function ipv4FromGroups(high: string, low: string): string {
  const hi = parseInt(high, 16);
  const lo = parseInt(low, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The eight groups of an IPv6 address, without leading zeros ("0" for a zero group); null if it is none. */
export function ipv6Groups(address: string): string[] | null {
  if (isIP(address) !== 6 || address.includes('.') || address.includes('%')) return null;
  const [head, tail] = shortIPv6(address).split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - front.length - back.length).fill('0');
  return [...front, ...zeros, ...back];
}

export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  let client = plainAddress(peer);
  if (!forwardedFor || !trusted.has(client)) return client;
  const hops = forwardedFor.split(',').map((s) => plainAddress(s.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    if (isIP(hops[i]) === 0) return client; // garbage in the chain: stop at the last good hop
    client = hops[i];
    if (!trusted.has(client)) return client;
  }
  return client;
}

export function isLoopbackAddress(address: string): boolean {
  const a = plainAddress(address);
  return /^127(\.\d{1,3}){3}$/.test(a) || a === '::1';
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1 as a host name (a URL's, or a Host header's without the port). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1';
}

/**
 * A request made on the server's own machine, not relayed from elsewhere: the client address
 * is loopback, no forwarding header came from anyone but a trusted proxy, and the Host is a
 * loopback name (`headers` with lower-case names).
 */
export function fromThisMachine(peer: string, headers: Record<string, string | undefined>, proxies: TrustedProxies): boolean {
  const forwarded = headers['x-forwarded-for'] || headers.forwarded || headers['x-real-ip'];
  if (forwarded && !proxies.has(plainAddress(peer))) return false;
  const hostName = (headers.host ?? '').replace(/:\d{1,5}$/, '');
  return isLoopbackAddress(clientAddress(peer, headers['x-forwarded-for'] || undefined, proxies)) && isLoopbackHost(hostName);
}
