/**
 * Challenges on the real server, as players meet them: one creates a challenge and shares its
 * link; whoever opens it sees who challenges them and with what, and accepts (both go to the game)
 * or declines (the creator sees why); the creator may cancel it. A challenge by username reaches
 * the signed-in player on any page. It expires once its creator has been gone 20 s (the lobby's
 * wall clock is the test's), each player has a limited number open, and a challenge outlives a
 * restart of the server that holds it; while its file cannot be written, challenges are refused
 * (none made or taken that a restart would not have), and an acceptance that cannot be kept
 * starts no game.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer, StartServerOptions } from '../../server/app';
import type { Challenge } from '../../machines/protocol/messages';
import { LOBBY_RULES } from '../../machines/lobby/rules';
import { challengesFile } from '../../server/lobby/records';
import type { SnapshotDisk } from '../../server/lobby/snapshotFile';
import { NODE_REPLACE_STEPS } from '../../server/storage/replaceFile';
import { CHALLENGE_TEXT } from '../../server/challenge/challenges';
import { TestClient, useServerPerTest, type Msg } from './helpers';
import { tokenAccounts } from './tokenAccounts';

const RAPID = { initial: 600, increment: 5 };
const CASUAL_BLACK = { timeControl: RAPID, rated: false, color: 'black' } as const;

const site = useServerPerTest();
let wall = 1_700_000_000_000;
let dir = '';
afterEach(async () => {
  // the server first: it may be writing the challenges' file
  await site.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function start(opts: StartServerOptions = {}): Promise<RunningServer> {
  return site.start({ lobbyClock: () => wall, lobbySweepMs: 20, ...opts });
}

async function player(guest: { playerId: string; secret: string } | null = null): Promise<TestClient> {
  return site.connect(guest);
}

const challengeOf = (m: Msg) => m.challenge as Challenge;
/** The next `challenge` message about `id` (any, when none) in status `status` (any, when none). */
const update = (c: TestClient, status?: Challenge['status'], id?: string) =>
  c.next('challenge', (m) => (!status || challengeOf(m).status === status) && (!id || challengeOf(m).id === id)).then(challengeOf);

async function created(by: TestClient, payload: Record<string, unknown> = { options: CASUAL_BLACK, username: 'Ann' }): Promise<Challenge> {
  by.send('createChallenge', payload);
  return update(by, 'created');
}

describe('challenges', () => {
  it('shows whoever opens the link who challenges them and with what; accepted, both go to the game and the creator sees it', async () => {
    await start();
    const ann = await player();
    const ben = await player();
    const c = await created(ann);
    expect(c).toMatchObject({ by: { id: ann.playerId, name: 'Ann', guest: true }, timeControl: RAPID, rated: false, color: 'black', status: 'created' });
    ben.send('watchChallenge', { challengeId: c.id });
    expect(await update(ben, 'created')).toEqual(c);
    ben.send('acceptChallenge', { challengeId: c.id, username: 'Ben' });
    const [a, b] = await Promise.all([ann.next('gameStart'), ben.next('gameStart')]);
    expect(a.gameId).toBe(b.gameId);
    expect(a).toMatchObject({ color: 'black', opponentName: 'Ben', timeControl: RAPID });
    expect(b).toMatchObject({ color: 'white', opponentName: 'Ann', timeControl: RAPID });
    expect(await update(ann, 'accepted')).toMatchObject({ id: c.id, gameId: a.gameId });
    // accepted once: the link now says so, and accepts no one else
    const cat = await player();
    cat.send('acceptChallenge', { challengeId: c.id });
    expect((await cat.next('error')).code).toBe('challenge_unavailable');
  });

  it('tells the creator a decline and its reason; a cancelled challenge tells whoever opened it, and accepts nobody', async () => {
    await start();
    const ann = await player();
    const ben = await player();
    const first = await created(ann);
    ben.send('watchChallenge', { challengeId: first.id });
    await update(ben, 'created');
    ben.send('declineChallenge', { challengeId: first.id, reason: 'tooSlow' });
    expect(await update(ann, 'declined', first.id)).toMatchObject({ declineReason: 'tooSlow' });

    const second = await created(ann);
    ben.send('watchChallenge', { challengeId: second.id });
    await update(ben, 'created', second.id);
    ben.send('cancelChallenge', { challengeId: second.id });
    expect((await ben.next('error')).code).toBe('challenge_unavailable');
    ann.send('cancelChallenge', { challengeId: second.id });
    await update(ben, 'canceled', second.id);
    ben.send('acceptChallenge', { challengeId: second.id });
    expect((await ben.next('error')).code).toBe('challenge_unavailable');
    expect(site.server.stats().liveGames).toBe(0);
  });

  it('expires a challenge once its creator has been gone 20 s, not while they are connected', async () => {
    await start();
    const ann = await player();
    const ben = await player();
    const c = await created(ann);
    ben.send('watchChallenge', { challengeId: c.id });
    await update(ben, 'created');
    // connected: seen at every sweep, however long it waits
    wall += 5 * LOBBY_RULES.challengeUnseenMs;
    await ben.roundTrip();
    expect(await ben.gets('challenge', 200)).toBe(false);
    await ann.close();
    wall += LOBBY_RULES.challengeUnseenMs - 1_000;
    expect(await ben.gets('challenge', 200)).toBe(false);
    wall += 2_000;
    await update(ben, 'expired', c.id);
    ben.send('acceptChallenge', { challengeId: c.id });
    expect((await ben.next('error')).code).toBe('challenge_unavailable');
  });

  it(`limits a player to ${LOBBY_RULES.maxOpenChallenges} open challenges; one more is refused with the reason, and a cancelled one makes room`, async () => {
    await start();
    const ann = await player();
    const open: Challenge[] = [];
    for (let i = 0; i < LOBBY_RULES.maxOpenChallenges; i++) open.push(await created(ann));
    ann.send('createChallenge', { options: CASUAL_BLACK });
    const err = await ann.next('error');
    expect(err.code).toBe('challenge_limit');
    expect(String(err.message)).toMatch(/open challenges/);
    ann.send('cancelChallenge', { challengeId: open[0].id });
    await update(ann, 'canceled');
    await created(ann);
  });

  it('reaches a signed-in player challenged by username on any page (signed in then or later); a new challenge to them replaces the previous one', async () => {
    const { accounts, sign } = await tokenAccounts();
    await start({ accounts });
    const signIn = async (sub: string, username: string) => {
      const c = await player();
      c.send('identifyUser', { userId: sub, accessToken: await sign({ sub, user_metadata: { username } }) });
      await c.next('identified');
      return c;
    };
    const ann = await signIn('11111111-1111-4111-8111-111111111111', 'ann');
    const ben = await signIn('22222222-2222-4222-8222-222222222222', 'Ben');
    const guest = await player();
    guest.send('createChallenge', { options: CASUAL_BLACK, to: 'ben' });
    expect((await guest.next('error')).code).toBe('not_signed_in');
    ann.send('createChallenge', { options: { ...CASUAL_BLACK, rated: true }, to: 'ann' });
    expect((await ann.next('error')).code).toBe('invalid_options');

    const first = await created(ann, { options: { ...CASUAL_BLACK, rated: true }, to: 'ben' });
    // Ben watches nothing: the notice comes to him as he is
    expect(await update(ben, 'created', first.id)).toMatchObject({ by: { name: 'ann', guest: false }, to: 'ben', rated: true });
    const second = await created(ann, { options: CASUAL_BLACK, to: 'BEN' });
    expect(await update(ben, 'canceled', first.id)).toBeTruthy();
    await update(ben, 'created', second.id);
    // it is Ben's to answer, nobody else's
    guest.send('acceptChallenge', { challengeId: second.id });
    expect((await guest.next('error')).code).toBe('challenge_unavailable');
    ben.send('acceptChallenge', { challengeId: second.id });
    const [a, b] = await Promise.all([ann.next('gameStart'), ben.next('gameStart')]);
    expect(a.gameId).toBe(b.gameId);

    // a player challenged while away is told once signed in, on any page
    const third = await created(await signIn('33333333-3333-4333-8333-333333333333', 'cat'), { options: CASUAL_BLACK, to: 'dan' });
    const dan = await signIn('44444444-4444-4444-8444-444444444444', 'dan');
    expect(await update(dan, 'created', third.id)).toMatchObject({ to: 'dan' });
    expect(await dan.gets('challenge', 200)).toBe(false);
  });

  it('outlives a restart of the server that holds it: its creator comes back and it is accepted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'challenges-'));
    await start({ durableDir: dir, serverSecret: 's'.repeat(32) });
    const ann = await player();
    const c = await created(ann);
    const annId = { playerId: ann.playerId, secret: ann.secret };
    await site.stop();
    await start({ durableDir: dir, serverSecret: 's'.repeat(32) });
    const back = await player(annId);
    expect(back.playerId).toBe(annId.playerId);
    const ben = await player();
    ben.send('watchChallenge', { challengeId: c.id });
    expect(await update(ben, 'created')).toEqual(c);
    ben.send('acceptChallenge', { challengeId: c.id });
    const [a, b] = await Promise.all([back.next('gameStart'), ben.next('gameStart')]);
    expect(a.gameId).toBe(b.gameId);
    expect(a.color).toBe('black');
  });

  it('two challenges to one player sent in one breath, while the file is being written, leave one open: the second', async () => {
    dir = mkdtempSync(join(tmpdir(), 'challenges-'));
    const { accounts, sign } = await tokenAccounts();
    await start({ durableDir: dir, serverSecret: 's'.repeat(32), accounts });
    const ann = await player();
    ann.send('identifyUser', { userId: '11111111-1111-4111-8111-111111111111', accessToken: await sign({ sub: '11111111-1111-4111-8111-111111111111', user_metadata: { username: 'ann' } }) });
    await ann.next('identified');
    const blitz = { ...CASUAL_BLACK, timeControl: { initial: 180, increment: 2 } };
    ann.sendTogether([
      { type: 'createChallenge', payload: { options: CASUAL_BLACK, to: 'dan' } },
      { type: 'createChallenge', payload: { options: blitz, to: 'dan' } },
    ]);
    const first = await update(ann, 'created');
    const second = await update(ann, 'created');
    expect(second.timeControl).toEqual(blitz.timeControl);
    expect(await update(ann, 'canceled', first.id)).toMatchObject({ id: first.id });
    // each was announced once the file held it
    const open = (JSON.parse(readFileSync(challengesFile(join(dir, 'lobby')), 'utf8')) as Challenge[]).filter((c) => c.status === 'created');
    expect(open.map((c) => c.id)).toEqual([second.id]);
  });

  it('an acceptance its file cannot keep starts no game: the accepter is told, the challenge stays open, and the next acceptance starts the game it names', async () => {
    dir = mkdtempSync(join(tmpdir(), 'challenges-'));
    // the disk refuses the one write that records an acceptance, while `refusing`
    let refusing = true;
    const disk: SnapshotDisk = {
      writeSynced: (file, data) =>
        refusing && String(data).includes('"status":"accepted"') ? Promise.reject(new Error('EIO: i/o error, write')) : NODE_REPLACE_STEPS.writeSynced(file, data),
      replace: NODE_REPLACE_STEPS.replace,
    };
    await start({ durableDir: dir, challengesDisk: disk });
    const ann = await player();
    const ben = await player();
    const c = await created(ann);

    ben.send('acceptChallenge', { challengeId: c.id });
    expect(await ben.next('error')).toMatchObject({ code: 'unavailable', message: CHALLENGE_TEXT.unreachable });
    refusing = false;
    // nothing started: Ben may accept again, and that game is the one the challenge names
    ben.send('acceptChallenge', { challengeId: c.id });
    const [a, b] = await Promise.all([ann.next('gameStart'), ben.next('gameStart')]);
    expect(a.gameId).toBe(b.gameId);
    expect(await update(ann, 'accepted')).toMatchObject({ id: c.id, gameId: a.gameId });
    expect([...ann.received, ...ben.received].filter((m) => m.type === 'gameStart')).toHaveLength(2);
    expect(ben.received.filter((m) => m.type === 'error')).toHaveLength(1);
  });

  it('while its file cannot be written, a challenge made or accepted is refused with the reason and kept as it was; once it can, the next is kept through a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'challenges-'));
    const { accounts, sign } = await tokenAccounts();
    const opts = { durableDir: dir, serverSecret: 's'.repeat(32), accounts };
    await start(opts);
    const signIn = async (sub: string, username: string, guest: { playerId: string; secret: string } | null = null) => {
      const c = await player(guest);
      c.send('identifyUser', { userId: sub, accessToken: await sign({ sub, user_metadata: { username } }) });
      await c.next('identified');
      return c;
    };
    const ANN = '11111111-1111-4111-8111-111111111111';
    const DAN = '44444444-4444-4444-8444-444444444444';
    const ann = await signIn(ANN, 'ann');
    const dan = await signIn(DAN, 'dan');
    // the disk fails: the challenges' new version cannot be written where it is written first
    const tmp = challengesFile(join(dir, 'lobby')) + '.tmp';
    const diskFails = () => mkdirSync(tmp);
    const diskWorks = () => rmSync(tmp, { recursive: true });
    const refusal = { code: 'unavailable', message: CHALLENGE_TEXT.unreachable };

    diskFails();
    ann.send('createChallenge', { options: CASUAL_BLACK, to: 'dan' });
    expect(await ann.next('error')).toMatchObject(refusal);
    diskWorks();
    // the refused challenge is nowhere: a new one to Dan replaces nothing, and is the first Dan hears of
    const kept = await created(ann, { options: CASUAL_BLACK, to: 'dan' });
    expect(await dan.next('challenge').then(challengeOf)).toEqual(kept);

    diskFails();
    dan.send('acceptChallenge', { challengeId: kept.id });
    expect(await dan.next('error')).toMatchObject(refusal);
    diskWorks();
    expect([...ann.received, ...dan.received].filter((m) => m.type === 'gameStart' || (m.type === 'challenge' && challengeOf(m).id !== kept.id))).toEqual([]);

    // the open challenge outlives a restart, and is accepted
    const annId = { playerId: ann.playerId, secret: ann.secret };
    const danId = { playerId: dan.playerId, secret: dan.secret };
    await site.stop();
    await start(opts);
    const annBack = await signIn(ANN, 'ann', annId);
    const danBack = await signIn(DAN, 'dan', danId);
    danBack.send('watchChallenge', { challengeId: kept.id });
    expect(await update(danBack, 'created', kept.id)).toEqual(kept);
    danBack.send('acceptChallenge', { challengeId: kept.id });
    const [a, d] = await Promise.all([annBack.next('gameStart'), danBack.next('gameStart')]);
    expect(a.gameId).toBe(d.gameId);
  });
});
