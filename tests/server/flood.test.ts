/**
 * Floods from one address (issue 24): identifyUser's checks are budgeted and cached, sockets
 * per address are capped and their arrival rate limited, and a refused upgrade gets a 429 at
 * once. Clients connect from two loopback addresses, 127.0.0.1 (the flood) and 127.0.0.2 (a
 * bystander), so the per-address limits are seen from both sides.
 */
import type { JWTPayload } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app';
import type { AccountsModule } from '../../server/wiring';
import { DEFAULT_IDENTIFICATION_LIMITS, socketsTheFdLimitAllows } from '../../server/config/server';
import { capturedLog } from '../support/capturedLog';
import { TestClient, pairPlayers, playMoves, startTestServer, useTestClock } from './helpers';
import { tokenAccounts } from './tokenAccounts';

const FLOOD = { localAddress: '127.0.0.1' };
const BYSTANDER = { localAddress: '127.0.0.2' };
/** the identification tests open more sockets than one address may by default */
const NO_SOCKET_LIMITS = { maxSockets: 0, socketsPerAddress: 0, connectRate: null };
const USER = '0c7d3a8e-7f5e-4a2b-9c1d-2e3f4a5b6c7d';

let sign: (claims: JWTPayload) => Promise<string>;
let verifyCalls = 0;
let accounts: AccountsModule;
const servers: RunningServer[] = [];

beforeAll(async () => {
  // a real ES256 verifier that counts how often it is asked
  ({ accounts, sign } = await tokenAccounts(() => verifyCalls++));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
  const s = await startTestServer({ accounts, ...opts });
  servers.push(s);
  verifyCalls = 0;
  return s;
}

/** A token whose signature is broken: the check runs in full and fails. */
function breakSignature(token: string): string {
  const [h, p, sig] = token.split('.');
  return `${h}.${p}.${sig.slice(0, 5)}${sig[5] === 'A' ? 'B' : 'A'}${sig.slice(6)}`;
}

/** The HTTP status an upgrade is answered with, or 101 when it opens. */
function upgradeStatus(url: string, options: WebSocket.ClientOptions = FLOOD): Promise<{ status: number; retryAfter?: string; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/socket', options);
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined });
    });
    ws.once('error', reject);
  });
}

describe('identifyUser floods', () => {
  it('checks at most the per-address budget of tokens from one address and tells the rest to wait; another address still identifies', async () => {
    // On the test's clock, in a process that has run for a minute before this server started:
    // the refusal log's sweep comes 10 s after the server started, not at its first beat.
    const clock = useTestClock();
    await clock.advance(60_000);
    const { logger, lines } = capturedLog();
    const s = await start({ admission: NO_SOCKET_LIMITS, logger });
    const burst = DEFAULT_IDENTIFICATION_LIMITS.perAddress.burst;
    const count = burst * 3;
    const tokens = await Promise.all(Array.from({ length: count }, (_, i) => sign({ sub: USER, jti: String(i) })));
    const clients = await Promise.all(Array.from({ length: count }, () => TestClient.connect(s.url, null, FLOOD)));
    clients.forEach((c, i) => c.send('identifyUser', { userId: USER, accessToken: breakSignature(tokens[i]) }));
    const answers = await Promise.all(clients.map((c) => c.next('error')));
    const codes = answers.map((a) => a.code);
    // every socket is answered; only the address's budget of tokens was verified
    expect(codes.filter((c) => c === 'identify_failed').length).toBeLessThanOrEqual(burst + 1);
    expect(codes.filter((c) => c === 'identify_rate_limited').length).toBeGreaterThanOrEqual(count - burst - 1);
    expect(verifyCalls).toBeLessThanOrEqual(burst + 1);
    // the refusals past the budget are one log line, not one each, until the sweep sums them up
    await clock.advance(1_000);
    expect(lines.filter((l) => l.reason === 'identify_rate_limited')).toHaveLength(1);

    const other = await TestClient.connect(s.url, null, BYSTANDER);
    other.send('identifyUser', { userId: USER, accessToken: await sign({ sub: USER }) });
    expect((await other.next('identified')).playerId).toBe(USER);
    const metrics = await (await fetch(s.url + '/metrics')).text();
    expect(metrics).toMatch(/chess_identifications_total\{outcome="rate_limited"\} [1-9]/);
    await Promise.all([...clients, other].map((c) => c.close()));
  });

  it('verifies one token once however many sockets present it, and a socket presenting it again is not checked again', async () => {
    const s = await start({ admission: NO_SOCKET_LIMITS });
    const token = await sign({ sub: USER });
    const clients = await Promise.all(Array.from({ length: 30 }, () => TestClient.connect(s.url, null, BYSTANDER)));
    for (const c of clients) c.send('identifyUser', { userId: USER, accessToken: token });
    // each newer socket takes the account's seat from the one before; every one was answered
    const answers = await Promise.all(clients.map((c) => c.next('identified')));
    expect(answers.every((a) => a.playerId === USER)).toBe(true);
    expect(verifyCalls).toBe(1);

    const bad = breakSignature(await sign({ sub: USER, jti: 'x' }));
    const c = await TestClient.connect(s.url, null, BYSTANDER);
    for (let i = 0; i < 5; i++) {
      c.send('identifyUser', { userId: USER, accessToken: bad });
      expect((await c.next('error')).code).toBe('identify_failed');
    }
    expect(verifyCalls).toBe(2);
    await Promise.all([...clients, c].map((x) => x.close()));
  });
});

describe('sockets per address', () => {
  it('answers upgrades past the per-address cap with 429 at once, counts them, and lets another address and a freed slot in', async () => {
    const s = await start({ admission: { maxSockets: 0, socketsPerAddress: 5, connectRate: null } });
    const open = await Promise.all(Array.from({ length: 5 }, () => TestClient.connect(s.url, null, FLOOD)));
    const refused = await upgradeStatus(s.url);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    const other = await TestClient.connect(s.url, null, BYSTANDER);
    expect(other.playerId).toMatch(/^player_/);
    await open[0].close();
    const again = await upgradeStatus(s.url);
    expect(again.status).toBe(101);
    again.ws!.close();
    const metrics = await (await fetch(s.url + '/metrics')).text();
    expect(metrics).toMatch(/chess_connections_refused_total\{reason="address_socket_cap"\} 1/);
    expect((await fetch(s.url + '/healthz')).status).toBe(200);
    await Promise.all([...open.slice(1), other].map((c) => c.close()));
  });

  it('holds one address to the default cap however fast it opens sockets, and the game of two of its sockets goes on', async () => {
    const s = await start();
    const game = await pairPlayers(s.url);
    const statuses = await Promise.all(Array.from({ length: 200 }, () => upgradeStatus(s.url)));
    const opened = statuses.filter((r) => r.status === 101);
    const tooMany = statuses.filter((r) => r.status === 429);
    expect(opened.length + tooMany.length).toBe(200);
    expect(opened.length).toBeLessThanOrEqual(60); // the default cap of 50 (and a few refilled tokens)
    expect(tooMany.length).toBeGreaterThanOrEqual(140);
    const moves = await playMoves(game, ['e2e4', 'e7e5']);
    expect(moves[1].nextTurn).toBe('white');
    for (const r of opened) r.ws!.close();
    await Promise.all([game.white.close(), game.black.close()]);
  });

  it('answers upgrades past the server-wide cap with 503 at once, from any address, and /healthz still answers', async () => {
    const s = await start({ admission: { maxSockets: 3, socketsPerAddress: 0, connectRate: null } });
    const open = [await upgradeStatus(s.url, FLOOD), await upgradeStatus(s.url, FLOOD), await upgradeStatus(s.url, BYSTANDER)];
    expect(open.map((r) => r.status)).toEqual([101, 101, 101]);
    const full = await upgradeStatus(s.url, BYSTANDER);
    expect(full.status).toBe(503);
    expect(Number(full.retryAfter)).toBeGreaterThan(0);
    expect((await fetch(s.url + '/healthz')).status).toBe(200);
    open[0].ws!.close();
    await new Promise((resolve) => open[0].ws!.once('close', resolve));
    const again = await upgradeStatus(s.url, BYSTANDER);
    expect(again.status).toBe(101);
    for (const r of [...open.slice(1), again]) r.ws!.close();
  });

  it('caps the server\'s sockets below the process\'s open-file limit by default', () => {
    const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 4096                 files\n';
    expect(socketsTheFdLimitAllows(limits)).toBe(512);
    expect(socketsTheFdLimitAllows('')).toBe(0);
  });

  it('logs one line for a burst of refusals from one address, not one per refusal', async () => {
    const { logger, lines } = capturedLog();
    const s = await start({ admission: { maxSockets: 0, socketsPerAddress: 1, connectRate: null }, logger });
    const kept = await upgradeStatus(s.url);
    const refused = await Promise.all(Array.from({ length: 30 }, () => upgradeStatus(s.url)));
    expect(refused.every((r) => r.status === 429)).toBe(true);
    expect(lines.filter((l) => l.msg === 'connection refused')).toEqual([expect.objectContaining({ address: '127.0.0.1', reason: 'address_socket_cap' })]);
    kept.ws!.close();
  });

  it('counts a socket by the address a trusted proxy forwards, and ignores the header from anyone else', async () => {
    const s = await start({ admission: { maxSockets: 0, socketsPerAddress: 1, connectRate: null }, trustProxy: ['127.0.0.1'] });
    const viaProxy = (client: string) => ({ ...FLOOD, headers: { 'X-Forwarded-For': client } });
    const first = await upgradeStatus(s.url, viaProxy('203.0.113.5'));
    expect(first.status).toBe(101);
    expect((await upgradeStatus(s.url, viaProxy('203.0.113.5'))).status).toBe(429);
    const second = await upgradeStatus(s.url, viaProxy('203.0.113.6'));
    expect(second.status).toBe(101);
    // from an address that is not a proxy the header is the client's own word: not believed
    const direct = await upgradeStatus(s.url, { ...BYSTANDER, headers: { 'X-Forwarded-For': '198.51.100.1' } });
    expect(direct.status).toBe(101);
    expect((await upgradeStatus(s.url, { ...BYSTANDER, headers: { 'X-Forwarded-For': '198.51.100.2' } })).status).toBe(429);
    for (const r of [first, second, direct]) r.ws!.close();
  });
});
