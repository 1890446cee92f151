/**
 * Who holds a username on a hosted Supabase project (hosted mode): the project's `profiles`
 * read through its PostgREST with the anon key, which may read the `username` column of every
 * row (as this site's own /rest/v1/profiles does). Only the username comes back: anon cannot
 * read account ids.
 */
import { createClient, type WebSocketLike } from '@supabase/supabase-js';
import { usernameLookupPattern } from '../../machines/client/username';

/** An account as a username look-up finds it: its username as the account spells it. */
export interface AccountNamed {
  username: string;
}

/**
 * supabase-js builds a realtime client with every client, and Node 20 has no WebSocket of its
 * own; the server only reads profiles, so opening realtime is refused rather than shipping a
 * WebSocket library for it.
 */
class RealtimeNotUsed implements WebSocketLike {
  declare readonly CONNECTING: number;
  declare readonly OPEN: number;
  declare readonly CLOSING: number;
  declare readonly CLOSED: number;
  declare readonly readyState: number;
  declare readonly url: string;
  declare readonly protocol: string;
  declare close: WebSocketLike['close'];
  declare send: WebSocketLike['send'];
  declare onopen: WebSocketLike['onopen'];
  declare onmessage: WebSocketLike['onmessage'];
  declare onclose: WebSocketLike['onclose'];
  declare onerror: WebSocketLike['onerror'];
  declare addEventListener: WebSocketLike['addEventListener'];
  declare removeEventListener: WebSocketLike['removeEventListener'];
  constructor() {
    throw new Error('the server does not use Supabase realtime');
  }
}

/**
 * The account of the hosted project at `supabaseUrl` whose username is `username` in any letter
 * case; null when none is. One request, given up after `timeoutMs`: it throws when the project
 * does not answer (network, an error status, the timeout), so that is never taken for "nobody
 * is called that".
 */
export function hostedAccountByUsername(supabaseUrl: string, anonKey: string, timeoutMs: number): (username: string) => Promise<AccountNamed | null> {
  const supabase = createClient(supabaseUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: RealtimeNotUsed },
  });
  return async (username) => {
    const { data, error } = await supabase
      .from('profiles')
      .select('username')
      .ilike('username', usernameLookupPattern(username))
      .limit(1)
      // one attempt (supabase-js would retry a failed GET for seconds): the player is told to try again
      .retry(false)
      .abortSignal(AbortSignal.timeout(timeoutMs))
      .overrideTypes<AccountNamed[], { merge: false }>();
    if (error) throw new Error(`the hosted project did not answer a username look-up: ${error.message}`);
    return data[0] ?? null;
  };
}
