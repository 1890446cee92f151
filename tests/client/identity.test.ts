import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { displayName, identityMachine } from '../../machines/client/identity';
import { makeGuest } from '../../machines/client/nickname';

function start(storedGuest = null as ReturnType<typeof makeGuest> | null) {
  const saved: unknown[] = [];
  let cleared = 0;
  const actor = createActor(
    identityMachine.provide({ actions: { saveGuest: (_, p) => void saved.push(p.guest), clearGuest: () => void cleared++ } }),
    { input: { storedGuest } },
  ).start();
  return { actor, saved, cleared: () => cleared };
}

const user = { id: 'u1', email: 'ann@example.com', user_metadata: { username: 'ann' } };

describe('identity machine', () => {
  it('waits in resolving until the first auth answer', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('resolving');
    actor.send({ type: 'AUTH_CHANGED', event: 'INITIAL_SESSION', user: null });
    expect(actor.getSnapshot().value).toBe('none');
  });

  it('falls back to the stored guest when there is no user', () => {
    const { actor } = start(makeGuest('SwiftKnight42'));
    actor.send({ type: 'AUTH_CHANGED', event: 'INITIAL_SESSION', user: null });
    expect(actor.getSnapshot().value).toBe('guest');
    expect(displayName(actor.getSnapshot().context)).toBe('SwiftKnight42');
  });

  it('an auth change carrying a user clears the guest and authenticates', () => {
    const h = start(makeGuest('SwiftKnight42'));
    h.actor.send({ type: 'AUTH_CHANGED', event: 'SIGNED_IN', user, accessToken: 'tok' });
    const snap = h.actor.getSnapshot();
    expect(snap.value).toBe('authenticated');
    expect(snap.context.guest).toBeNull();
    expect(snap.context.accessToken).toBe('tok');
    expect(h.cleared()).toBe(1);
    expect(displayName(snap.context)).toBe('ann');
    // a later auth change without a user now has no guest to fall back to
    h.actor.send({ type: 'AUTH_CHANGED', event: 'SIGNED_OUT', user: null });
    expect(h.actor.getSnapshot().value).toBe('none');
  });

  it('token refresh keeps the user and updates the token', () => {
    const { actor } = start();
    actor.send({ type: 'AUTH_CHANGED', event: 'SIGNED_IN', user, accessToken: 'a' });
    actor.send({ type: 'AUTH_CHANGED', event: 'TOKEN_REFRESHED', user, accessToken: 'b' });
    expect(actor.getSnapshot().value).toBe('authenticated');
    expect(actor.getSnapshot().context.accessToken).toBe('b');
  });

  it('creating a guest stores it; sign out clears it and sets none', () => {
    const h = start();
    h.actor.send({ type: 'AUTH_CHANGED', event: 'NO_BACKEND_SESSION', user: null });
    const guest = makeGuest('BoldRook17');
    h.actor.send({ type: 'GUEST_CREATED', guest });
    expect(h.actor.getSnapshot().value).toBe('guest');
    expect(h.saved).toEqual([guest]);
    h.actor.send({ type: 'SIGN_OUT' });
    expect(h.actor.getSnapshot().value).toBe('none');
    expect(h.actor.getSnapshot().context.guest).toBeNull();
    expect(h.cleared()).toBe(1);
  });

  it('missing backend configuration is only logged and falls back to guest or none', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const a = start(makeGuest('CalmFox55')).actor;
    a.send({ type: 'CONFIG_MISSING', message: 'no config' });
    expect(a.getSnapshot().value).toBe('guest');
    const b = start().actor;
    b.send({ type: 'CONFIG_MISSING', message: 'no config' });
    expect(b.getSnapshot().value).toBe('none');
    expect(warn).toHaveBeenCalledWith('no config');
    warn.mockRestore();
  });
});
