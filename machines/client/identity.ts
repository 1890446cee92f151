/**
 * Who is playing (docs/product.md, Identity and storage): none, guest or authenticated.
 *
 * - `resolving` until the first auth answer (supabase-js INITIAL_SESSION, or
 *   "no backend session" when the client is not loaded, or missing config).
 * - Any auth change carrying a user clears the guest record and sets the user.
 * - An auth change without a user falls back to the stored guest, or none.
 * - SIGN_OUT clears the guest and sets none (the app ends the session and goes to /login).
 *
 * The machine only keeps the guest record in context; persisting it is the
 * `saveGuest` / `clearGuest` actions, provided by the app (tests observe them).
 */
import { assign, setup } from 'xstate';
import type { GuestRecord } from './nickname';

export interface AuthUser {
  id: string;
  email?: string;
  is_anonymous?: boolean;
  user_metadata?: { username?: string; first_name?: string; last_name?: string; email_verified?: boolean; [k: string]: unknown };
}

export interface IdentityContext {
  user: AuthUser | null;
  accessToken: string | null;
  guest: GuestRecord | null;
}

export interface IdentityInput { storedGuest: GuestRecord | null }

export type AuthEventName =
  | 'INITIAL_SESSION' | 'SIGNED_IN' | 'TOKEN_REFRESHED' | 'SIGNED_OUT' | 'USER_UPDATED'
  | 'PASSWORD_RECOVERY' | 'MFA_CHALLENGE_VERIFIED' | 'NO_BACKEND_SESSION';

export type IdentityEvent =
  | { type: 'AUTH_CHANGED'; event: AuthEventName; user: AuthUser | null; accessToken?: string | null }
  | { type: 'CONFIG_MISSING'; message: string }
  | { type: 'GUEST_CREATED'; guest: GuestRecord }
  | { type: 'SIGN_OUT' };

export const identityMachine = setup({
  types: { context: {} as IdentityContext, events: {} as IdentityEvent, input: {} as IdentityInput },
  actions: {
    saveGuest: (_, _params: { guest: GuestRecord }) => {},
    clearGuest: () => {},
    logConfigMissing: (_, params: { message: string }) => console.warn(params.message),
  },
  guards: {
    hasUser: ({ event }) => event.type === 'AUTH_CHANGED' && !!event.user,
    hasGuest: ({ context }) => !!context.guest,
  },
}).createMachine({
  id: 'identity',
  context: ({ input }) => ({ user: null, accessToken: null, guest: input.storedGuest }),
  initial: 'resolving',
  on: {
    AUTH_CHANGED: [
      {
        guard: 'hasUser',
        target: '.authenticated',
        actions: [
          assign(({ event }) => ({ user: event.user, accessToken: event.accessToken ?? null, guest: null })),
          'clearGuest',
        ],
      },
      { guard: 'hasGuest', target: '.guest', actions: assign({ user: null, accessToken: null }) },
      { target: '.none', actions: assign({ user: null, accessToken: null }) },
    ],
    CONFIG_MISSING: [
      { guard: 'hasGuest', target: '.guest', actions: { type: 'logConfigMissing', params: ({ event }) => ({ message: event.message }) } },
      { target: '.none', actions: { type: 'logConfigMissing', params: ({ event }) => ({ message: event.message }) } },
    ],
    GUEST_CREATED: {
      target: '.guest',
      actions: [assign(({ event }) => ({ guest: event.guest, user: null, accessToken: null })), {
        type: 'saveGuest', params: ({ event }) => ({ guest: event.guest }),
      }],
    },
    SIGN_OUT: { target: '.none', actions: [assign({ user: null, accessToken: null, guest: null }), 'clearGuest'] },
  },
  states: {
    resolving: {},
    none: {},
    guest: {},
    authenticated: {},
  },
});

/** The name shown after "Signed in as" / "Playing as". */
export function displayName(ctx: IdentityContext): string | null {
  if (ctx.user) return ctx.user.user_metadata?.username || ctx.user.email || 'Player';
  if (ctx.guest) return ctx.guest.nickname || ctx.guest.username;
  return null;
}
