/**
 * Games against the AI on a site of several nodes, with the real AI service (Stockfish, short
 * searches): a node killed with SIGKILL (a server process of its own) or stopped (SIGTERM-style
 * close) has its AI games taken over by another node within the lease; their players, back on
 * the node that took them or on a third node whose socket forwards to it, find the same moves and
 * play on, the AI answers, and the game ends. An AI game whose log is damaged ends as aborted
 * and the others go on. While its node lives, a game follows its player to a socket on another node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { RunningServer, StartServerOptions } from '../../server/app';
import { quickAi } from '../ai/quickAi';
import { replay } from '../../machines/ai/position';
import type { CurrentState, WireMove } from '../../machines/protocol/messages';
import { REPLACED_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import { TestClient, startTestServer, type Msg } from '../server/helpers';
import { killProcess, startProcess, type Proc } from '../server/serverProcess';
import { SITE_SECRET, nodeEnv } from './balancedSite';
import { testSite, type TestSite } from './site';
import { capturedLog, type LogLine } from '../support/capturedLog';

/** the lease (3 s) and one beat of the node that takes the games over, with room for a loaded machine */
const TAKEOVER_WITHIN_MS = 5_000;
/** the players' reconnections come on top of the takeover, and the test machine may be loaded: they are only bounded above */
const BACK_WITHIN_MS = 10_000;

let site: TestSite | undefined;
let dataDir: string | undefined;
const servers: RunningServer[] = [];
const procs: Proc[] = [];
const clients: TestClient[] = [];
/** every node's log lines, by node, for the report of a failed test */
const nodeLogs: { name: string; lines: () => readonly unknown[] }[] = [];

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') reportNodeLogs();
  nodeLogs.length = 0;
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const p of procs.splice(0)) await killProcess(p);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await site?.destroy();
});

/** What the nodes said that bears on a failure: warnings, refusals, takeovers, leases. */
function reportNodeLogs(): void {
  const notable = /"level":[4-6]0|rejected|refused|taken over|dropped|lease|damaged/;
  for (const { name, lines } of nodeLogs) {
    const said = lines().map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).filter((l) => notable.test(l));
    console.error(`node ${name}:\n${said.slice(-40).join('\n')}`);
  }
}

/** A node of the site in this process, with the AI; `lines` gets its log lines. */
async function node(given: LogLine[] = []): Promise<RunningServer> {
  const { logger, lines } = capturedLog({ level: 'info' }, given);
  const opts: StartServerOptions = {
    cluster: site!.options,
    serverSecret: SITE_SECRET,
    logger,
    graceMs: 60_000,
    ai: quickAi(),
  };
  const server = await startTestServer(opts);
  servers.push(server);
  nodeLogs.push({ name: server.url, lines: () => lines });
  return server;
}

/** A node of the site as a server process of its own (it can be killed), with the AI. */
async function processNode(): Promise<Proc> {
  dataDir = mkdtempSync(join(tmpdir(), 'ai-takeover-'));
  const p = await startProcess({
    ...nodeEnv(site!, dataDir),
    AI_ENABLED: '1',
    AI_POOL_SIZE: '1',
    AI_REPLY_DELAY_MS: '0-5',
    AI_MAX_MOVETIME_MS: '50',
    GRACE_GUEST_SECONDS: '60',
  });
  procs.push(p);
  nodeLogs.push({ name: `${p.url} (process)`, lines: () => p.lines });
  return p;
}

async function connect(url: string, again?: TestClient): Promise<TestClient> {
  const c = await TestClient.connect(url, again ?? null);
  clients.push(c);
  return c;
}

const uci = (m: WireMove) => `${m.from}${m.to}${m.promotion ?? ''}`;

/** An AI game started by `player` (white), with its id. */
async function startAiGame(player: TestClient): Promise<string> {
  player.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
  const created = await player.next('gameCreated');
  await player.next('gameStart', (m) => m.gameId === created.gameId);
  return created.gameId as string;
}

/**
 * The move the player makes after `history`: `wanted` when it is legal there, else the first
 * legal move (the AI at the lowest level answers at random, and may have given check).
 */
function playable(history: readonly string[], wanted: string): string {
  const legal = replay(history).legalMoves();
  return legal.includes(wanted) ? wanted : legal[0]!;
}

/** The player's move after `history` (`wanted` if legal) and the AI's answer: both, in UCI. */
async function moveAndAnswer(player: TestClient, gameId: string, history: readonly string[], wanted: string): Promise<string[]> {
  const move = playable(history, wanted);
  player.send('gameMove', { gameId, move: { from: move.slice(0, 2), to: move.slice(2, 4), ...(move[4] ? { promotion: move[4] } : {}) } });
  // the engine's move: after it, the player (white) is to move
  const made = await player.next('gameMove', (m) => m.gameId === gameId && m.nextTurn === 'white', 10_000);
  return [move, uci(made.move as WireMove)];
}

/** The player's moves (each `wanted` if legal) and the AI's answers, from the start, in UCI. */
async function play(player: TestClient, gameId: string, wanted: string[]): Promise<string[]> {
  const played: string[] = [];
  for (const m of wanted) played.push(...(await moveAndAnswer(player, gameId, played, m)));
  return played;
}

/** The moves of a gameStart's position. */
const movesOf = (start: Msg) => (start.currentState as CurrentState).moves.map(uci);

/** The player resigns; they are told the game is over. */
async function resign(player: TestClient, gameId: string): Promise<void> {
  player.send('resign', { gameId });
  expect(await player.next('gameEnd', (m) => m.gameId === gameId, 10_000)).toMatchObject({ reason: 'resignation', winner: 'black' });
}

async function metric(server: RunningServer, name: string): Promise<number> {
  const text = await (await fetch(server.url + '/metrics')).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

describe('a game against the AI across nodes', () => {
  it('follows its player to a newer socket on another node, which plays it through Redis to the end', async () => {
    site = testSite();
    const [a, b] = [await node(), await node()];
    const player = await connect(a.url);
    const gameId = await startAiGame(player);
    const before = await play(player, gameId, ['e2e4']);
    // the player opens a newer socket on node b while a still plays the game: a's socket is replaced
    const again = await connect(b.url, player);
    expect(await player.closed).toMatchObject({ code: REPLACED_CLOSE_CODE });
    // as in every game, the newer socket asks for the game it plays
    again.send('rejoinGame', { gameId });
    const start = await again.next('gameStart', (m) => m.gameId === gameId, 10_000);
    expect(movesOf(start)).toEqual(before);
    expect(await moveAndAnswer(again, gameId, before, 'g1f3')).toHaveLength(2);
    // a search on node b is refused naming the game as one against the AI (its owner told b)
    again.send('findGame', { username: 'Ann' });
    expect(await again.next('matchmakingStatus', () => true, 10_000)).toMatchObject({ status: 'idle', activeGame: { gameId, vsAi: true } });
    // node a plays it all along
    expect([await metric(a, 'chess_ai_games'), await metric(b, 'chess_ai_games')]).toEqual([1, 0]);
    await resign(again, gameId);
  }, 30_000);
});

describe('games against the AI of a node that dies', () => {
  it('are taken over within the lease after SIGKILL; the player plays on, on that node or through a third one; a damaged one is aborted', async () => {
    site = testSite();
    const a = await processNode();
    const bLines: LogLine[] = [];
    const b = await node(bLines);
    // three players on node a, each with a game against the AI
    const [p1, p2, p3] = [await connect(a.url), await connect(a.url), await connect(a.url)];
    const g1 = await startAiGame(p1);
    const before1 = await play(p1, g1, ['e2e4', 'g1f3']);
    const g2 = await startAiGame(p2);
    const before2 = await play(p2, g2, ['d2d4']);
    const g3 = await startAiGame(p3);
    await play(p3, g3, ['c2c4']);
    // the third game's log loses a row, as a damaged store would
    const db = new pg.Client({ connectionString: site.options.databaseUrl });
    await db.connect();
    const deleted = await db.query(`DELETE FROM "${site.options.databaseSchema}".game_log WHERE game_id = $1 AND seq = 1`, [g3]);
    await db.end();
    expect(deleted.rowCount).toBe(1);

    a.child.kill('SIGKILL');
    await a.exit;
    // the first and third players come back through the balancer on node b at once: their games
    // are found there once b has taken them over
    const [back1, back3] = [await connect(b.url, p1), await connect(b.url, p3)];
    const start1 = await back1.next('gameStart', (m) => m.gameId === g1, BACK_WITHIN_MS);
    expect(start1).toMatchObject({ color: 'white' });
    expect(movesOf(start1)).toEqual(before1);
    expect(await back3.next('gameEnd', (m) => m.gameId === g3, BACK_WITHIN_MS)).toMatchObject({ reason: 'aborted', winner: 'draw' });

    // the takeover itself, as b logs it: from a's last renewal of its lease to the game playing again
    const takenOver = bLines.filter((l) => l.msg === 'game taken over');
    expect(takenOver.map((l) => l.gameId).sort()).toEqual([g1, g2].sort());
    for (const t of takenOver) expect(t.awayMs).toBeLessThan(TAKEOVER_WITHIN_MS);
    expect(bLines.find((l) => l.msg === 'game log damaged; the game is aborted')).toMatchObject({ gameId: g3 });
    expect(await metric(b, 'chess_games_taken_over_total')).toBe(2);

    // the first player plays on where b plays the game, to its end
    const after1 = await moveAndAnswer(back1, g1, before1, 'f1c4');
    expect(after1).toHaveLength(2);
    await resign(back1, g1);

    // the second player comes back on a third node, whose socket forwards to b
    const c = await node();
    const back2 = await connect(c.url, p2);
    const start2 = await back2.next('gameStart', (m) => m.gameId === g2, BACK_WITHIN_MS);
    expect(movesOf(start2)).toEqual(before2);
    expect(await moveAndAnswer(back2, g2, before2, 'c2c4')).toHaveLength(2);
    // a move that is not legal is refused by b, and the player on c is told
    back2.send('playerMoveAI', { gameId: g2, move: { from: 'e1', to: 'e5' } });
    expect(await back2.next('moveRejected', (m) => m.gameId === g2, 10_000)).toBeTruthy();
    await resign(back2, g2);
    // the game is over on the site: the player may start a new one, here on c
    back2.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    expect((await back2.next('gameCreated', () => true, 10_000)).gameId).not.toBe(g2);
  }, 60_000);

  it('are handed over when a node stops (SIGTERM-style close), and play on from the same moves', async () => {
    site = testSite();
    const a = await node();
    const bLines: LogLine[] = [];
    const b = await node(bLines);
    const player = await connect(a.url);
    const gameId = await startAiGame(player);
    const before = await play(player, gameId, ['e2e4', 'd2d4']);
    await servers.shift()!.close();
    expect(await player.next('serverShutdown')).toBeTruthy();
    const back = await connect(b.url, player);
    const start = await back.next('gameStart', (m) => m.gameId === gameId, BACK_WITHIN_MS);
    expect(movesOf(start)).toEqual(before);
    expect(await moveAndAnswer(back, gameId, before, 'g1f3')).toHaveLength(2);
    await resign(back, gameId);
    expect(bLines.filter((l) => l.msg === 'game taken over').map((l) => l.gameId)).toEqual([gameId]);
    expect(await metric(b, 'chess_games_taken_over_total')).toBe(1);
  }, 30_000);
});
