/**
 * The shared game log (PostgreSQL): a batch of rows goes in with one statement and what waits
 * for it runs once it has committed; a node that lost a game can never add to its log (its row
 * collides with the new owner's and is refused), and it is told which games it lost; a log
 * taken over reads back as it was written, in the reader's time base. Games against the AI are
 * kept in the same table, read back with the others, and fenced the same way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDb, type Db } from '../../server/accounts/db';
import { SharedGameLog, GAME_LOG_TABLE_SQL, DamagedLogError, loadGameLog, loadGameLogs } from '../../server/cluster/sharedLog';
import { FastCounter, FastHistogram } from '../../server/http/metrics';
import { createGame, type GameInput } from '../../machines/game';
import { testSite, type TestSite } from './site';

let site: TestSite;
let db: Db;

afterEach(async () => {
  await db?.close();
  await site?.destroy();
});

async function openLog(onFenced: (games: string[]) => void = () => {}): Promise<SharedGameLog> {
  const metrics = { commitSeconds: new FastHistogram('t_commit', 't', [1]), bytesWritten: new FastCounter('t_bytes', 't') };
  return new SharedGameLog(db, metrics, pino({ level: 'silent' }), onFenced);
}

function input(gameId: string): GameInput {
  return {
    gameId,
    white: { id: 'w', name: 'White' },
    black: { id: 'b', name: 'Black' },
    clockMs: 600_000,
    firstMoveDeadlineMs: 30_000,
    graceMs: { guest: 40_000, account: 80_000 },
    lag: { perMoveCapMs: 1000, initialBankMs: 3000, bankCapMs: 7000 },
    startedAt: performance.now(),
  };
}

const committed = (log: SharedGameLog) => new Promise<void>((resolve) => log.afterCommit(resolve));

describe('the shared game log', () => {
  it('reads back what was written, and refuses a second writer of the same rows, naming the game', async () => {
    site = testSite();
    db = await openDb({ dataDir: '/nonexistent', databaseUrl: site.options.databaseUrl, schema: site.options.databaseSchema });
    await db.exec(GAME_LOG_TABLE_SQL);
    createGame(input('g1')); // the input is one the core accepts
    const owner = await openLog();
    owner.started(input('g1'));
    owner.command('g1', { type: 'MOVE', playerId: 'w', move: { from: 'e2', to: 'e4' }, at: performance.now() });
    await committed(owner);
    const loaded = await loadGameLog(db, 'g1', 0);
    expect(loaded?.log.entries.map((e) => e.type)).toEqual(['MOVE']);
    expect(loaded?.result).toBeNull();

    // a node that took the game over writes the next row; the old owner's row for the same place is refused
    const lost: string[][] = [];
    const stale = await openLog((games) => lost.push(games));
    stale.adopt('g1', 1);
    const taker = await openLog();
    taker.adopt('g1', 1);
    taker.command('g1', { type: 'MOVE', playerId: 'b', move: { from: 'e7', to: 'e5' }, at: performance.now() });
    await committed(taker);
    stale.command('g1', { type: 'RESIGN', playerId: 'b', at: performance.now() });
    await committed(stale);
    expect(lost).toEqual([['g1']]);
    const after = await loadGameLog(db, 'g1', 0);
    expect(after?.log.entries.map((e) => e.type)).toEqual(['MOVE', 'MOVE']);
  });
});

describe('a damaged shared game log', () => {
  it("ends a game whose row was edited or carries another game's row, and reads rows older than the checksum", async () => {
    site = testSite();
    db = await openDb({ dataDir: '/nonexistent', databaseUrl: site.options.databaseUrl, schema: site.options.databaseSchema });
    await db.exec(GAME_LOG_TABLE_SQL);
    const log = await openLog();
    for (const id of ['g1', 'g2', 'g3']) {
      log.started(input(id));
      log.command(id, { type: 'MOVE', playerId: 'w', move: { from: 'e2', to: 'e4' }, at: performance.now() });
      log.command(id, { type: 'MOVE', playerId: 'b', move: { from: 'e7', to: 'e5' }, at: performance.now() });
    }
    await committed(log);
    // g1: a move changed in place
    await db.query(`UPDATE game_log SET body = jsonb_set(body, '{move,to}', '"e3"') WHERE game_id = 'g1' AND seq = 1`);
    // g2's last move moved to the end of g3's log, a legal move there
    await db.query(`UPDATE game_log SET game_id = 'g3', seq = 3 WHERE game_id = 'g2' AND seq = 2`);
    await db.query(`UPDATE game_log SET body = jsonb_set(body, '{move}', '{"from":"g1","to":"f3"}'), sum = NULL WHERE game_id = 'g2' AND seq = 1`);
    const [g1, g2, g3] = await loadGameLogs(db, ['g1', 'g2', 'g3'], 0);
    expect(g1).toBeInstanceOf(DamagedLogError);
    expect((g1 as DamagedLogError).message).toMatch(/row 1 does not match its checksum/);
    expect((g1 as DamagedLogError).players?.white.id).toBe('w');
    expect(g3).toBeInstanceOf(DamagedLogError);
    expect((g3 as DamagedLogError).message).toMatch(/row 3 does not match its checksum/);
    // a row without a checksum (written before it existed) is read as it is
    expect(g2 && !(g2 instanceof Error) && 'log' in g2 ? g2.log.entries.map((e) => (e.type === 'MOVE' ? e.move.to : e.type)) : g2).toEqual(['f3']);
  });
});

describe('games against the AI of an older shared game log', () => {
  const game = { playerId: 'player_abcdefgh', playerColor: 'white' as const, difficulty: 3 };

  /** The rows an older node wrote for a game against the AI (its own record kinds), written as that node did, one after another. */
  function oldAiRows(log: SharedGameLog, gameId: string, rows: Record<string, unknown>[]): void {
    log.adopt(gameId, -1);
    for (const row of rows) log.command(gameId, row as never);
  }

  it('reads a live one as an ordinary game log the engine plays, an ended one as nothing to do, beside a multiplayer game', async () => {
    site = testSite();
    db = await openDb({ dataDir: '/nonexistent', databaseUrl: site.options.databaseUrl, schema: site.options.databaseSchema });
    await db.exec(GAME_LOG_TABLE_SQL);
    const log = await openLog();
    log.started(input('g1'));
    oldAiRows(log, 'ai_1', [{ k: 'ai', g: 'ai_1', ...game }, { k: 'aimove', g: 'ai_1', uci: 'e2e4' }, { k: 'aimove', g: 'ai_1', uci: 'e7e5' }]);
    oldAiRows(log, 'ai_2', [{ k: 'ai', g: 'ai_2', ...game }, { k: 'aiend', g: 'ai_2' }]);
    await committed(log);
    const [multi, live, ended, none] = await loadGameLogs(db, ['g1', 'ai_1', 'ai_2', 'ai_3'], 0);
    expect(multi && !(multi instanceof Error) ? multi.log.input.gameId : null).toBe('g1');
    if (!live || live instanceof Error) throw new Error('the live game against the AI was not read');
    expect(live.result).toBeNull();
    expect(live.log.input).toMatchObject({ gameId: 'ai_1', untimed: true, white: { id: game.playerId }, black: { engine: { level: 3 } } });
    expect(live.log.entries.map((e) => (e.type === 'MOVE' ? `${e.playerId}:${e.move.from}${e.move.to}` : e.type))).toEqual([
      `${game.playerId}:e2e4`,
      `engine_ai_1:e7e5`,
    ]);
    expect(ended).toBeNull();
    expect(none).toBeNull();
  });

  it('reports a damaged one', async () => {
    site = testSite();
    db = await openDb({ dataDir: '/nonexistent', databaseUrl: site.options.databaseUrl, schema: site.options.databaseSchema });
    await db.exec(GAME_LOG_TABLE_SQL);
    const log = await openLog();
    oldAiRows(log, 'ai_1', [{ k: 'ai', g: 'ai_1', ...game }, { k: 'aimove', g: 'ai_1', uci: 'e2e4' }, { k: 'aimove', g: 'ai_1', uci: 'e7e5' }]);
    await committed(log);
    await db.query('DELETE FROM game_log WHERE game_id = $1 AND seq = 1', ['ai_1']);
    const [damaged] = await loadGameLogs(db, ['ai_1'], 0);
    expect(damaged).toBeInstanceOf(DamagedLogError);
    expect(damaged instanceof DamagedLogError ? damaged.message : null).toBe('game ai_1: row 1 is missing from the log');
  });
});
