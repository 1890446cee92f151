/** User rows and the GoTrue user JSON shape the client expects. */
import { randomUUID } from 'node:crypto';
import type { Queryable } from './db';

export interface UserRow {
  id: string;
  email: string | null;
  phone: string | null;
  encrypted_password: string;
  email_confirmed_at: Date | null;
  phone_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface IdentityRow {
  id: string;
  user_id: string;
  provider: string;
  provider_id: string;
  identity_data: Record<string, unknown>;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | string | null | undefined): string | undefined =>
  d ? new Date(d).toISOString() : undefined;

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]))[0];
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>('SELECT * FROM users WHERE email = $1', [email]))[0];
}

export async function findUserByPhone(db: Queryable, phone: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>('SELECT * FROM users WHERE phone = $1', [phone]))[0];
}

export async function identitiesOf(db: Queryable, userId: string): Promise<IdentityRow[]> {
  return db.query<IdentityRow>('SELECT * FROM identities WHERE user_id = $1 ORDER BY created_at', [userId]);
}

export async function insertUser(
  db: Queryable,
  u: {
    /** a fresh random id when left out */
    id?: string;
    email: string | null;
    phone: string | null;
    passwordHash: string;
    userMetadata: Record<string, unknown>;
    confirmed: boolean;
  },
): Promise<UserRow> {
  const id = u.id ?? randomUUID();
  const provider = u.email ? 'email' : 'phone';
  const appMeta = { provider, providers: [provider] };
  const [row] = await db.query<UserRow>(
    `INSERT INTO users (id, email, phone, encrypted_password, email_confirmed_at, phone_confirmed_at,
                        raw_app_meta_data, raw_user_meta_data)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb) RETURNING *`,
    [
      id,
      u.email,
      u.phone,
      u.passwordHash,
      u.confirmed && u.email ? new Date() : null,
      u.confirmed && u.phone ? new Date() : null,
      JSON.stringify(appMeta),
      JSON.stringify(u.userMetadata),
    ],
  );
  const identityData: Record<string, unknown> = {
    sub: id,
    email_verified: Boolean(u.confirmed && u.email),
    phone_verified: Boolean(u.confirmed && u.phone),
  };
  if (u.email) identityData.email = u.email;
  if (u.phone) identityData.phone = u.phone;
  await db.query(
    `INSERT INTO identities (id, user_id, provider, provider_id, identity_data) VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [randomUUID(), id, provider, id, JSON.stringify(identityData)],
  );
  return row;
}

/** Marks the email (or phone) verified on the user and its identity. */
export async function confirmAddress(db: Queryable, user: UserRow, what: 'email' | 'phone'): Promise<UserRow> {
  const col = what === 'email' ? 'email_confirmed_at' : 'phone_confirmed_at';
  const flag = what === 'email' ? 'email_verified' : 'phone_verified';
  await db.query(
    `UPDATE identities SET identity_data = identity_data || jsonb_build_object('${flag}', true), updated_at = now()
     WHERE user_id = $1`,
    [user.id],
  );
  const [row] = await db.query<UserRow>(
    `UPDATE users SET ${col} = COALESCE(${col}, now()),
            raw_user_meta_data = CASE WHEN $2 THEN raw_user_meta_data || '{"email_verified": true}'::jsonb
                                      ELSE raw_user_meta_data END,
            updated_at = now()
     WHERE id = $1 RETURNING *`,
    [user.id, what === 'email'],
  );
  return row;
}

export function userJson(u: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  const confirmedAt = u.email_confirmed_at ?? u.phone_confirmed_at;
  const out: Record<string, unknown> = {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email ?? '',
    phone: u.phone ?? '',
  };
  if (u.email_confirmed_at) out.email_confirmed_at = iso(u.email_confirmed_at);
  if (u.phone_confirmed_at) out.phone_confirmed_at = iso(u.phone_confirmed_at);
  if (u.confirmation_sent_at) out.confirmation_sent_at = iso(u.confirmation_sent_at);
  if (u.recovery_sent_at) out.recovery_sent_at = iso(u.recovery_sent_at);
  if (confirmedAt) out.confirmed_at = iso(confirmedAt);
  if (u.last_sign_in_at) out.last_sign_in_at = iso(u.last_sign_in_at);
  out.app_metadata = u.raw_app_meta_data;
  out.user_metadata = u.raw_user_meta_data;
  out.identities = identities.map((i) => ({
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data,
    provider: i.provider,
    last_sign_in_at: iso(i.last_sign_in_at) ?? iso(i.created_at),
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
    ...(typeof i.identity_data.email === 'string' ? { email: i.identity_data.email } : {}),
  }));
  out.created_at = iso(u.created_at);
  out.updated_at = iso(u.updated_at);
  out.is_anonymous = false;
  return out;
}

/**
 * The answer to every sign-up that waits for confirmation, whether the address was free, taken
 * or already waiting: the same fields, a fresh id, no identities, so it cannot be probed.
 */
export function pendingUserJson(id: string, email: string | null, phone: string | null, userMetadata: Record<string, unknown>) {
  const now = new Date().toISOString();
  const provider = email ? 'email' : 'phone';
  return {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email: email ?? '',
    phone: phone ?? '',
    confirmation_sent_at: now,
    app_metadata: { provider, providers: [provider] },
    user_metadata: userMetadata,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}
