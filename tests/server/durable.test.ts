/**
 * Durable live games with the real server process (server/main.ts as `npm start` runs it, with
 * its default settings: games are journaled under DATA_DIR) and real WebSocket clients: after
 * SIGTERM and after kill -9, a restart resumes every live game; players come back with their
 * saved identity, find the same position, moves and clocks, and play to the end. A damaged
 * record costs only its own game, which ends as aborted.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CurrentState } from '../../machines/protocol/messages';
import { clocksAt, newGameLog, replay, type GameLog } from '../../machines/game';
import { encodeRecord, type JournalRecord } from '../../server/game/journalRecords';
import { recordsOf } from '../../server/game/journalRecovery';
import { GuestIdentity } from '../../server/realtime/identity';
import { TestClient, pairPlayers, playMoves, startTestServer, type Pair } from './helpers';
import { startProcess, type Proc } from './serverProcess';

// Scholar's mate: four plies before the restart, three after.
const BEFORE = ['e2e4', 'e7e5', 'f1c4', 'b8c6'];
const AFTER = ['d1h5', 'g8f6', 'h5f7'];
const PGN_MOVES = '1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#';

interface Seat {
  client: TestClient;
  start: Record<string, unknown>;
}

/** A player back on the restarted server with its saved identity, asking for its game. */
async function comeBack(url: string, old: TestClient, gameId: string): Promise<Seat> {
  const client = await TestClient.connect(url, { playerId: old.playerId, secret: old.secret });
  expect(client.playerId).toBe(old.playerId);
  client.send('rejoinGame', { gameId });
  const start = await client.next('gameStart', () => true, 15_000);
  return { client, start };
}

const jsonLines = (p: Proc) => p.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

async function stop(p: Proc, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  p.child.kill(signal);
  await p.exit;
}

/**
 * A restart takes at least this long (a node process starting and loading the server). The
 * restart tests need no more: a clock charged with the time away would lose about all of it,
 * and they let a resumed clock lose at most half of it.
 */
const MIN_AWAY_MS = 200;

describe('durable live games', () => {
  // the default level, and the strict one (a synced write before each batch's moves go out)
  for (const [signal, sync] of [['SIGTERM', 'interval'], ['SIGKILL', 'interval'], ['SIGKILL', 'always']] as const) {
    it(`resumes 20 live games after ${signal} (GAME_JOURNAL_SYNC=${sync}): same moves and clocks, no time charged for the restart, played to the end`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'durable-'));
      const first = await startProcess({ DATA_DIR: dataDir, GAME_JOURNAL_SYNC: sync });
      const pairs: Pair[] = [];
      for (let i = 0; i < 20; i++) pairs.push(await pairPlayers(first.url, [`W${i}`, `B${i}`]));
      const lastMoves = await Promise.all(pairs.map((p) => playMoves(p, BEFORE)));
      const clocksBefore = lastMoves[0].at(-1)!.clocks as { white: number; black: number };
      const downAt = performance.now();
      await stop(first, signal);
      await Promise.all(pairs.flatMap((p) => [p.white.closed, p.black.closed]));

      const second = await startProcess({ DATA_DIR: dataDir, GAME_JOURNAL_SYNC: sync });
      const resumed: Pair[] = [];
      let awayMs = 0;
      for (const [i, p] of pairs.entries()) {
        const [w, b] = await Promise.all([comeBack(second.url, p.white, p.gameId), comeBack(second.url, p.black, p.gameId)]);
        for (const seat of [w, b]) {
          const state = seat.start.currentState as CurrentState;
          expect(seat.start.gameId).toBe(p.gameId);
          expect(state.moves.map((m) => m.from + m.to)).toEqual(BEFORE);
          expect(state.turn).toBe('white');
        }
        expect(w.start.color).toBe('white');
        if (i === 0) {
          // white's clock runs on the resumed server; the time it was down is not charged to it
          awayMs = performance.now() - downAt;
          const now = (w.start.currentState as CurrentState).clocks!;
          // (a gameMove carries whole milliseconds)
          expect(Math.abs(now.black - clocksBefore.black)).toBeLessThan(1);
          expect(clocksBefore.white - now.white).toBeGreaterThan(-1);
          expect(clocksBefore.white - now.white).toBeLessThan(Math.min(1000, awayMs / 2));
        }
        resumed.push({ white: w.client, black: b.client, gameId: p.gameId });
      }
      expect(awayMs).toBeGreaterThan(MIN_AWAY_MS);

      await Promise.all(resumed.map((p) => playMoves(p, AFTER)));
      const ends = await Promise.all(resumed.flatMap((p) => [p.white.next('gameEnd'), p.black.next('gameEnd')]));
      for (const end of ends) {
        expect(end.reason).toBe('checkmate');
        expect(end.winner).toBe('white');
        expect(end.pgn).toContain(PGN_MOVES);
      }
      const resumedLines = jsonLines(second).filter((l) => l.msg === 'game resumed');
      expect(resumedLines.map((l) => l.gameId).sort()).toEqual(pairs.map((p) => p.gameId).sort());
      await stop(second, 'SIGTERM');
    }, 180_000);
  }

  it("charges a clock the time its node was up after the last move, and none of the time it was down, whatever the old process's time base", async () => {
    // Journals as a node that had run for three hours, and one that had run for a moment, left
    // them: the times are that process's performance.now(), which the new process does not share.
    const key = 'k'.repeat(40);
    const identity = new GuestIdentity(key);
    const logs: { log: GameLog; aliveAt: number }[] = [10_800_000, 5].map((base, i) => {
      const white = `player_white${i}white`;
      const black = `player_black${i}black`;
      const log = newGameLog({ gameId: `game_timebase${i}`, white: { id: white, name: 'W' }, black: { id: black, name: 'B' }, startedAt: base });
      BEFORE.forEach((uci, ply) =>
        log.entries.push({ type: 'MOVE', playerId: ply % 2 ? black : white, move: { from: uci.slice(0, 2), to: uci.slice(2, 4) }, at: base + 1000 * (ply + 1) }),
      );
      return { log, aliveAt: base + 1000 * BEFORE.length + 3000 };
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'durable-'));
    for (const { log, aliveAt } of logs) {
      // one node, with its own journal, per case
      const dir = join(dataDir, log.input.gameId);
      mkdirSync(join(dir, 'games'), { recursive: true });
      const records: JournalRecord[] = [{ k: 'start', input: log.input }, ...log.entries.map((e) => ({ k: 'cmd' as const, g: log.input.gameId, e })), { k: 'alive', at: aliveAt }];
      writeFileSync(join(dir, 'games', 'journal'), records.map(encodeRecord).join(''));
      const state = replay(log);
      // white's clock ran for the 3 s the node was still up after the last move
      const expected = clocksAt(state, aliveAt);
      const server = await startProcess({ DATA_DIR: dir, SERVER_SECRET: key });
      const white = log.input.white.id;
      const c = await TestClient.connect(server.url, { playerId: white, secret: identity.secretFor(white) });
      c.send('rejoinGame', { gameId: log.input.gameId });
      const start = await c.next('gameStart');
      const clocks = (start.currentState as CurrentState).clocks!;
      expect(clocks.black).toBeCloseTo(expected.black, 3);
      // no more than the moments between the resume and this answer
      expect(expected.white - clocks.white).toBeGreaterThanOrEqual(0);
      expect(expected.white - clocks.white).toBeLessThan(500);
      await stop(server, 'SIGTERM');
    }
  }, 60_000);

  it('skips a game whose log is damaged or has a hole, naming it; the others resume and a crash-cut last record is dropped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'durable-'));
    const first = await startProcess({ DATA_DIR: dataDir });
    const pairs: Pair[] = [];
    for (let i = 0; i < 4; i++) pairs.push(await pairPlayers(first.url));
    await Promise.all(pairs.slice(0, 3).map((p) => playMoves(p, ['e2e4', 'e7e5'])));
    await playMoves(pairs[3], BEFORE);
    await stop(first, 'SIGTERM');

    const journal = join(dataDir, 'games', 'journal');
    const victim = pairs[1].gameId;
    const holed = pairs[3].gameId;
    const lines = recordsOf(readFileSync(journal, 'utf8')).split('\n');
    const i = lines.findIndex((l) => l.includes(`"g":"${victim}"`) && l.includes('"from":"e7"'));
    expect(i).toBeGreaterThan(0);
    lines[i] = lines[i].replace('"to":"e5"', '"to":"e6"'); // one changed byte, as a bad disk would
    // the game id inside the third move's record of another game changed: that record names no game now
    const third = lines.findIndex((l) => l.includes(`"g":"${holed}"`) && l.includes('"from":"f1"'));
    lines[third] = lines[third].replace(holed, holed.slice(0, -1) + (holed.endsWith('x') ? 'y' : 'x'));
    // and a write cut short by a crash, in the zeros written ahead of the records
    writeFileSync(journal, lines.join('\n') + `01234567 {"k":"cmd","g":"${pairs[0].gameId}","e":{"ty` + '\0'.repeat(4096));

    const second = await startProcess({ DATA_DIR: dataDir });
    const logged = jsonLines(second);
    expect(logged).toContainEqual(expect.objectContaining({ level: 50, gameId: victim, msg: expect.stringMatching(/damaged.*aborted/) }));
    expect(logged).toContainEqual(expect.objectContaining({ level: 50, gameId: holed, reason: expect.stringMatching(/missing or belongs to another game/), msg: expect.stringMatching(/damaged.*aborted/) }));
    expect(logged.filter((l) => l.msg === 'game log damaged; the game is aborted').map((l) => l.gameId).sort()).toEqual([victim, holed].sort());
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, gameId: pairs[0].gameId, msg: expect.stringMatching(/cut short/) }));
    expect(logged.filter((l) => l.msg === 'game resumed').map((l) => l.gameId).sort()).toEqual([pairs[0].gameId, pairs[2].gameId].sort());

    for (const p of [pairs[0], pairs[2]]) {
      const seat = await comeBack(second.url, p.white, p.gameId);
      expect((seat.start.currentState as CurrentState).moves.map((m) => m.from + m.to)).toEqual(['e2e4', 'e7e5']);
    }
    for (const gameId of [victim, holed]) {
      const p = pairs.find((x) => x.gameId === gameId)!;
      const gone = await TestClient.connect(second.url, { playerId: p.white.playerId, secret: p.white.secret });
      gone.send('rejoinGame', { gameId });
      const end = await gone.next('gameEnd');
      expect(end).toMatchObject({ gameId, reason: 'aborted' });
    }
    await stop(second, 'SIGTERM');
  }, 120_000);
});

describe('journal compaction while running', () => {
  it('keeps the journal to the live games and the ended games not yet archived, and writes nothing nobody reads', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'durable-'));
    // no accounts: nothing to archive to, so an ended game is done with at once
    const server = await startTestServer({ durableDir: dataDir, journalCompactBytes: 3000, serverSecret: 's'.repeat(40) });
    const played: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await pairPlayers(server.url);
      await playMoves(p, [...BEFORE, ...AFTER]);
      await p.white.next('gameEnd');
      played.push(p.gameId);
      await Promise.all([p.white.close(), p.black.close()]);
    }
    const live = await pairPlayers(server.url);
    await playMoves(live, BEFORE);
    expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ ok: true, storage: true });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^chess_game_journal_commit_seconds_count [1-9]/m);
    const written = Number(/^chess_game_journal_bytes_total (\d+)/m.exec(metrics)?.[1]);
    const journal = join(dataDir, 'games', 'journal');
    // while running: the journal far smaller than all that was written, the ended games gone from it
    const onDisk = () => recordsOf(readFileSync(journal, 'utf8'));
    expect(Buffer.byteLength(onDisk())).toBeLessThan(written / 2);
    expect(played.filter((id) => onDisk().includes(`"${id}"`)).length).toBeLessThanOrEqual(2);
    await server.close();

    const again = await startTestServer({ durableDir: dataDir, journalCompactBytes: 3000, serverSecret: 's'.repeat(40) });
    expect(played.filter((id) => onDisk().includes(`"${id}"`))).toEqual([]);
    expect(readdirSync(join(dataDir, 'games'))).toEqual(['journal']);
    const back = await TestClient.connect(again.url, { playerId: live.white.playerId, secret: live.white.secret });
    back.send('rejoinGame', { gameId: live.gameId });
    expect(((await back.next('gameStart')).currentState as CurrentState).moves).toHaveLength(4);
    await again.close();
  }, 60_000);
});
