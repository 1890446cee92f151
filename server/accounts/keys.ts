/**
 * The ES256 signing key of the access tokens: from JWT_PRIVATE_KEY (JWK JSON or PKCS#8 PEM) or
 * generated at first start and kept in <dataDir>/jwt-private-key.json (mode 0600). The public
 * half is published as a JWKS; the anon key is a long-lived JWT with role "anon" signed by it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';

export interface SigningKeys {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  jwks: { keys: JWK[] };
  /** 32 bytes derived from the private key for server-side HMACs (refresh-token rotation). */
  derivedSecret: Buffer;
  sign(payload: JWTPayload, ttlSeconds: number): Promise<string>;
  /** Verifies signature, algorithm and expiry; throws jose errors otherwise. */
  verify(token: string): Promise<JWTPayload>;
}

const KEY_FILE = 'jwt-private-key.json';
const ANON_KEY_FILE = 'anon-key.jwt';

export async function loadSigningKeys(opts: { dataDir: string; jwtPrivateKey?: string }): Promise<SigningKeys> {
  let privateJwk: JWK;
  if (opts.jwtPrivateKey) {
    privateJwk = await parseConfiguredKey(opts.jwtPrivateKey);
  } else {
    const file = join(opts.dataDir, KEY_FILE);
    if (existsSync(file)) {
      privateJwk = JSON.parse(readFileSync(file, 'utf8')) as JWK;
    } else {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      privateJwk = await exportJWK(privateKey);
      mkdirSync(opts.dataDir, { recursive: true });
      writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
    }
  }
  if (privateJwk.kty !== 'EC' || privateJwk.crv !== 'P-256' || !privateJwk.d) {
    throw new Error('JWT private key must be an EC P-256 private key (ES256)');
  }
  const { d: _d, ...publicPart } = privateJwk;
  const base: JWK = { kty: publicPart.kty, crv: publicPart.crv, x: publicPart.x, y: publicPart.y };
  const kid = privateJwk.kid ?? (await calculateJwkThumbprint(base));
  const privateKey = (await importJWK({ ...privateJwk, alg: 'ES256' }, 'ES256')) as CryptoKey;
  const publicKey = (await importJWK({ ...base, alg: 'ES256' }, 'ES256')) as CryptoKey;
  const publicJwk: JWK = { ...base, kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] };
  return {
    kid,
    privateKey,
    publicKey,
    publicJwk,
    jwks: { keys: [publicJwk] },
    derivedSecret: createHash('sha256').update('refresh-token-rotation\u0000').update(privateJwk.d).digest(),
    async sign(payload, ttlSeconds) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuedAt(typeof payload.iat === 'number' ? payload.iat : now)
        .setExpirationTime((typeof payload.iat === 'number' ? payload.iat : now) + ttlSeconds)
        .sign(privateKey);
    },
    async verify(token) {
      const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'] });
      return payload;
    },
  };
}

async function parseConfiguredKey(text: string): Promise<JWK> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as JWK;
    } catch {
      throw new Error('JWT_PRIVATE_KEY is not valid JWK JSON');
    }
  }
  if (trimmed.includes('BEGIN PRIVATE KEY')) {
    const key = await importPKCS8(trimmed.replace(/\\n/g, '\n'), 'ES256', { extractable: true });
    return exportJWK(key);
  }
  throw new Error('JWT_PRIVATE_KEY must be an EC P-256 JWK (JSON) or a PKCS#8 PEM');
}

/**
 * The anon key (like Supabase's): ANON_KEY if given (it must verify with our key and carry role
 * anon), else the one persisted in the data dir, else a new one (valid 10 years) saved there.
 */
export async function loadAnonKey(keys: SigningKeys, opts: { dataDir: string; anonKey?: string }): Promise<string> {
  const check = async (token: string, source: string): Promise<string> => {
    let payload: JWTPayload;
    try {
      payload = await keys.verify(token);
    } catch (err) {
      throw new Error(`${source} does not verify with the current JWT key: ${(err as Error).message}`);
    }
    if (payload.role !== 'anon') throw new Error(`${source} must carry role "anon"`);
    return token;
  };
  if (opts.anonKey) return check(opts.anonKey, 'ANON_KEY');
  const file = join(opts.dataDir, ANON_KEY_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    try {
      return await check(stored, file);
    } catch {
      /* key changed (e.g. JWT_PRIVATE_KEY set later): issue a new anon key below */
    }
  }
  const token = await keys.sign({ iss: 'supabase', ref: 'local', role: 'anon' }, 10 * 365 * 24 * 3600);
  mkdirSync(opts.dataDir, { recursive: true });
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}
