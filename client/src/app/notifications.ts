/** Browser notifications: only when supported, permitted and not opted out (docs/product.md, Constants). */
import { loadNotificationSettings } from './storage';

export const VIBRATION_PATTERN = [200, 100, 200];

/**
 * What the site notifies, and nothing else (the game screen's `notify` events,
 * machines/client/multiplayerGame.ts): the pages that offer notifications promise this list.
 */
export const NOTIFIED_EVENTS = [
  'An opponent is found and your game starts',
  "Your opponent has moved and it's your turn",
  'Your opponent offers a draw',
  'Your game ends',
] as const;

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
