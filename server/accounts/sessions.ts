/**
 * Sessions, access tokens and refresh-token rotation with reuse detection.
 *
 * A session owns one family of refresh tokens. Refreshing with the active token revokes it and
 * issues a child. Presenting the token just before the active one (within the reuse interval, as
 * GoTrue does for concurrent tabs) returns the active token again; presenting any other revoked
 * token is treated as theft: the whole family and its session are destroyed.
 *
 * Only SHA-256 digests are stored. To hand the active token out again, a child token is derived
 * from its parent with an HMAC under a server key: whoever holds the parent can get the child
 * back, nobody can compute it without the parent and the key.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Db, Queryable } from './db';
import { errors } from './auth-errors';
import type { SigningKeys } from './keys';
import { constantTimeEqual, randomToken, sha256Hex } from './secrets';
import { findUserById, identitiesOf, userJson, type UserRow } from './users';

export interface SessionDeps {
  db: Db;
  keys: SigningKeys;
  issuer: string;
  accessTtl: number;
  reuseIntervalSeconds: number;
  rotationKey: Buffer;
}

function childToken(deps: SessionDeps, parent: string): string {
  return createHmac('sha256', deps.rotationKey).update(parent).digest('base64url');
}

interface RefreshRow {
  id: string;
  user_id: string;
  session_id: string;
  parent_id: string | null;
  revoked: boolean;
  updated_at: Date;
}

export async function accessToken(
  deps: SessionDeps,
  user: UserRow,
  sessionId: string,
  amrMethod: string,
  authTime: number,
): Promise<{ token: string; iat: number; exp: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const token = await deps.keys.sign(
    {
      iss: deps.issuer,
      sub: user.id,
      aud: 'authenticated',
      iat,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data,
      user_metadata: user.raw_user_meta_data,
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: amrMethod, timestamp: authTime }],
      session_id: sessionId,
      is_anonymous: false,
    },
    deps.accessTtl,
  );
  return { token, iat, exp: iat + deps.accessTtl };
}

async function sessionJson(
  deps: SessionDeps,
  tx: Queryable,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  amrMethod: string,
  authTime: number,
): Promise<Record<string, unknown>> {
  const at = await accessToken(deps, user, sessionId, amrMethod, authTime);
  return {
    access_token: at.token,
    token_type: 'bearer',
    expires_in: deps.accessTtl,
    expires_at: at.exp,
    refresh_token: refreshToken,
    user: userJson(user, await identitiesOf(tx, user.id)),
  };
}

/** Starts a session for a user who just proved who they are (password, link or code). */
export async function issueSession(
  deps: SessionDeps,
  userId: string,
  amrMethod: 'password' | 'otp' | 'recovery' | 'email/signup',
): Promise<Record<string, unknown>> {
  return deps.db.transaction(async (tx) => {
    const [user] = await tx.query<UserRow>(
      'UPDATE users SET last_sign_in_at = now(), updated_at = now() WHERE id = $1 RETURNING *',
      [userId],
    );
    await tx.query('UPDATE identities SET last_sign_in_at = now() WHERE user_id = $1', [userId]);
    const sessionId = randomUUID();
    await tx.query('INSERT INTO sessions (id, user_id, amr_method) VALUES ($1, $2, $3)', [
      sessionId,
      userId,
      amrMethod,
    ]);
    const refresh = randomToken();
    await tx.query(
      'INSERT INTO refresh_tokens (id, token_hash, user_id, session_id) VALUES ($1, $2, $3, $4)',
      [randomUUID(), sha256Hex(refresh), userId, sessionId],
    );
    return sessionJson(deps, tx, user, sessionId, refresh, amrMethod, Math.floor(Date.now() / 1000));
  });
}

export async function refreshSession(deps: SessionDeps, presented: string): Promise<Record<string, unknown>> {
  const outcome = await deps.db.transaction(async (tx) => {
    const [row] = await tx.query<RefreshRow>(
      'SELECT id, user_id, session_id, parent_id, revoked, updated_at FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE',
      [sha256Hex(presented)],
    );
    if (!row) return { error: errors.refreshNotFound() };
    const [session] = await tx.query<{ id: string; amr_method: string; created_at: Date }>(
      'SELECT id, amr_method, created_at FROM sessions WHERE id = $1 FOR UPDATE',
      [row.session_id],
    );
    if (!session) return { error: errors.refreshNotFound() };
    const user = await findUserById(tx, row.user_id);
    if (!user) return { error: errors.refreshNotFound() };
    const authTime = Math.floor(new Date(session.created_at).getTime() / 1000);

    if (!row.revoked) {
      await tx.query('UPDATE refresh_tokens SET revoked = true, updated_at = now() WHERE id = $1', [row.id]);
      const next = childToken(deps, presented);
      await tx.query(
        'INSERT INTO refresh_tokens (id, token_hash, user_id, session_id, parent_id) VALUES ($1, $2, $3, $4, $5)',
        [randomUUID(), sha256Hex(next), row.user_id, row.session_id, row.id],
      );
      await tx.query('UPDATE sessions SET refreshed_at = now(), updated_at = now() WHERE id = $1', [session.id]);
      return { session: await sessionJson(deps, tx, user, session.id, next, session.amr_method, authTime) };
    }

    // A revoked token: is it the parent of the active one, revoked moments ago?
    const [child] = await tx.query<{ token_hash: string }>(
      'SELECT token_hash FROM refresh_tokens WHERE parent_id = $1 AND revoked = false',
      [row.id],
    );
    const ageSeconds = (Date.now() - new Date(row.updated_at).getTime()) / 1000;
    if (child && ageSeconds <= deps.reuseIntervalSeconds) {
      const active = childToken(deps, presented);
      if (constantTimeEqual(sha256Hex(active), child.token_hash)) {
        return { session: await sessionJson(deps, tx, user, session.id, active, session.amr_method, authTime) };
      }
    }
    // Reuse of an old token: revoke the whole family by ending its session.
    await tx.query('DELETE FROM sessions WHERE id = $1', [session.id]);
    return { error: errors.refreshReused() };
  });
  if ('error' in outcome && outcome.error) throw outcome.error;
  return (outcome as { session: Record<string, unknown> }).session;
}

export async function sessionExists(db: Queryable, sessionId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM sessions WHERE id = $1', [sessionId])).length > 0;
}

export async function endSessions(
  db: Queryable,
  userId: string,
  currentSessionId: string,
  scope: 'global' | 'local' | 'others',
): Promise<void> {
  if (scope === 'local') await db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2', [currentSessionId, userId]);
  else if (scope === 'others') await db.query('DELETE FROM sessions WHERE user_id = $1 AND id <> $2', [userId, currentSessionId]);
  else await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
}
