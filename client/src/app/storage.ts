/** Browser storage for the app: localStorage behind SafeStorage (failures only logged). */
import { SafeStorage, STORAGE_KEYS } from '../../../machines/client/storage';
import { isGuestRecord, type GuestRecord } from '../../../machines/client/nickname';
import type { SocketIdentity } from '../../../machines/client/connection';

export const storage = new SafeStorage(() => (typeof localStorage === 'undefined' ? undefined : localStorage));

export function loadGuest(): GuestRecord | null {
  const g = storage.readJson<unknown>(STORAGE_KEYS.guest, null);
  return isGuestRecord(g) ? g : null;
}
export const saveGuest = (g: GuestRecord) => storage.writeJson(STORAGE_KEYS.guest, g);
export const clearGuest = () => storage.remove(STORAGE_KEYS.guest);

export function loadSocketIdentity(): SocketIdentity | null {
  const v = storage.readJson<SocketIdentity | null>(STORAGE_KEYS.socketIdentity, null);
  return v && typeof v.playerId === 'string' && typeof v.secret === 'string' ? v : null;
}
export const saveSocketIdentity = (v: SocketIdentity) => storage.writeJson(STORAGE_KEYS.socketIdentity, v);
export const clearSocketIdentity = () => storage.remove(STORAGE_KEYS.socketIdentity);

/** Whether the offer to import guest `guestId`'s games into account `accountId` was answered on this device. */
export function guestImportAnswered(accountId: string, guestId: string): boolean {
  const answered = storage.readJson<unknown>(STORAGE_KEYS.guestImportAnswered, []);
  return Array.isArray(answered) && answered.includes(`${accountId}:${guestId}`);
}
export function markGuestImportAnswered(accountId: string, guestId: string): void {
  const answered = storage.readJson<unknown>(STORAGE_KEYS.guestImportAnswered, []);
  const list = Array.isArray(answered) ? answered.filter((v): v is string => typeof v === 'string') : [];
  storage.writeJson(STORAGE_KEYS.guestImportAnswered, [...list, `${accountId}:${guestId}`].slice(-20));
}

export interface NotificationSettings { optedOut: boolean }
export const loadNotificationSettings = (): NotificationSettings =>
  ({ optedOut: !!storage.readJson<NotificationSettings | null>(STORAGE_KEYS.notificationSettings, null)?.optedOut });
export const saveNotificationSettings = (s: NotificationSettings) => storage.writeJson(STORAGE_KEYS.notificationSettings, s);

export const hasSeenNotificationPage = () => storage.readJson<boolean>(STORAGE_KEYS.hasSeenNotificationPage, false) === true;
export const markNotificationPageSeen = () => storage.writeJson(STORAGE_KEYS.hasSeenNotificationPage, true);
