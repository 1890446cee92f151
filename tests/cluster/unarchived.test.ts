/**
 * Several nodes: a game that ended while the database's archive writes failed, on a node that
 * then left, is archived by the site (real Redis, real PostgreSQL, the real archive in the
 * site's schema): the other node's sweep and a restarted node's sweep both find it in the shared
 * game log, and it is stored once. The outage is the archive's store failing as a refused
 * connection would (the test's fault).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { openDb, type Db } from '../../server/accounts/db';
import { migrate } from '../../server/accounts/migrate';
import { createArchive, type Archive } from '../../server/archive/index';
import { TestClient, playMoves, startTestServer } from '../server/helpers';
import { tokenAccounts } from '../server/tokenAccounts';
import { DATABASE_URL, testSite, type TestSite } from './site';

let site: TestSite | undefined;
let db: Db | undefined;
let servers: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await db?.close();
  await site?.destroy();
});

describe('ended games without an archive row on a site of several nodes', () => {
  it('are archived by the other node and a restarted one, once', async () => {
    site = testSite();
    db = await openDb({ dataDir: mkdtempSync(join(tmpdir(), 'unarchived-')), databaseUrl: DATABASE_URL, schema: site.options.databaseSchema });
    await migrate(db);
    const real = createArchive(db, pino({ level: 'silent' }), async () => null);
    let down = true;
    let stored = 0;
    const archive: Archive = {
      ...real,
      store: async (game) => {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        const r = await real.store(game);
        if (r.stored) stored++;
        return r;
      },
    };
    const { accounts } = await tokenAccounts();
    const node = () => startTestServer({ cluster: site!.options, serverSecret: 'x'.repeat(32), accounts: { ...accounts, archive }, unarchivedSweepMs: 300 });
    const a = await node();
    const b = await node();
    servers = [a, b];

    // both players on a: a plays the game
    const white = await TestClient.connect(a.url);
    const black = await TestClient.connect(a.url);
    white.send('findGame', { username: 'W' });
    await white.next('matchmakingStatus', (m) => m.status === 'queued');
    black.send('findGame', { username: 'B' });
    const [start] = await Promise.all([white.next('gameStart'), black.next('gameStart')]);
    const gameId = start.gameId as string;
    const pair = start.color === 'white' ? { white, black, gameId } : { white: black, black: white, gameId };
    await playMoves(pair, ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
    await pair.white.next('gameEnd');
    // a leaves before the database is back
    await a.close();
    servers = [b];
    down = false;

    const restarted = await node();
    servers.push(restarted);
    const found = async () => (await db!.query<{ id: string }>('SELECT id FROM games WHERE id = $1', [gameId])).length;
    for (let i = 0; i < 100 && (await found()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await found()).toBe(1);
    // a few more sweeps of both nodes: nothing stored again
    await new Promise((r) => setTimeout(r, 1000));
    expect(stored).toBe(1);
  }, 60_000);
});
