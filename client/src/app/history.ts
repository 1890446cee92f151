/** The local game history (docs/product.md, Identity and storage), observable from React. */
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../machines/client/storage';
import type { GameResult } from '../../../machines/client/outcome';
import { storage } from './storage';

const listeners = new Set<() => void>();
let cache: GameResult[] | null = null;

export function loadHistory(): GameResult[] {
  if (!cache) {
    const raw = storage.readJson<unknown>(STORAGE_KEYS.gameHistory, []);
    cache = Array.isArray(raw) ? (raw as GameResult[]) : [];
  }
  return cache;
}

function changed(next: GameResult[]) {
  cache = next;
  for (const l of listeners) l();
}

export function addResult(result: GameResult): void {
  const next = [result, ...loadHistory().filter((g) => g.id !== result.id)];
  storage.writeJson(STORAGE_KEYS.gameHistory, next);
  changed(next);
}

export function clearHistory(): void {
  storage.writeJson(STORAGE_KEYS.gameHistory, []);
  changed([]);
}

export function useHistory(): GameResult[] {
  return useSyncExternalStore(
    (l) => { listeners.add(l); return () => listeners.delete(l); },
    loadHistory,
  );
}
