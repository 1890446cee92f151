/** Browser notifications: only when supported, permitted and not opted out (docs/product.md, Constants). */
import { loadNotificationSettings } from './storage';

export const VIBRATION_PATTERN = [200, 100, 200];

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function canNotify(): boolean {
  return notificationsSupported() && Notification.permission === 'granted' && !loadNotificationSettings().optedOut;
}

export function showNotification(title: string, body: string, onlyWhenHidden = false): void {
  if (onlyWhenHidden && typeof document !== 'undefined' && document.visibilityState !== 'hidden') return;
  if (!canNotify()) return;
  try {
    new Notification(title, { body, icon: '/favicon.svg', vibrate: VIBRATION_PATTERN } as NotificationOptions);
  } catch (err) {
    console.error('notification failed', err);
  }
}

/** A failed permission request returns false. */
export async function requestNotificationPermission(): Promise<boolean> {
  try {
    if (!notificationsSupported()) return false;
    return (await Notification.requestPermission()) === 'granted';
  } catch (err) {
    console.error('notification permission request failed', err);
    return false;
  }
}
