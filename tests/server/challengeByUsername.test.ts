/**
 * A challenge by username on the real server with the real accounts module (PGlite): as on
 * lichess, a username no account holds is refused at once with the reason and nothing is made;
 * a username in other letters than its account's reaches that account, named as it spells it;
 * and while the accounts database does not answer, no challenge by username is made. The same
 * holds in hosted mode (SUPABASE_URL + SUPABASE_ANON_KEY), the "hosted project" there being a
 * second real server with the embedded accounts, which serves /auth/v1 and /rest/v1/profiles
 * as a Supabase project does.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../machines/protocol/messages';
import type { RunningServer } from '../../server/app';
import { hostedAccountByUsername } from '../../server/accounts/hosted-usernames';
import { loadConfig } from '../../server/config';
import { loadAccounts } from '../../server/wiring';
import { startAccountsSite, type AccountsSite } from '../archive/accountsSite';
import { startTestServer, type Msg, type TestClient } from './helpers';

const CASUAL = { options: { timeControl: { initial: 300, increment: 3 }, rated: false, color: 'white' } } as const;
const challengeOf = (m: Msg) => m.challenge as Challenge;

/** Nothing reaches `c` about a challenge (the lobby is swept every 20 ms meanwhile). */
const noChallenge = async (c: TestClient) => expect(await c.gets('challenge', 300)).toBe(false);

/** A challenge from `c` to `to` is refused because the accounts cannot be reached, and none is made. */
async function refusedAsUnreachable(c: TestClient, to: string): Promise<void> {
  c.send('createChallenge', { ...CASUAL, to });
  const err = await c.next('error');
  expect(err.code).toBe('unavailable');
  expect(String(err.message)).toMatch(/cannot be reached right now/);
  await noChallenge(c);
}

/** A site of its own for the tests of the describe block this is called in. */
function siteForBlock(prefix: string): () => AccountsSite {
  let site: AccountsSite | undefined;
  beforeAll(async () => {
    site = await startAccountsSite(prefix, { lobbySweepMs: 20 });
  }, 120_000);
  afterAll(async () => site?.close());
  return () => {
    if (!site) throw new Error('the site did not start');
    return site;
  };
}

describe('challenges by username', () => {
  const site = siteForBlock('challenge-username-');

  it('refuses at once a challenge to a username no account holds, saying so; nobody who takes that name later is challenged', async () => {
    const ann = await site().signedIn('cu_ann');
    ann.send('createChallenge', { ...CASUAL, to: 'cu_dan' });
    const err = await ann.next('error');
    expect(err).toMatchObject({ code: 'invalid_options', message: 'No player is called cu_dan.' });
    await noChallenge(ann);
    // an account that takes the name afterwards finds no challenge waiting for it
    const dan = await site().signedIn('cu_dan');
    await noChallenge(dan);
    await Promise.all([ann.close(), dan.close()]);
  });

  it('reaches the account whose username matches in other letters, naming it as the account spells it', async () => {
    const ann = await site().signedIn('cu_ann2');
    const ben = await site().signedIn('cu_Ben');
    ann.send('createChallenge', { ...CASUAL, to: 'CU_BEN' });
    const made = challengeOf(await ann.next('challenge'));
    expect(made).toMatchObject({ status: 'created', to: 'cu_Ben' });
    expect(challengeOf(await ben.next('challenge'))).toMatchObject({ id: made.id, to: 'cu_Ben' });
    ben.send('acceptChallenge', { challengeId: made.id });
    const [a, b] = await Promise.all([ann.next('gameStart'), ben.next('gameStart')]);
    expect(a.gameId).toBe(b.gameId);
    await Promise.all([ann.close(), ben.close()]);
  });
});

describe('challenges by username while the accounts database does not answer', () => {
  const site = siteForBlock('challenge-username-down-');

  it('makes none, and tells the challenger the accounts cannot be reached', async () => {
    const ann = await site().signedIn('cd_ann');
    const ben = await site().signedIn('cd_ben');
    // the players are signed in already; then the database goes away
    await site().accounts.close();
    await refusedAsUnreachable(ann, 'cd_ben');
    await noChallenge(ben);
    await Promise.all([ann.close(), ben.close()]);
  });
});

describe('challenges by username with hosted accounts', () => {
  const project = siteForBlock('challenge-username-project-');
  let hosted: RunningServer | undefined;
  beforeAll(async () => {
    const env = { SUPABASE_URL: project().server.url, SUPABASE_ANON_KEY: project().accounts.info.anonKey };
    const accounts = await loadAccounts(loadConfig(env), pino({ level: 'silent' }));
    hosted = await startTestServer({ accounts, lobbySweepMs: 20 });
  }, 120_000);
  afterAll(async () => hosted?.close());
  /** A new account of the project, and a socket identified as it on the hosted-mode server. */
  const signedIn = (username: string) => project().signedIn(username, hosted!.url);

  it('reaches the project\'s account whose username matches in other letters, naming it as the account spells it', async () => {
    // a name `_` as a wildcard would match too, made first
    await project().signedUp('hoxben');
    const ben = await signedIn('Ho_Ben');
    const ann = await signedIn('ho_ann');
    ann.send('createChallenge', { ...CASUAL, to: 'HO_BEN' });
    const made = challengeOf(await ann.next('challenge'));
    expect(made).toMatchObject({ status: 'created', to: 'Ho_Ben' });
    expect(challengeOf(await ben.next('challenge'))).toMatchObject({ id: made.id, to: 'Ho_Ben' });
    await Promise.all([ann.close(), ben.close()]);
  });

  it('refuses at once a challenge to a username no account of the project holds', async () => {
    const ann = await signedIn('ho_ann2');
    ann.send('createChallenge', { ...CASUAL, to: 'ho_dan' });
    expect(await ann.next('error')).toMatchObject({ code: 'invalid_options', message: 'No player is called ho_dan.' });
    await noChallenge(ann);
    await ann.close();
  });

  it('gives up a look-up the project does not answer within the timeout, as not answered', async () => {
    // a project that takes the connection and never replies
    const held = new Set<Socket>();
    const silent = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const lookUp = hostedAccountByUsername(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, project().accounts.info.anonKey, 200);
    await expect(lookUp('ho_ben')).rejects.toThrow(/did not answer/);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('makes none while the project does not answer, and tells the challenger the accounts cannot be reached', async () => {
    const ann = await signedIn('ho_ann3');
    await project().server.close();
    await refusedAsUnreachable(ann, 'ho_ben');
    await ann.close();
  });
});
