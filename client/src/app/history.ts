/**
 * The local game history (docs/product.md, Identity and storage), observable from React. Each
 * player's history is its own, under a key of its own: the guest this device plays as (its
 * server-issued id) or the account signed in. A browser shared by several guests shows each only
 * what it played; a guest that signs out is forgotten with its history (forgetGuest).
 *
 * Local Play games (two people at this device) are kept apart, in one list for the device: they
 * are nobody's online result, so they never count in a player's stats, and need no identity.
 */
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../machines/client/storage';
import type { GameResult } from '../../../machines/client/outcome';
import { readLocalGames, type LocalGameRecord, type LocalGameResult } from '../../../machines/client/localGame';
import { getConnection, getIdentity } from './services';
import { loadSocketIdentity, storage } from './storage';

const listeners = new Set<() => void>();
const NOBODY: GameResult[] = [];
let cache: { owner: string; games: GameResult[] } | null = null;
let following = false;

const keyOf = (owner: string) => `${STORAGE_KEYS.gameHistory}:${owner}`;

/** Whose history the screens show: the account signed in, else the guest this device plays as, else nobody. */
function currentOwner(): string | null {
  const ctx = getIdentity().getSnapshot().context;
  if (ctx.user) return ctx.user.id;
  return ctx.guest ? loadSocketIdentity()?.playerId ?? null : null;
}

function read(owner: string): GameResult[] {
  const raw = storage.readJson<unknown>(keyOf(owner), []);
  return Array.isArray(raw) ? (raw as GameResult[]) : [];
}

/**
 * The history kept before it had an owner (one list per browser) was played by the guest whose
 * identity the device holds: it becomes that guest's.
 */
function adoptUnownedHistory(): void {
  const legacy = storage.readJson<unknown>(STORAGE_KEYS.gameHistory, null);
  if (legacy === null) return;
  const guest = loadSocketIdentity();
  if (guest && Array.isArray(legacy) && read(guest.playerId).length === 0) storage.writeJson(keyOf(guest.playerId), legacy);
  storage.remove(STORAGE_KEYS.gameHistory);
}

function notify(): void {
  for (const l of listeners) l();
}

/** Re-reads when the player changes (sign-in, sign-out, a new guest id from the server). */
function followOwner(): void {
  if (following) return;
  following = true;
  adoptUnownedHistory();
  const ownerChanged = () => {
    if ((cache?.owner ?? null) !== currentOwner()) notify();
  };
  getIdentity().subscribe(ownerChanged);
  getConnection().on('identity', ownerChanged);
}

export function loadHistory(): GameResult[] {
  followOwner();
  const owner = currentOwner();
  if (!owner) return NOBODY;
  if (cache?.owner !== owner) cache = { owner, games: read(owner) };
  return cache.games;
}

function write(owner: string, games: GameResult[]): void {
  storage.writeJson(keyOf(owner), games);
  if (cache?.owner === owner) cache = { owner, games };
  notify();
}

export function addResult(result: GameResult): void {
  const owner = currentOwner();
  if (!owner) return;
  write(owner, [result, ...loadHistory().filter((g) => g.id !== result.id)]);
}

export function clearHistory(): void {
  const owner = currentOwner();
  if (owner) write(owner, []);
}

/** Whether this device holds games played by the guest `guestId` (what the offer to import them needs). */
export function guestHasGames(guestId: string): boolean {
  return read(guestId).length > 0;
}

/** Drops a guest's history from this device: it signed out, or its games went into an account. */
export function forgetHistoryOf(guestId: string): void {
  storage.remove(keyOf(guestId));
  if (cache?.owner === guestId) cache = null;
  notify();
}

export function useHistory(): GameResult[] {
  return useSyncExternalStore(
    (l) => { listeners.add(l); return () => listeners.delete(l); },
    loadHistory,
  );
}

const localListeners = new Set<() => void>();
let localCache: LocalGameRecord[] | null = null;

export function loadLocalGames(): LocalGameRecord[] {
  localCache ??= readLocalGames(storage.readJson<unknown>(STORAGE_KEYS.localGames, []));
  return localCache;
}

/** Keeps a finished Local Play game on this device, newest first. */
export function addLocalGame(result: LocalGameResult, date: Date = new Date()): void {
  localCache = [{ ...result, date: date.toISOString() }, ...loadLocalGames().filter((g) => g.id !== result.id)];
  storage.writeJson(STORAGE_KEYS.localGames, localCache);
  for (const l of localListeners) l();
}

export function useLocalGames(): LocalGameRecord[] {
  return useSyncExternalStore(
    (l) => { localListeners.add(l); return () => localListeners.delete(l); },
    loadLocalGames,
  );
}
