/**
 * The accounts seam as the realtime server uses it (verifyAccessToken), with real ES256 access
 * tokens checked against a key pair made for the test: what the accounts module does with its
 * JWKS, without its database.
 */
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWTPayload } from 'jose';
import type { AccountsModule } from '../../server/wiring';

export interface TokenAccounts {
  accounts: AccountsModule;
  /** an access token for `claims`, signed with the key the accounts check against */
  sign(claims: JWTPayload): Promise<string>;
}

/** `onVerify` is told of every check (to count them). */
export async function tokenAccounts(onVerify: () => void = () => {}): Promise<TokenAccounts> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const publicOnly = await importJWK(await exportJWK(publicKey), 'ES256');
  return {
    accounts: {
      mount() {},
      async verifyAccessToken(token) {
        onVerify();
        try {
          const { payload } = await jwtVerify(token, publicOnly, { algorithms: ['ES256'] });
          // a test's token may name the account's username (as a profile would)
          const username = (payload.user_metadata as { username?: string } | undefined)?.username;
          return payload.sub ? { sub: payload.sub, ...(username ? { username } : {}) } : null;
        } catch {
          return null;
        }
      },
      async close() {},
    },
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).setIssuedAt().setExpirationTime('1h').sign(privateKey),
  };
}
