/**
 * Where the lobby's hooks and the challenges are kept, and how every node hears of a change. One
 * node keeps them in memory (challenges also in a file of the data directory, so they outlive a
 * restart); several nodes keep them in Redis (server/cluster/lobbyRecords.ts), where any node
 * reads and changes them and each change is announced to all.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Challenge, Hook } from '../../machines/protocol/messages';
import { challengeSchema } from '../../machines/protocol/schemas';
import { SnapshotFile, type SnapshotDisk, type SnapshotOwner } from './snapshotFile';

/** Where a record's creator was last seen: when (wall-clock ms) and the node of their socket ('' on one node). */
export interface Seen {
  at: number;
  node: string;
}

/**
 * A set of records by id. `take` is the one way to change a record: whoever takes it owns the
 * change. A change resolves once it is kept where the store keeps its records (Redis; the file on
 * one node), so whoever is told of it after that cannot be told of something a crash takes back;
 * a change that cannot be kept rejects, and the records are as they were without it.
 */
export interface Records<T extends { id: string }> {
  put(rec: T): Promise<void>;
  /** removes the record and returns it; null when it is not there (someone took it first) */
  take(id: string): Promise<T | null>;
  get(id: string): Promise<T | null>;
  all(): Promise<T[]>;
  /** the creators of these records were seen now, with their socket on `node` */
  seen(ids: readonly string[], seen: Seen): Promise<void>;
  /** when each record's creator was last seen (records never seen are left out) */
  lastSeen(): Promise<Map<string, Seen>>;
  /** drops these seen entries (of records gone: a sweep that marked one as another node took it) */
  forgetSeen(ids: readonly string[]): Promise<void>;
}

/** The seen entries of records gone (by the time they are stale: a new record's entry is written just before it). */
export function orphans(seen: Map<string, Seen>, records: readonly { id: string }[], now: number, staleMs: number): string[] {
  const ids = new Set(records.map((r) => r.id));
  return [...seen].filter(([id, s]) => !ids.has(id) && now - s.at > staleMs).map(([id]) => id);
}

/** What every node hears: the hooks changed, or a challenge did (its record as it is now). */
export type LobbyNews = { k: 'hooks' } | { k: 'challenge'; c: Challenge };

/** The lobby's storage and its announcements, on one node or many. */
export interface LobbyStore {
  hooks: Records<Hook>;
  challenges: Records<Challenge>;
  /** tells every node, this one too */
  announce(news: LobbyNews): void;
  onNews(handler: (news: LobbyNews) => void): void;
  /** resolves once every change so far is kept or refused (the challenges' file on one node; Redis has each change when its call resolves) */
  flush(): Promise<void>;
}

export class MemoryRecords<T extends { id: string }> implements Records<T> {
  protected readonly recs = new Map<string, T>();
  protected readonly seenAt = new Map<string, Seen>();

  put(rec: T): Promise<void> {
    this.recs.set(rec.id, rec);
    return this.changed();
  }
  async take(id: string): Promise<T | null> {
    const rec = this.recs.get(id) ?? null;
    if (!rec) return null;
    this.recs.delete(id);
    this.seenAt.delete(id);
    await this.changed();
    return rec;
  }
  get(id: string): Promise<T | null> {
    return Promise.resolve(this.recs.get(id) ?? null);
  }
  all(): Promise<T[]> {
    return Promise.resolve([...this.recs.values()]);
  }
  seen(ids: readonly string[], seen: Seen): Promise<void> {
    for (const id of ids) this.seenAt.set(id, seen);
    return Promise.resolve();
  }
  lastSeen(): Promise<Map<string, Seen>> {
    return Promise.resolve(new Map(this.seenAt));
  }
  forgetSeen(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.seenAt.delete(id);
    return Promise.resolve();
  }
  /** told after every change, made in memory at once; resolves once it is kept (at once in memory) */
  protected changed(): Promise<void> {
    return Promise.resolve();
  }
}

/** The challenges and their creators' seen entries, at one moment. */
interface Held {
  recs: Map<string, Challenge>;
  seen: Map<string, Seen>;
}

/**
 * Challenges kept in memory and in a file of the data directory, rewritten whole after the changes
 * of each turn of the event loop (they are few and small), crash-safe (server/lobby/snapshotFile.ts).
 * A change resolves once the file holds it, so a player is told of a challenge only once a crash
 * cannot take it back. When the write fails (a full or failing disk), the challenges in memory go
 * back to what the file holds and every change not in it rejects (its player is told the challenges
 * cannot be reached), so nobody is told of a challenge a restart would not have; the next change is
 * written as usual.
 * Read back at start, each creator counts as seen then, so they have the usual time to come back
 * after the restart.
 */
export class FileChallenges extends MemoryRecords<Challenge> {
  private readonly file: SnapshotFile;
  /** what the file holds (the last snapshot written, or read at start): what a failed write goes back to */
  private onFile: Held;
  /** the snapshot the write under way carries */
  private carried: Held;

  /** `disk`: the snapshot's file calls (node:fs's by default) */
  constructor(dir: string, now: number, log: Logger, disk?: SnapshotDisk) {
    super();
    mkdirSync(dir, { recursive: true });
    const file = challengesFile(dir);
    const ids: string[] = [];
    for (const rec of readRecords(file)) {
      this.recs.set(rec.id, rec);
      ids.push(rec.id);
    }
    void this.seen(ids, { at: now, node: '' });
    this.onFile = this.carried = this.held();
    const owner: SnapshotOwner = {
      snapshot: () => JSON.stringify([...(this.carried = this.held()).recs.values()]),
      written: () => (this.onFile = this.carried),
      failed: (err) => {
        log.error({ err: err.message, file }, 'challenges not written to their file; the changes not in it are undone and refused');
        this.backToFile();
      },
    };
    this.file = new SnapshotFile(file, owner, disk);
  }

  /** resolves once every change so far is in the file, or refused */
  flush(): Promise<void> {
    return this.file.flush();
  }

  /**
   * Reads give what the file holds: what they find is shown to players (whoever opens a link, a
   * player challenged who signs in later), and a change still on its way to the file may yet be
   * refused. `take` works on the records in memory, so of two answers at once one still wins.
   */
  override get(id: string): Promise<Challenge | null> {
    return Promise.resolve(this.onFile.recs.get(id) ?? null);
  }

  override all(): Promise<Challenge[]> {
    return Promise.resolve([...this.onFile.recs.values()]);
  }

  protected override changed(): Promise<void> {
    return this.file.changed();
  }

  private held(): Held {
    return { recs: new Map(this.recs), seen: new Map(this.seenAt) };
  }

  /** The challenges in memory become those of the file; one back in it is seen as when it was written, unless seen since. */
  private backToFile(): void {
    this.recs.clear();
    for (const [id, rec] of this.onFile.recs) {
      this.recs.set(id, rec);
      const seen = this.onFile.seen.get(id);
      if (seen && !this.seenAt.has(id)) this.seenAt.set(id, seen);
    }
  }
}

/** The file of the challenges in `dir`. */
export const challengesFile = (dir: string) => join(dir, 'challenges.json');

/** The challenges a file holds; unreadable ones are left out. */
function readRecords(file: string): Challenge[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((r) => {
    const parsed = challengeSchema.safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The lobby of a single node: in memory, challenges also on disk when there is a data directory. */
export function localLobbyStore(dataDir: string | undefined, now: number, log: Logger, disk?: SnapshotDisk): LobbyStore {
  const handlers: ((news: LobbyNews) => void)[] = [];
  const challenges = dataDir ? new FileChallenges(join(dataDir, 'lobby'), now, log, disk) : null;
  return {
    hooks: new MemoryRecords<Hook>(),
    challenges: challenges ?? new MemoryRecords<Challenge>(),
    announce: (news) => queueMicrotask(() => handlers.forEach((h) => h(news))),
    onNews: (h) => void handlers.push(h),
    flush: async () => challenges?.flush(),
  };
}
