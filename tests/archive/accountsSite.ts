/**
 * The real server with the real accounts module on a fresh PGlite data directory, and players
 * signed in as a user does: a supabase-js sign-up, a username, then a socket bound to the account.
 */
import { rmSync } from 'node:fs';
import pino from 'pino';
import type { RunningServer, StartServerOptions } from '../../server/app';
import { createAccounts, type AccountsModule } from '../../server/accounts';
import { nodeSupabaseClient } from '../accounts/harness';
import { TestClient, startTestServer } from '../server/helpers';
import { freshDataDir } from '../support/pgliteTemplate';

export interface AccountsSite {
  server: RunningServer;
  accounts: AccountsModule;
  /**
   * A new account with this username (null: none chosen yet), in its profile and, as the profile
   * page also writes it, in its user metadata; and an access token of it.
   */
  signedUp(username: string | null): Promise<{ userId: string; accessToken: string }>;
  /** A new account (signedUp) and a socket identified as it, on the server at `url` (default: this site's). */
  signedIn(username: string | null, url?: string): Promise<TestClient>;
  close(): Promise<void>;
}

export async function startAccountsSite(dataDirPrefix: string, opts: StartServerOptions = {}): Promise<AccountsSite> {
  const dataDir = await freshDataDir(dataDirPrefix);
  const accounts = await createAccounts({ logger: pino({ level: 'silent' }), dataDir, siteUrl: 'http://127.0.0.1', autoconfirm: true });
  const server = await startTestServer({ accounts, ...opts });
  const signedUp: AccountsSite['signedUp'] = async (username) => {
    const c = nodeSupabaseClient(server.url, accounts.info.anonKey);
    const { data, error } = await c.auth.signUp({
      email: `${username ?? 'unnamed'}.${Date.now()}@example.test`,
      password: 'secret123',
      ...(username !== null ? { options: { data: { username } } } : {}),
    });
    if (error) throw error;
    await c.auth.setSession(data.session!);
    if (username !== null) {
      const up = await c.from('profiles').upsert({ id: data.user!.id, username }, { onConflict: 'id' });
      if (up.error) throw up.error;
    }
    return { userId: data.user!.id, accessToken: data.session!.access_token };
  };
  return {
    server,
    accounts,
    signedUp,
    async signedIn(username, url = server.url) {
      const { userId, accessToken } = await signedUp(username);
      const socket = await TestClient.connect(url);
      socket.send('identifyUser', { userId, accessToken });
      await socket.next('identified');
      return socket;
    },
    async close() {
      await server.close();
      await accounts.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
