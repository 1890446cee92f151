/** argon2id password hashing (native binding, runs on libuv's thread pool, off the event loop). */
import argon2 from 'argon2';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 72;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Constant-time check inside argon2; unknown users are checked against a dummy hash. */
  verify(hash: string | undefined, password: string): Promise<boolean>;
  readonly params: { memoryCost: number; timeCost: number; parallelism: number };
}

export async function createPasswordHasher(params: {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}): Promise<PasswordHasher> {
  const opts = { type: argon2.argon2id as 0 | 1 | 2, ...params };
  // Spends the same work for an unknown account as for a real one, so timing reveals nothing.
  const dummy = await argon2.hash('dummy-password-for-timing', opts);
  return {
    params,
    hash: (password) => argon2.hash(password, opts),
    async verify(hash, password) {
      try {
        const ok = await argon2.verify(hash ?? dummy, password);
        return hash !== undefined && ok;
      } catch {
        return false;
      }
    },
  };
}

/** GoTrue's rule: 6 to 72 characters. Returns an error message or null. */
export function passwordProblem(password: unknown): 'missing' | 'short' | 'long' | null {
  if (typeof password !== 'string' || password.length === 0) return 'missing';
  if ([...password].length < PASSWORD_MIN) return 'short';
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX) return 'long';
  return null;
}
