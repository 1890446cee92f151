/**
 * kill -9 of the real server process with the accounts on the embedded database (PGlite in
 * DATA_DIR, no DATABASE_URL: what `npm start` runs), each time the moment a client was told that
 * an account write succeeded: a sign-up, a profile change, a rated game's archive row and ratings.
 * After each restart on the same data directory the write is there. What makes it so (each commit
 * reaches the operating system before its answer is sent) is in docs/operations.md, Durability.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_API, ownProfileSchema, publicGameSchema } from '../../machines/protocol/archive';
import type { RatingChangeMsg } from '../../machines/protocol/messages';
import { readJournal } from '../../server/game/journalRecovery';
import { TEN_PLIES } from '../archive/ratedMoves';
import { TestClient, playMoves } from '../server/helpers';
import { killProcess, startProcess, type Proc } from '../server/serverProcess';
import { freshDataDir } from '../support/pgliteTemplate';
import { followLink, inbox, nodeSupabaseClient } from './harness';

const PASSWORD = 'crash-proof-1';

interface Site {
  proc: Proc;
  url: string;
  anonKey: string;
}

/** The server as `npm start` runs it, with accounts on the embedded database in `dataDir`. */
async function startSite(dataDir: string): Promise<Site> {
  const proc = await startProcess({ ACCOUNTS_ENABLED: '1', DATA_DIR: dataDir });
  const { supabaseAnonKey } = (await (await fetch(`${proc.url}/config.json`)).json()) as { supabaseAnonKey: string };
  return { proc, url: proc.url, anonKey: supabaseAnonKey };
}

/**
 * Confirms `email` by the link of the newest mail to it in the development inbox (polled: the
 * mail goes out a moment after the answer that caused it); the link names the server's public
 * address, and the server is asked at its own.
 */
async function confirmByMail(site: Site, email: string): Promise<void> {
  const mailTo = async () => (await inbox(site)).find((m) => m.to === email);
  await expect.poll(mailTo, { timeout: 5_000 }).toBeDefined();
  const link = new URL((await mailTo())!.links[0]!);
  const { status, hash } = await followLink(`${site.url}${link.pathname}${link.search}`);
  expect(status).toBe(303);
  expect(hash.get('access_token')).toBeTruthy();
}

/** A supabase-js client signed in with `email`'s password. */
async function signedIn(site: Site, email: string): Promise<{ c: SupabaseClient; id: string; token: string }> {
  const c = nodeSupabaseClient(site.url, site.anonKey);
  const { data, error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  await c.auth.setSession(data.session);
  return { c, id: data.user.id, token: data.session.access_token };
}

/** Whether the game journal still holds `gameId` as ended and not yet archived (the journal is the archive's outbox). */
function journalHoldsUnarchived(dataDir: string, gameId: string): boolean {
  const text = readFileSync(join(dataDir, 'games', 'journal'), 'utf8');
  return readJournal(text).unarchived.some((e) => e.log.input.gameId === gameId);
}

describe('accounts on the embedded database through kill -9', () => {
  let dataDir: string;
  let site: Site;
  const stamp = Date.now().toString(36).slice(-6);
  const alice = { email: `alice.${stamp}@example.test`, id: '' };
  const bob = { email: `bob.${stamp}@example.test` };

  /** kill -9 now, then the server again on the same data directory. */
  async function crashAndRestart(): Promise<void> {
    await killProcess(site.proc);
    site = await startSite(dataDir);
  }

  beforeAll(async () => {
    dataDir = await freshDataDir('accounts-crash-');
    site = await startSite(dataDir);
  }, 60_000);
  afterAll(async () => {
    if (site) await killProcess(site.proc);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a sign-up answered OK: after the crash its password is the account\'s, and once confirmed it signs in', async () => {
    const { data, error } = await nodeSupabaseClient(site.url, site.anonKey).auth.signUp({ email: alice.email, password: PASSWORD });
    expect(error).toBeNull();
    alice.id = data.user!.id;
    await crashAndRestart();

    // the account and its password are there: without them the answer would be invalid_credentials
    const early = await nodeSupabaseClient(site.url, site.anonKey).auth.signInWithPassword({ email: alice.email, password: PASSWORD });
    expect(early.error?.code).toBe('email_not_confirmed');
    // the confirmation mail may have died with the process (it goes a moment after the answer):
    // the sign-in page's "Resend confirmation email" asks for another
    expect((await nodeSupabaseClient(site.url, site.anonKey).auth.resend({ type: 'signup', email: alice.email })).error).toBeNull();
    await confirmByMail(site, alice.email);
    expect((await signedIn(site, alice.email)).id).toBe(alice.id);
  }, 60_000);

  it('a profile change the API confirmed is there after the crash', async () => {
    const { c } = await signedIn(site, alice.email);
    const created = await c.from('profiles').upsert({ id: alice.id, username: `alice_${stamp}`, first_name: 'Alice' }, { onConflict: 'id' });
    expect(created.status).toBe(201);
    const renamed = await c.from('profiles').update({ username: `alice_new_${stamp}` }).eq('id', alice.id);
    expect(renamed.status).toBe(204);
    await crashAndRestart();

    const { c: after } = await signedIn(site, alice.email);
    const { data, error } = await after.from('profiles').select('username, first_name').eq('id', alice.id).single();
    expect(error).toBeNull();
    expect(data).toEqual({ username: `alice_new_${stamp}`, first_name: 'Alice' });
  }, 60_000);

  it("a rated game's archive row and both ratings are there after the crash, once its players were told", async () => {
    expect((await nodeSupabaseClient(site.url, site.anonKey).auth.signUp({ email: bob.email, password: PASSWORD })).error).toBeNull();
    await confirmByMail(site, bob.email);
    const players = [await signedIn(site, alice.email), await signedIn(site, bob.email)];
    const sockets: TestClient[] = [];
    for (const [i, p] of players.entries()) {
      const socket = await TestClient.connect(site.url);
      socket.send('identifyUser', { userId: p.id, accessToken: p.token });
      await socket.next('identified');
      socket.send('findGame', { username: ['Alice', 'Bob'][i] });
      await socket.next('matchmakingStatus', (m) => m.status === 'queued');
      sockets.push(socket);
    }
    const starts = await Promise.all(sockets.map((s) => s.next('gameStart')));
    const gameId = starts[0]!.gameId as string;
    const whiteIndex = starts[0]!.color === 'white' ? 0 : 1;
    const [white, black] = [sockets[whiteIndex]!, sockets[1 - whiteIndex]!];
    await playMoves({ white, black, gameId }, TEN_PLIES);
    black.send('resign', { gameId });
    const told = (await Promise.all(sockets.map((s) => s.next('ratingChange')))) as RatingChangeMsg[];
    expect(told[1]).toEqual(told[0]);
    // the journal lets the game go once its row is committed (in the turn that told the players):
    // from then on only the database holds the game, so the crash tests the database alone
    await expect.poll(() => journalHoldsUnarchived(dataDir, gameId)).toBe(false);
    await crashAndRestart();

    const game = await fetch(`${site.url}${ARCHIVE_API.game(gameId)}`);
    expect(game.status).toBe(200);
    const row = publicGameSchema.parse(await game.json());
    expect(row).toMatchObject({ id: gameId, rated: true, winner: 'white', reason: 'resignation', moves: TEN_PLIES });
    expect({ white: row.white.rating, black: row.black.rating }).toEqual({ white: told[0]!.white, black: told[0]!.black });
    for (const [i, p] of players.entries()) {
      const color = i === whiteIndex ? 'white' : 'black';
      const me = await fetch(`${site.url}${ARCHIVE_API.me}`, { headers: { Authorization: `Bearer ${p.token}` } });
      const profile = ownProfileSchema.parse(await me.json());
      expect(profile.ratings.map((r) => ({ speed: r.speed, rating: r.rating, games: r.games })), `${color}'s ratings`).toEqual([
        { speed: told[0]!.speed, rating: told[0]![color].after, games: 1 },
      ]);
    }
  }, 60_000);
});
