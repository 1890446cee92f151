/** Random tokens, their SHA-256 digests, and constant-time comparison. */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: refresh tokens and email link tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A 6-digit one-time code (SMS). */
export function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Digest of a short code bound to the address it was sent to (so equal codes never collide). */
export function codeHash(address: string, code: string): string {
  return sha256Hex(`${address}\u0000${code}`);
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
