/**
 * A challenge by username on the real server with the real accounts module (PGlite): as on
 * lichess, a username no account holds is refused at once with the reason and nothing is made;
 * a username in other letters than its account's reaches that account, named as it spells it;
 * and while the accounts database does not answer, no challenge by username is made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../machines/protocol/messages';
import { startAccountsSite, type AccountsSite } from '../archive/accountsSite';
import type { Msg, TestClient } from './helpers';

const CASUAL = { options: { timeControl: { initial: 300, increment: 3 }, rated: false, color: 'white' } } as const;
const challengeOf = (m: Msg) => m.challenge as Challenge;

/** Nothing reaches `c` about a challenge (the lobby is swept every 20 ms meanwhile). */
const noChallenge = async (c: TestClient) => expect(await c.gets('challenge', 300)).toBe(false);

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
    ann.send('createChallenge', { ...CASUAL, to: 'cd_ben' });
    const err = await ann.next('error');
    expect(err.code).toBe('unavailable');
    expect(String(err.message)).toMatch(/cannot be reached right now/);
    await noChallenge(ben);
    await noChallenge(ann);
    await Promise.all([ann.close(), ben.close()]);
  });
});
