/** Email links and SMS codes: stored as SHA-256 digests, one live token per user and type. */
import { randomUUID } from 'node:crypto';
import type { Queryable } from './db';
import { codeHash, randomCode, randomToken, sha256Hex } from './secrets';

export type TokenType = 'confirmation' | 'recovery' | 'magiclink' | 'phone_confirmation';

export const TOKEN_TTL_SECONDS: Record<TokenType, number> = {
  confirmation: 24 * 3600,
  recovery: 3600,
  magiclink: 3600,
  phone_confirmation: 60,
};

async function store(db: Queryable, userId: string, type: TokenType, hash: string, relatesTo: string) {
  await db.query(
    `INSERT INTO one_time_tokens (id, user_id, token_type, token_hash, relates_to, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
     ON CONFLICT (user_id, token_type) DO UPDATE
       SET id = EXCLUDED.id, token_hash = EXCLUDED.token_hash, relates_to = EXCLUDED.relates_to,
           expires_at = EXCLUDED.expires_at, created_at = now()`,
    [randomUUID(), userId, type, hash, relatesTo, TOKEN_TTL_SECONDS[type]],
  );
}

/** A new link token (256 bits) replacing any earlier one of the same type. */
export async function createLinkToken(db: Queryable, userId: string, type: TokenType, email: string): Promise<string> {
  const token = randomToken();
  await store(db, userId, type, sha256Hex(token), email);
  return token;
}

/** A new 6-digit code for a phone number, replacing any earlier one. */
export async function createSmsCode(db: Queryable, userId: string, phone: string): Promise<string> {
  const code = randomCode();
  await store(db, userId, 'phone_confirmation', codeHash(phone, code), phone);
  return code;
}

/**
 * Consumes a token: deletes it and returns its user when it exists, has one of the given types and
 * has not expired. Used or unknown tokens return undefined.
 */
export async function consumeToken(
  db: Queryable,
  hash: string,
  types: TokenType[],
): Promise<{ userId: string; type: TokenType; relatesTo: string } | undefined> {
  const rows = await db.query<{ user_id: string; token_type: TokenType; relates_to: string; live: boolean }>(
    `DELETE FROM one_time_tokens WHERE token_hash = $1 AND token_type = ANY($2::text[])
     RETURNING user_id, token_type, relates_to, expires_at > now() AS live`,
    [hash, types],
  );
  const row = rows[0];
  if (!row || !row.live) return undefined;
  return { userId: row.user_id, type: row.token_type, relatesTo: row.relates_to };
}

export { codeHash, sha256Hex };
