/** identifyUser: binding a socket to an account with a real ES256 access token. */
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { AccountsModule } from '../../server/wiring';
import { TestClient, startTestServer } from './helpers';

let server: RunningServer;
let noAccounts: RunningServer;
let sign: (claims: JWTPayload) => Promise<string>;
let signWithOtherKey: (claims: JWTPayload) => Promise<string>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const other = await generateKeyPair('ES256');
  // The verifier only sees the public key, as the accounts module does (JWKS).
  const publicOnly = await importJWK(await exportJWK(publicKey), 'ES256');
  const make = (key: CryptoKey) => (claims: JWTPayload) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).setIssuedAt().setExpirationTime('1h').sign(key);
  sign = make(privateKey);
  signWithOtherKey = make(other.privateKey);
  const accounts: AccountsModule = {
    mount() {},
    async verifyAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, publicOnly, { algorithms: ['ES256'] });
        if (!payload.sub) return null;
        return { sub: payload.sub, username: (payload.user_metadata as { username?: string } | undefined)?.username };
      } catch {
        return null;
      }
    },
    async close() {},
  };
  server = await startTestServer({ accounts });
  noAccounts = await startTestServer();
});
afterAll(async () => {
  await Promise.all([server.close(), noAccounts.close()]);
});

const USER = '3f0b6c52-6a4e-4c5e-9d7e-1f2a3b4c5d6e';

describe('identifyUser', () => {
  it('binds the socket to the account with a valid token', async () => {
    const c = await TestClient.connect(server.url);
    const token = await sign({ sub: USER, user_metadata: { username: 'magnus' } });
    c.send('identifyUser', { userId: USER, accessToken: token });
    const ok = await c.next('identified');
    expect(ok.playerId).toBe(USER);
    expect(ok.username).toBe('magnus');
    c.send('checkActiveGame', { playerId: USER });
    expect((await c.next('activeGameStatus')).gameId).toBeNull();
    await c.close();
  });

  it('rejects a token signed with another key and a token for another user', async () => {
    const c = await TestClient.connect(server.url);
    c.send('identifyUser', { userId: USER, accessToken: await signWithOtherKey({ sub: USER }) });
    expect((await c.next('error')).code).toBe('identify_failed');
    c.send('identifyUser', { userId: USER, accessToken: await sign({ sub: 'someone-else' }) });
    expect((await c.next('error')).code).toBe('identify_failed');
    c.send('identifyUser', { userId: USER, accessToken: 'not.a.jwt' });
    expect((await c.next('error')).code).toBe('identify_failed');
    // still the guest it was
    c.send('checkActiveGame', { playerId: USER });
    expect((await c.next('error')).code).toBe('foreign_identity');
    await c.close();
  });

  it('lets a second tab of the same account take the seat', async () => {
    const token = await sign({ sub: USER });
    const a = await TestClient.connect(server.url);
    a.send('identifyUser', { userId: USER, accessToken: token });
    await a.next('identified');
    const b = await TestClient.connect(server.url);
    b.send('identifyUser', { userId: USER, accessToken: token });
    await b.next('identified');
    expect((await a.next('error')).code).toBe('replaced');
    expect((await a.closed).code).toBe(4001);
    await b.close();
  });

  it('answers with an error when accounts are not available', async () => {
    const c = await TestClient.connect(noAccounts.url);
    c.send('identifyUser', { userId: USER, accessToken: await sign({ sub: USER }) });
    const err = await c.next('error');
    expect(err.message).toBe('Accounts are not available');
    await c.close();
  });

  it('answers startAIGame with "AI is not available" when there is no AI service', async () => {
    const c = await TestClient.connect(noAccounts.url);
    c.send('startAIGame', { options: { difficulty: 5, playerColor: 'white' } });
    expect((await c.next('error')).message).toBe('AI is not available');
    await c.close();
  });
});
