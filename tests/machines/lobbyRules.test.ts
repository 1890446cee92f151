/** The rules of custom games and challenges, without a server: who may play which, colours, expiry, limits. */
import { describe, expect, it } from 'vitest';
import type { Challenge, Hook } from '../../machines/protocol/messages';
import { LOBBY_RULES, answerRefusal, challengePlan, createRefusal, creatorColor, ended, forgotten, joinRefusal, openBy, supersededHooks, unseen } from '../../machines/lobby/rules';

const T0 = 1_700_000_000_000;
const options = { timeControl: { initial: 180, increment: 2 }, rated: true, color: 'random' } as const;
const hook: Hook = { id: 'h', by: { id: 'ann', name: 'ann', guest: false }, ...options, createdAt: T0 };
const challenge = (over: Partial<Challenge> = {}): Challenge => ({ id: 'c', by: { id: 'ann', name: 'ann', guest: false }, ...options, status: 'created', createdAt: T0, ...over });
const guest = { id: 'g', signedIn: false };
const ben = { id: 'ben', signedIn: true, username: 'Ben' };

describe('lobby rules', () => {
  it('keeps rated games to signed-in players, and one\'s own game from oneself', () => {
    expect(createRefusal(options, guest)).toBe('rated_needs_account');
    expect(createRefusal({ ...options, rated: false }, guest)).toBeNull();
    expect(joinRefusal(hook, guest)).toBe('rated_needs_account');
    expect(joinRefusal({ ...hook, rated: false }, guest)).toBeNull();
    expect(joinRefusal(hook, { id: 'ann', signedIn: true })).toBe('own');
    expect(joinRefusal(hook, ben)).toBeNull();
  });

  it('lets only the player challenged (by username, any case) answer a challenge to them, and only while it is open', () => {
    const toBen = challenge({ to: 'ben' });
    expect(answerRefusal(toBen, ben, true)).toBeNull();
    expect(answerRefusal(toBen, { id: 'cat', signedIn: true, username: 'cat' }, true)).toBe('not_for_you');
    expect(answerRefusal(challenge({ rated: false }), guest, true)).toBeNull();
    expect(answerRefusal(challenge(), guest, true)).toBe('rated_needs_account');
    expect(answerRefusal(challenge(), guest, false)).toBeNull();
    expect(answerRefusal(challenge(), { id: 'ann', signedIn: true }, false)).toBe('own');
    expect(answerRefusal(ended(toBen, 'canceled', T0), ben, true)).toBe('not_open');
  });

  it('keeps one hook per player, the newest (the same on every node when two were posted at the same instant)', () => {
    const older = { ...hook, id: 'h1' };
    const newer = { ...hook, id: 'h0', createdAt: T0 + 1 };
    const twin = { ...hook, id: 'h2' };
    const bens = { ...hook, id: 'hb', by: { id: 'ben', name: 'Ben', guest: false } };
    expect(supersededHooks([older, bens, newer])).toEqual([older]);
    expect(supersededHooks([newer, older, bens])).toEqual([older]);
    expect(supersededHooks([twin, older])).toEqual([older]);
    expect(supersededHooks([older, twin])).toEqual([older]);
    expect(supersededHooks([bens, older])).toEqual([]);
  });

  it('gives the creator the colour chosen, or draws it', () => {
    expect(creatorColor('white', 0.9)).toBe('white');
    expect(creatorColor('black', 0.1)).toBe('black');
    expect(creatorColor('random', 0.1)).toBe('white');
    expect(creatorColor('random', 0.9)).toBe('black');
  });

  it('expires what was not seen for its time, and forgets an ended challenge after 3 hours', () => {
    expect(unseen(T0, T0 + LOBBY_RULES.challengeUnseenMs, LOBBY_RULES.challengeUnseenMs)).toBe(false);
    expect(unseen(T0, T0 + LOBBY_RULES.challengeUnseenMs + 1, LOBBY_RULES.challengeUnseenMs)).toBe(true);
    const declined = ended(challenge(), 'declined', T0 + 1000, { declineReason: 'later' });
    expect(declined).toMatchObject({ status: 'declined', endedAt: T0 + 1000, declineReason: 'later' });
    expect(forgotten(declined, T0 + 1000 + LOBBY_RULES.challengeKeptMs)).toBe(false);
    expect(forgotten(declined, T0 + 1001 + LOBBY_RULES.challengeKeptMs)).toBe(true);
    expect(forgotten(challenge(), T0 + 10 * LOBBY_RULES.challengeKeptMs)).toBe(false);
  });

  it('refuses a challenge past the open limit, and replaces a previous challenge to the same player', () => {
    const open = Array.from({ length: LOBBY_RULES.maxOpenChallenges }, (_, i) => challenge({ id: `c${i}`, ...(i === 0 ? { to: 'Ben' } : {}) }));
    expect(openBy([...open, ended(challenge({ id: 'x' }), 'declined', T0), challenge({ id: 'y', by: { id: 'z', name: 'z', guest: true } })], 'ann')).toHaveLength(open.length);
    expect(challengePlan(open, undefined)).toEqual({ replace: [], refused: true });
    expect(challengePlan(open, 'ben')).toEqual({ replace: [open[0]], refused: false });
    expect(challengePlan(open.slice(1), undefined).refused).toBe(false);
  });
});
