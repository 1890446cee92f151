/**
 * The realtime server's settings: their shapes and their defaults. server/config/index.ts reads
 * them from the environment; the parts (admission, identification, spectators, the journal) get
 * the values passed down and import only these types from here.
 */
import { readFileSync } from 'node:fs';

/** Defaults of the realtime server (startServer() uses them when an option is left out). */
export const SERVER_DEFAULTS = {
  port: 3000,
  host: '0.0.0.0',
  dataDir: 'data',
  staticDir: 'dist/client',
  maxPayloadBytes: 8 * 1024,
  idleTimeoutSeconds: 60,
  shutdownTimeoutMs: 3000,
  rateLimit: { messages: 100, windowMs: 20_000 },
  /** the prefix of the site's Redis keys (several nodes) */
  redisPrefix: 'chess',
  /** spectators of live games (server/realtime/spectators.ts): games one socket may watch, watchers per game and on the server */
  watch: { gamesPerSocket: 3, watchersPerGame: 10_000, watchersTotal: 100_000 },
  /** game chat (server/chat): whether guests may chat (GUEST_CHAT) */
  chat: { guests: true },
  /** the XState inspector relay INSPECT=1 starts (server/inspect): this machine only, @statelyai/inspect's port */
  inspectRelay: { host: '127.0.0.1', port: 8080 },
} as const;

/** Where the XState inspector's actors stream (INSPECT): to a relay started here, or to one at `url`. */
export type InspectTarget = { relay: { host: string; port: number } } | { url: string };

export interface BucketRate {
  /** actions allowed at once */
  burst: number;
  /** refill, actions per second */
  perSecond: number;
}

/** File descriptors kept for everything but sockets: the database, engines, logs, HTTP requests. */
const FDS_KEPT = 512;

export interface AdmissionLimits {
  /** open sockets on the whole server; 0: no cap */
  maxSockets: number;
  /** open sockets per address; 0: no cap */
  socketsPerAddress: number;
  /** new sockets per address; null: no limit */
  connectRate: BucketRate | null;
}

/**
 * Defaults for a public server: room for a household or a small office behind one NAT address,
 * each player with a tab or two, all reconnecting at once after a restart.
 */
export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = {
  maxSockets: socketsTheFdLimitAllows(),
  socketsPerAddress: 50,
  connectRate: { burst: 50, perSecond: 5 },
};

/**
 * The server-wide socket cap by default: the process's open-file limit (Linux: /proc/self/limits)
 * less FDS_KEPT, so that the sockets can never take the descriptors the rest needs. 0 (no cap)
 * when the limit cannot be read or is unlimited.
 */
export function socketsTheFdLimitAllows(limits = readLimits()): number {
  const m = /^Max open files\s+(\d+)/m.exec(limits);
  return m ? Math.max(1, Number(m[1]) - FDS_KEPT) : 0;
}

function readLimits(): string {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return '';
  }
}

export interface IdentificationLimits {
  /** verifications per client address */
  perAddress: BucketRate;
  /** verifications for the whole server */
  global: BucketRate;
  /** verifications running at once; the others admitted wait in the queue */
  maxInFlight: number;
  /** verifications waiting for their turn at most; past it the answer is "try later" */
  maxQueued: number;
  /** how long a token's answer is kept (a valid token's never past its expiry) */
  cacheTtlMs: number;
  /** tokens whose answers are kept at most (the oldest go first) */
  cacheSize: number;
}

/**
 * Defaults: an address gets a tab per player of a household at once, then 2 a second; the
 * server 50 at once, then 100 a second. A check takes well under a millisecond, so the queue of
 * 50 is gone in a few tens of milliseconds and a real player waits no longer than that; the
 * burst is no larger than the queue, so a burst from many addresses is queued, not refused.
 * A token's answer is kept a minute: a session ended elsewhere can still identify a new socket
 * for that long (its access token is valid until it expires anyway).
 */
export const DEFAULT_IDENTIFICATION_LIMITS: IdentificationLimits = {
  perAddress: { burst: 20, perSecond: 2 },
  global: { burst: 50, perSecond: 100 },
  maxInFlight: 1,
  maxQueued: 50,
  cacheTtlMs: 60_000,
  cacheSize: 10_000,
};

/** Game chat settings (docs/operations.md): the length and flood limits are the protocol's (CHAT). */
export interface ChatSettings {
  /** whether a guest may chat (GUEST_CHAT; an account always may) */
  guests: boolean;
}

export interface WatchLimits {
  /** live games one socket may watch at once (0: watching is off) */
  gamesPerSocket: number;
  /** spectators of one game */
  watchersPerGame: number;
  /** spectators of all games on the server */
  watchersTotal: number;
}

/**
 * How far a batch goes before the players are told of it (GAME_JOURNAL_SYNC): `interval`, into
 * the operating system (a process crash loses nothing told; an fdatasync every sync interval
 * bounds what a machine crash loses); `always`, onto the disk (nothing told is ever lost).
 * docs/operations.md (Durability) compares them with Redis, MongoDB and PostgreSQL.
 */
export const JOURNAL_SYNC_MODES = ['interval', 'always'] as const;
export type JournalSync = (typeof JOURNAL_SYNC_MODES)[number];
/** The default of GAME_JOURNAL_SYNC. */
export const JOURNAL_SYNC: JournalSync = 'interval';
/** How often the interval mode syncs what was written (GAME_JOURNAL_SYNC_INTERVAL_MS's default): MongoDB's journal commit interval. */
export const SYNC_INTERVAL_MS = 100;

/**
 * How long a batch of the `always` mode gathers records, from its first, before its synced
 * write: one sync is then shared by every move of the window instead of nearly one per move (0:
 * only what one turn of the event loop gathered, plus what arrives during the previous sync). The
 * default of GAME_JOURNAL_COMMIT_WINDOW_MS. The `interval` mode writes each turn's records at the
 * end of the turn: a write into the page cache costs too little to be worth a wait.
 */
export const COMMIT_WINDOW_MS = 2;
