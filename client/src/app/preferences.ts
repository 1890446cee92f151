/**
 * The player's settings (board, pieces, sound, premoves, move confirmation on a phone, zen mode)
 * as a small store React can watch. Remembered on this device; signed in, also in the account
 * (`user_metadata.preferences`, written through supabase-js), so another device signed in to the
 * same account takes them on when it signs in.
 */
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../machines/client/storage';
import { readPreferences, samePreferences, type PlayPreferences } from '../../../machines/client/preferences';
import { storage } from './storage';

/** Writes to the account wait this long for more changes (the server allows 30 account updates in 5 minutes). */
const ACCOUNT_WRITE_DELAY_MS = 1000;

let current: PlayPreferences = readPreferences(storage.readJson<unknown>(STORAGE_KEYS.playPreferences, null));
const listeners = new Set<() => void>();

/** The stylesheet picks board colours, piece images and zen mode from these attributes of <html>. */
function applyTheme(p: PlayPreferences): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.board = p.board;
  document.documentElement.dataset.pieces = p.pieces;
  document.documentElement.dataset.zen = p.zen ? 'on' : 'off';
}
applyTheme(current);

export function getPreferences(): PlayPreferences {
  return current;
}

function keep(next: PlayPreferences): void {
  current = next;
  storage.writeJson(STORAGE_KEYS.playPreferences, current);
  applyTheme(current);
  for (const l of listeners) l();
}

/** Where a signed-in player's changes go besides this device (set by the app once an account is known). */
let accountWriter: ((p: PlayPreferences) => void) | null = null;
let pendingWrite: ReturnType<typeof setTimeout> | undefined;

export function setPreferences(change: Partial<PlayPreferences>): void {
  keep({ ...current, ...change });
  if (!accountWriter) return;
  const write = accountWriter;
  clearTimeout(pendingWrite);
  pendingWrite = setTimeout(() => write(current), ACCOUNT_WRITE_DELAY_MS);
}

/**
 * The account signed in (or none): its stored preferences, when it has any, replace this device's,
 * and later changes are written to it with `write`.
 */
export function followAccount(stored: unknown, write: ((p: PlayPreferences) => void) | null): void {
  accountWriter = write;
  if (!write || stored === undefined || stored === null) return;
  const fromAccount = readPreferences(stored);
  if (!samePreferences(fromAccount, current)) keep(fromAccount);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePreferences(): PlayPreferences {
  return useSyncExternalStore(subscribe, getPreferences);
}
