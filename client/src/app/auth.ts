/**
 * supabase-js, loaded on demand: only when a session is stored, the URL carries
 * an auth result, or an auth screen needs it. A first visit to `/` never loads it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { getConnection, getIdentity } from './services';
import { forgetHistoryOf } from './history';
import { followAccount } from './preferences';
import type { PlayPreferences } from '../../../machines/client/preferences';
import { clearSocketIdentity, loadSocketIdentity } from './storage';
import type { AuthEventName, AuthUser } from '../../../machines/client/identity';

export const AUTH_STORAGE_KEY = 'chess-site-auth';
export const APP_NAME = 'chess-site';

/** The URL hash as it was when the page loaded (supabase-js clears it after reading). */
export const initialHash = typeof location === 'undefined' ? '' : location.hash;

let clientPromise: Promise<SupabaseClient | null> | null = null;

export function hasStoredSession(): boolean {
  try {
    return localStorage.getItem(AUTH_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

export function urlCarriesAuthResult(): boolean {
  return /(^|[#&])(access_token|error|error_description)=/.test(initialHash);
}

export function loadAuthClient(): Promise<SupabaseClient | null> {
  clientPromise ??= (async () => {
    try {
      const res = await fetch('/config.json');
      const cfg = (res.ok ? await res.json() : {}) as { supabaseUrl?: string; supabaseAnonKey?: string };
      if (!cfg.supabaseUrl || !cfg.supabaseAnonKey) {
        throw new Error('Missing backend configuration: the Supabase URL and anon key must be provided in the environment files (SUPABASE_URL, SUPABASE_ANON_KEY).');
      }
      const { createClient } = await import('@supabase/supabase-js');
      const client = createClient(cfg.supabaseUrl, cfg.supabaseAnonKey, {
        auth: { storageKey: AUTH_STORAGE_KEY, persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'implicit' },
        global: { headers: { 'x-application-name': APP_NAME } },
      });
      client.auth.onAuthStateChange((event, session) => {
        getIdentity().send({
          type: 'AUTH_CHANGED',
          event: event as AuthEventName,
          user: (session?.user as AuthUser | undefined) ?? null,
          accessToken: session?.access_token ?? null,
        });
      });
      return client;
    } catch (err) {
      getIdentity().send({ type: 'CONFIG_MISSING', message: err instanceof Error ? err.message : String(err) });
      return null;
    }
  })();
  return clientPromise;
}

/** At start-up: load the auth client only if it can matter, else say "no session" at once. */
export function resolveInitialIdentity(): void {
  const authPaths = ['/login', '/register', '/forgot-password', '/reset-password', '/auth/callback', '/profile-setup'];
  if (hasStoredSession() || urlCarriesAuthResult() || authPaths.includes(location.pathname)) {
    void loadAuthClient();
  } else {
    getIdentity().send({ type: 'AUTH_CHANGED', event: 'NO_BACKEND_SESSION', user: null });
  }
}

export function errorMessage(err: unknown, fallback: string): string {
  if (err && typeof err === 'object' && 'message' in err && typeof (err as { message: unknown }).message === 'string' && (err as { message: string }).message) {
    return (err as { message: string }).message;
  }
  return fallback;
}

/**
 * Sign out: clear the guest, set none, end the session (docs/product.md, Identity and storage);
 * the caller goes to /login. The device forgets the guest identity it held and that guest's
 * history: whoever plays next on this browser is a new guest, with a new id and no games.
 */
export async function signOut(): Promise<void> {
  const guest = loadSocketIdentity();
  clearSocketIdentity();
  if (guest) forgetHistoryOf(guest.playerId);
  getIdentity().send({ type: 'SIGN_OUT' });
  // a fresh socket as a new guest: the old one is bound to the account (or the old guest) on the server
  getConnection().send({ type: 'RECONNECT', forgetIdentity: true });
  if (clientPromise || hasStoredSession()) {
    const client = await loadAuthClient();
    try {
      await client?.auth.signOut();
    } catch (err) {
      console.error('sign out failed', err);
    }
  }
}

/** Saves the settings in the signed-in account (`user_metadata.preferences`). */
async function writeAccountPreferences(preferences: PlayPreferences): Promise<void> {
  const client = await loadAuthClient();
  const { error } = (await client?.auth.updateUser({ data: { preferences } })) ?? { error: null };
  if (error) console.error('could not save the settings in the account', error);
}

/**
 * A signed-in player's settings are the account's: at sign-in the account's (when it has any)
 * replace the device's, and every change is saved in the account too.
 */
export function followAccountPreferences(): void {
  let userId: string | null = null;
  getIdentity().subscribe((s) => {
    const user = s.context.user;
    if ((user?.id ?? null) === userId) return;
    userId = user?.id ?? null;
    followAccount(user?.user_metadata?.preferences, user ? (p) => void writeAccountPreferences(p) : null);
  });
}
