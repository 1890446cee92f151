/**
 * Browser storage that never throws: local storage read and write
 * failures are only logged and the app continues. A storage backend can be
 * injected (tests pass an in-memory one; the browser uses localStorage).
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type Logger = Pick<Console, 'warn' | 'error'>;

export function memoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k) => (data.has(k) ? (data.get(k) as string) : null),
    setItem: (k, v) => void data.set(k, String(v)),
    removeItem: (k) => void data.delete(k),
  };
}

export class SafeStorage {
  constructor(
    private readonly backend: () => KeyValueStore | undefined,
    private readonly log: Logger = console,
  ) {}

  readJson<T>(key: string, fallback: T): T {
    try {
      const raw = this.backend()?.getItem(key);
      if (raw == null) return fallback;
      return JSON.parse(raw) as T;
    } catch (err) {
      this.log.error(`storage: could not read ${key}`, err);
      return fallback;
    }
  }

  writeJson(key: string, value: unknown): boolean {
    try {
      const store = this.backend();
      if (!store) throw new Error('no storage available');
      store.setItem(key, JSON.stringify(value));
      return true;
    } catch (err) {
      this.log.error(`storage: could not write ${key}`, err);
      return false;
    }
  }

  remove(key: string): void {
    try {
      this.backend()?.removeItem(key);
    } catch (err) {
      this.log.error(`storage: could not remove ${key}`, err);
    }
  }
}

/** Keys the product keeps in browser storage (docs/product.md, Identity and storage). */
export const STORAGE_KEYS = {
  gameHistory: 'chess.gameHistory',
  notificationSettings: 'chess.notificationSettings',
  hasSeenNotificationPage: 'hasSeenNotificationPage',
  guest: 'chess.guestUser',
  socketIdentity: 'chess.socketIdentity',
  aiSettings: 'chess.aiSettings',
  playPreferences: 'chess.playPreferences',
  /** `accountId:guestId` pairs whose offer to import the guest's games was answered */
  guestImportAnswered: 'chess.guestImportAnswered',
  /** finished Local Play games (both players at this device; one list per device, not a player's results) */
  localGames: 'chess.localGames',
  /** the Local Play setup: time control and auto-flip */
  localPlaySettings: 'chess.localPlaySettings',
} as const;
