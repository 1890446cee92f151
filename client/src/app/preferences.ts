/** The game screen's remembered choices (board, pieces, sound) as a small store React can watch. */
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../machines/client/storage';
import { readPreferences, type PlayPreferences } from '../../../machines/client/preferences';
import { storage } from './storage';

let current: PlayPreferences = readPreferences(storage.readJson<unknown>(STORAGE_KEYS.playPreferences, null));
const listeners = new Set<() => void>();

/** The stylesheet picks board colours and piece images from these attributes of <html>. */
function applyTheme(p: PlayPreferences): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.board = p.board;
  document.documentElement.dataset.pieces = p.pieces;
}
applyTheme(current);

export function getPreferences(): PlayPreferences {
  return current;
}

export function setPreferences(change: Partial<PlayPreferences>): void {
  current = { ...current, ...change };
  storage.writeJson(STORAGE_KEYS.playPreferences, current);
  applyTheme(current);
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePreferences(): PlayPreferences {
  return useSyncExternalStore(subscribe, getPreferences);
}
