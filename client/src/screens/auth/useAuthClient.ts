import { useEffect, useState } from 'react';
import type { SupabaseClient } from '@supabase/supabase-js';
import { loadAuthClient } from '../../app/auth';

/** The supabase-js client once loaded (undefined while loading, null when unavailable). */
export function useAuthClient(): SupabaseClient | null | undefined {
  const [client, setClient] = useState<SupabaseClient | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void loadAuthClient().then((c) => { if (live) setClient(c); });
    return () => { live = false; };
  }, []);
  return client;
}

export const NOT_CONFIGURED = 'Accounts are not available right now.';

/** The supabase-js client, for an action the player asked for: without one, the action fails saying accounts are not available. */
export async function requireAuthClient(): Promise<SupabaseClient> {
  const client = await loadAuthClient();
  if (!client) throw new Error(NOT_CONFIGURED);
  return client;
}
