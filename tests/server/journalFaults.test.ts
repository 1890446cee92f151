/**
 * The game journal's disk failing under a real server (in-process, real WebSocket clients), in
 * the default mode (GAME_JOURNAL_SYNC=interval):
 * - a full disk: the move whose write failed waits (it is retried), every other command is refused
 *   with "the server cannot save games right now" and changes nothing, /healthz answers 503; once
 *   the disk has room the waiting move goes out and the game goes on;
 * - a start with the disk full: the server serves anyway, refuses game commands saying so, and
 *   resumes the games once the journal can be compacted;
 * - a power loss (the machine stops: everything not yet synced is gone): the games resume at the
 *   last synced position, both players are shown that position, and play goes on from it.
 * The disk is node:fs with the faults the test gives it (JournalDisk).
 */
import { mkdtempSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentState } from '../../machines/protocol/messages';
import { CANNOT_PLAY_NOW } from '../../server/game/games';
import type { JournalDisk } from '../../server/game/journal';
import type { RunningServer } from '../../server/app';
import { TestClient, pairPlayers, playMoves, startTestServer, type Pair } from './helpers';

const SECRET = 's'.repeat(40);

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function health(url: string): Promise<{ status: number; storage: unknown }> {
  const res = await fetch(`${url}/healthz`);
  return { status: res.status, storage: ((await res.json()) as { storage: unknown }).storage };
}

const uciOf = (s: CurrentState) => s.moves.map((m) => m.from + m.to);

describe('game journal faults', () => {
  it('with the disk full, refuses commands saying the server cannot save games, holds the failed move, and goes on once there is room', async () => {
    let full = false;
    const disk: Partial<JournalDisk> = {
      writeSync(fd, buffer, offset, length, position) {
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        return writeSync(fd, buffer, offset, length, position);
      },
    };
    const server = await startTestServer({ durableDir: mkdtempSync(join(tmpdir(), 'disk-full-')), journalDisk: disk });
    servers.push(server);
    const p = await pairPlayers(server.url);
    await playMoves(p, ['e2e4', 'e7e5']);

    full = true;
    p.white.send('gameMove', { gameId: p.gameId, move: { from: 'g1', to: 'f3' } });
    // the move waits for its write; nobody is told of it
    expect(await p.black.gets('gameMove', 300)).toBe(false);
    expect(await health(server.url)).toEqual({ status: 503, storage: false });
    p.black.send('gameMove', { gameId: p.gameId, move: { from: 'b8', to: 'c6' } });
    expect(await p.black.next('moveRejected')).toMatchObject({ message: CANNOT_PLAY_NOW.message });
    p.white.send('offerDraw', { gameId: p.gameId });
    expect(await p.white.next('error')).toMatchObject({ code: 'unavailable', message: CANNOT_PLAY_NOW.message });

    full = false;
    // the journal retries every second
    const [w, b] = await Promise.all([p.white.next('gameMove', () => true, 5000), p.black.next('gameMove', () => true, 5000)]);
    expect([w.move, b.move]).toEqual([{ from: 'g1', to: 'f3' }, { from: 'g1', to: 'f3' }]);
    expect(await p.black.gets('drawOffer', 300)).toBe(false);
    await playMoves({ ...p, white: p.black, black: p.white }, ['b8c6']);
    expect((await health(server.url)).status).toBe(200);
  }, 30_000);

  it('starts with the disk full: serves, says it cannot save games, and resumes them once there is room', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'disk-full-start-'));
    const first = await startTestServer({ durableDir: dataDir, serverSecret: SECRET });
    servers.push(first);
    const p = await pairPlayers(first.url);
    await playMoves(p, ['e2e4', 'e7e5']);
    await first.close();
    servers = [];

    let full = true;
    const disk: Partial<JournalDisk> = {
      writeSync(fd, buffer, offset, length, position) {
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        return writeSync(fd, buffer, offset, length, position);
      },
    };
    const second = await startTestServer({ durableDir: dataDir, serverSecret: SECRET, journalDisk: disk });
    servers.push(second);
    expect(await health(second.url)).toEqual({ status: 503, storage: false });
    const white = await TestClient.connect(second.url, { playerId: p.white.playerId, secret: p.white.secret });
    const black = await TestClient.connect(second.url, { playerId: p.black.playerId, secret: p.black.secret });
    white.send('gameMove', { gameId: p.gameId, move: { from: 'g1', to: 'f3' } });
    expect(await white.next('moveRejected')).toMatchObject({ message: CANNOT_PLAY_NOW.message });

    full = false;
    // the journal tries its compaction again every second; then the games go on
    for (const c of [white, black]) c.send('rejoinGame', { gameId: p.gameId });
    const [ws] = await Promise.all([white.next('gameStart', () => true, 5000), black.next('gameStart', () => true, 5000)]);
    expect(uciOf(ws.currentState as CurrentState)).toEqual(['e2e4', 'e7e5']);
    await playMoves({ white, black, gameId: p.gameId }, ['g1f3', 'b8c6']);
    expect((await health(second.url)).status).toBe(200);
  }, 30_000);

  it('after a power loss resumes every game at its last synced position, shows both players that position, and plays on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'power-loss-'));
    const file = join(dataDir, 'games', 'journal');
    /** the journal as the disk holds it: the file as it was when the last finished sync began */
    let durable: Buffer | null = null;
    let hold = false;
    let off = false;
    const held: (() => void)[] = [];
    let synced: (() => void) | null = null;
    const disk: Partial<JournalDisk> = {
      writeSync(fd, buffer, offset, length, position) {
        durable ??= readFileSync(file); // compacted and synced at start
        return off ? length : writeSync(fd, buffer, offset, length, position);
      },
      fdatasync(_fd, done) {
        if (off) return setImmediate(() => done(null));
        if (hold) return void held.push(() => done(null));
        durable = readFileSync(file);
        setImmediate(() => {
          done(null);
          synced?.();
        });
      },
    };
    const first = await startTestServer({ durableDir: dataDir, serverSecret: SECRET, journalDisk: disk, journalSyncIntervalMs: 20 });
    servers.push(first);
    const pairs: Pair[] = [];
    for (let i = 0; i < 6; i++) pairs.push(await pairPlayers(first.url, [`W${i}`, `B${i}`]));
    await Promise.all(pairs.map((p) => playMoves(p, ['e2e4', 'e7e5'])));
    // a sync that begins after these moves makes them durable; then the syncs stop
    await new Promise<void>((resolve) => (synced = resolve));
    hold = true;
    // told to both players, written to the operating system, never synced
    await Promise.all(pairs.map((p) => playMoves(p, ['f1c4', 'b8c6'])));

    off = true; // the power goes: what was not synced is gone
    for (const release of held.splice(0)) release();
    await first.close();
    servers = [];
    writeFileSync(file, durable!);

    const second = await startTestServer({ durableDir: dataDir, serverSecret: SECRET });
    servers.push(second);
    for (const p of pairs) {
      const shown: CurrentState[] = [];
      const back: TestClient[] = [];
      for (const old of [p.white, p.black]) {
        const c = await TestClient.connect(second.url, { playerId: old.playerId, secret: old.secret });
        c.send('rejoinGame', { gameId: p.gameId });
        shown.push((await c.next('gameStart')).currentState as CurrentState);
        back.push(c);
      }
      for (const state of shown) {
        expect(uciOf(state)).toEqual(['e2e4', 'e7e5']);
        expect(state.turn).toBe('white');
        // the clocks are the step's at that position: white's runs, black's stands
        expect(state.clocks!.white).toBeLessThanOrEqual(state.clocks!.black + 1);
      }
      expect(shown[0].clocks!.black).toBeCloseTo(shown[1].clocks!.black, 0);
      // the lost moves are played again, from the position both were shown
      await playMoves({ white: back[0], black: back[1], gameId: p.gameId }, ['g1f3', 'b8c6']);
    }
  }, 60_000);
});
