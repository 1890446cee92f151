/**
 * Which WebSocket upgrades are let in: per client address at most `socketsPerAddress` open at
 * once and new ones at a bounded rate (issue 24: one address opened 3,000 sockets in 0.7 s and
 * ran the process out of file descriptors, after which nothing, /healthz included, was served),
 * and for the whole server at most `maxSockets`, below the process's file-descriptor limit. A
 * refused upgrade is answered with an HTTP status at once, never left to hang. An IPv6 client is
 * counted by its /64, the block one subscriber gets.
 */
import { ipv6Groups, plainAddress } from '../http/clientAddress';
import { KeyedBuckets } from './buckets';
import type { AdmissionLimits } from '../config/server';

export type AdmissionRefusal = {
  reason: 'server_socket_cap' | 'address_socket_cap' | 'address_connect_rate';
  /** the HTTP status line of the answer */
  status: string;
  message: string;
  retryAfterSeconds: number;
};

const TOO_MANY = '429 Too Many Requests';

/** The address a limit counts by: IPv4 as is (also when mapped into IPv6), IPv6 by its /64. */
export function addressKey(remote: string): string {
  const address = plainAddress(remote);
  const groups = ipv6Groups(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** Too many new sockets from one address (on this node, or on the whole site: server/cluster). */
export function connectRateRefusal(retryAfterSeconds: number): AdmissionRefusal {
  return {
    reason: 'address_connect_rate',
    status: TOO_MANY,
    message: 'Too many new connections from this address; try again shortly.',
    retryAfterSeconds: Math.max(1, retryAfterSeconds),
  };
}

export class Admission {
  private readonly open = new Map<string, number>();
  private total = 0;
  private readonly connects: KeyedBuckets | null;

  constructor(private readonly limits: AdmissionLimits) {
    this.connects = limits.connectRate ? new KeyedBuckets(limits.connectRate) : null;
  }

  /** Lets a socket from `address` in (counting it) or says why not. */
  admit(address: string, now: number): AdmissionRefusal | null {
    if (this.limits.maxSockets > 0 && this.total >= this.limits.maxSockets) {
      return { reason: 'server_socket_cap', status: '503 Service Unavailable', message: 'The server is full; try again in a minute.', retryAfterSeconds: 30 };
    }
    const cap = this.limits.socketsPerAddress;
    const openNow = this.open.get(address) ?? 0;
    if (cap > 0 && openNow >= cap) {
      return { reason: 'address_socket_cap', status: TOO_MANY, message: `At most ${cap} connections from one address.`, retryAfterSeconds: 10 };
    }
    if (this.connects && !this.connects.take(address, now)) return connectRateRefusal(this.connects.retryAfterSeconds(address));
    this.open.set(address, openNow + 1);
    this.total++;
    return null;
  }

  /** A socket admitted from `address` has closed. */
  release(address: string): void {
    this.total--;
    const n = (this.open.get(address) ?? 0) - 1;
    if (n > 0) this.open.set(address, n);
    else this.open.delete(address);
  }

  /** Sockets open from `address`. */
  openFrom(address: string): number {
    return this.open.get(address) ?? 0;
  }

  sweep(now: number): void {
    this.connects?.sweep(now);
  }
}
