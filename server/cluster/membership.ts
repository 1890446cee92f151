/**
 * The node's place in the site: once a second it renews its lease (`alive:<node>`, expiring
 * after LEASE_MS), publishes its player count, learns which node runs the matchmaking pool and
 * under which term (and takes that role when nobody holds it), and finds nodes whose lease
 * expired, whose games it then takes over. A node plays its games only while its lease surely
 * holds: if a renewal does not get through, it stops LEASE_MARGIN_MS before the lease could have
 * expired.
 */
import type { Logger } from 'pino';
import type { RedisLink } from './redis';
import type { ClusterKeys } from './keys';
import { SITE_PROTOCOL } from './siteProtocol';
import { readSiteNodes } from './siteNodes';

/** How long a node's lease lasts without renewal: a killed node's games move within this plus a beat. */
export const LEASE_MS = 3000;
/** A node stops playing this long before its lease could have run out (clock drift, slow replies). */
export const LEASE_MARGIN_MS = 500;
/** How often the lease is renewed and the other nodes looked at. */
export const BEAT_MS = 1000;

/**
 * Renews the node's lease, count, last-seen time and site protocol; answers whether the lease was still held
 * (1, else 0) and whether Redis had no epoch (1: it is new, or it lost every key).
 */
const RENEW = `
local had = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[4])
redis.call('SET', KEYS[6], ARGV[5], 'PX', ARGV[2])
local fresh = redis.call('SET', KEYS[5], ARGV[1], 'NX') and 1 or 0
if had == ARGV[1] then return {1, fresh} else return {0, fresh} end`;

/**
 * The matchmaker role: kept by its holder, taken when free (its term then goes up by one);
 * returns the holder and the term.
 */
const MATCHMAKER = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('INCR', KEYS[2])
  holder = ARGV[1]
end
return {holder, redis.call('GET', KEYS[2]) or ''}`;

export interface MembershipEvents {
  /** the lease had lapsed (Redis was away too long): games may have been taken over meanwhile */
  leaseLapsed(): void;
  /** nodes whose lease expired (their games are for the taking) */
  deadNodes(nodes: string[]): void;
  /** the node running the matchmaking pool changed (from `previous`, '' before the first beat) */
  matchmakerChanged(node: string, previous: string): void;
  /** Redis had no epoch: it is new, or it restarted empty (games may have no owner any more) */
  storeEmptied(): void;
  /** the site's player count or number of nodes changed */
  siteChanged(view: SiteView): void;
  /** a beat went through; `live` are the nodes whose lease holds (this one included) */
  beat(live: ReadonlySet<string>): void;
}

export interface SiteView {
  /** players with an open socket on the whole site, as counted at the last beat */
  playersOnline: number;
  /** of those, the ones on other nodes */
  elsewhere: number;
  /** live nodes */
  nodes: number;
}

export class Membership {
  private timer: NodeJS.Timeout | null = null;
  /** performance.now() until which this node may play its games */
  private playUntil = 0;
  private renewedOnce = false;
  /** performance.now() since when every beat went through (NaN after a failed one) */
  private heldSince = Number.NaN;
  private matchmakerNode = '';
  /** the role's term as last read with its holder ('' before the first beat) */
  private term = '';
  private site: SiteView = { playersOnline: 0, elsewhere: 0, nodes: 1 };
  /** this node's count as the last beat reported it */
  private reported = 0;
  /** round trip of the last beat's commands, ms */
  roundTripMs = 0;
  private stopped = false;

  constructor(
    readonly node: string,
    private readonly redis: RedisLink,
    private readonly keys: ClusterKeys,
    private readonly log: Logger,
    private readonly localCount: () => number,
    private readonly events: MembershipEvents,
  ) {}

  /** Renews once (rejects if Redis does not answer), then every BEAT_MS. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(() => {}), BEAT_MS);
    this.timer.unref();
  }

  /** True while the lease surely holds: the node may change its games. */
  get mayPlay(): boolean {
    return !this.stopped && performance.now() < this.playUntil;
  }

  get matchmaker(): string {
    return this.matchmakerNode;
  }

  /** The matchmaker role's term as last read: a pairing of this node's pool commits only under it. */
  get matchmakerTerm(): string {
    return this.term;
  }

  /**
   * Reads the matchmaker role again (taking it when it is free), as a beat does: a node whose
   * pairing was refused because the role moved learns where it is now without waiting for a beat.
   */
  async refreshMatchmaker(): Promise<void> {
    const [holder, term] = (await this.redis.cmd.eval(MATCHMAKER, 2, this.keys.matchmaker, this.keys.matchmakerTerm, this.node, LEASE_MS)) as [string, string];
    this.term = term;
    if (holder === this.matchmakerNode) return;
    const previous = this.matchmakerNode;
    this.matchmakerNode = holder;
    this.events.matchmakerChanged(holder, previous);
  }

  get view(): SiteView {
    return this.site;
  }

  private async beat(): Promise<void> {
    if (this.stopped) return;
    const sent = performance.now();
    const { cmd } = this.redis;
    try {
      const local = this.localCount();
      const [held, fresh] = (await cmd.eval(RENEW, 6, this.keys.alive(this.node), this.keys.count(this.node), this.keys.nodes, this.keys.seen, this.keys.epoch, this.keys.protocol(this.node), this.node, LEASE_MS, local, Date.now(), SITE_PROTOCOL)) as [number, number];
      this.reported = local;
      this.playUntil = sent + LEASE_MS - LEASE_MARGIN_MS;
      if (Number.isNaN(this.heldSince)) this.heldSince = sent;
      this.roundTripMs = performance.now() - sent;
      if (held === 0 && this.renewedOnce) {
        this.log.warn({ node: this.node }, 'node lease had lapsed; checking which games are still ours');
        this.events.leaseLapsed();
      }
      this.renewedOnce = true;
      if (fresh === 1) this.events.storeEmptied();
      await this.refreshMatchmaker();
      await this.lookAtNodes();
    } catch (err) {
      this.heldSince = Number.NaN;
      this.log.warn({ err: (err as Error).message }, 'cluster beat failed (Redis unreachable?)');
      throw err;
    }
  }

  /** Sums the live nodes' player counts and reports the dead ones. */
  private async lookAtNodes(): Promise<void> {
    const nodes = await readSiteNodes(this.redis.cmd, this.keys);
    const dead: string[] = [];
    const live = new Set<string>([this.node]);
    for (const n of nodes) {
      if (!n.alive && n.node !== this.node) dead.push(n.node);
      else live.add(n.node);
    }
    const total = nodes.reduce((sum, n) => sum + n.players, 0);
    const site = { playersOnline: total, elsewhere: Math.max(0, total - this.reported), nodes: nodes.length - dead.length };
    const changed = site.elsewhere !== this.site.elsewhere || site.nodes !== this.site.nodes;
    this.site = site;
    if (changed) this.events.siteChanged(site);
    // After an outage of its own, a node waits a whole lease before it judges others dead: they
    // may have lost Redis too, and be renewing their leases just now.
    if (dead.length > 0 && performance.now() - this.heldSince >= LEASE_MS) this.events.deadNodes(dead);
    this.events.beat(live);
  }

  /**
   * Stops renewing and gives the lease up at once (a drained node's games are taken over by the
   * others within a beat rather than after the lease runs out).
   */
  async leave(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    try {
      await this.redis.cmd.del(this.keys.alive(this.node), this.keys.count(this.node), this.keys.protocol(this.node));
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not give the node lease up; it expires on its own');
    }
  }
}
