/**
 * The XState inspector end to end: the server started as an operator starts it with INSPECT=1
 * prints its relay's address; viewers connected to the relay read the game actor's registration,
 * its events (the moves) and its small snapshots, the engine seat's machine of an AI game, and a viewer
 * who joins late is first sent every running actor (only one game's with `?game=`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../server/config';
import { pairPlayers, playMoves, type Pair } from './helpers';
import { TestClient as AiClient } from '../ai/helpers';
import { killProcess, startProcess, type Proc } from './serverProcess';

/** The parts of an inspection message (@statelyai/inspect's StatelyInspectionEvent) the test reads. */
interface Message {
  type: '@xstate.actor' | '@xstate.event' | '@xstate.snapshot';
  sessionId: string;
  name?: string;
  definition?: string;
  event?: { type: string; move?: unknown };
  snapshot?: { status?: string; value?: unknown; context?: Record<string, unknown> };
}

/** A viewer of the relay: every message it was sent, in order. */
class Viewer {
  readonly messages: Message[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(String(data)) as Message));
  }

  static async open(url: string): Promise<Viewer> {
    const viewer = new Viewer(new WebSocket(url));
    await new Promise((resolve, reject) => viewer.ws.once('open', resolve).once('error', reject));
    return viewer;
  }

  /** The actor registered under this name. */
  actor(name: string): Message | undefined {
    return this.messages.find((m) => m.type === '@xstate.actor' && m.name === name);
  }

  of(sessionId: string, type: Message['type']): Message[] {
    return this.messages.filter((m) => m.sessionId === sessionId && m.type === type);
  }
}

let proc: Proc | undefined;
const open: { close(): void }[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  if (proc) await killProcess(proc);
  proc = undefined;
});

/** The relay's address as the server printed it. */
function relayAddress(p: Proc): string {
  const line = p.lines.map((l) => JSON.parse(l) as { msg?: string; url?: string }).find((j) => j.msg?.startsWith('XState inspector: open '));
  if (!line?.url) throw new Error(`no relay address in the log:\n${p.lines.join('\n')}`);
  return line.url;
}

const viewerUrl = (page: string, query = '') => `${page.replace(/^http/, 'ws')}${query}`;

async function viewer(page: string, query = ''): Promise<Viewer> {
  const v = await Viewer.open(viewerUrl(page, query));
  open.push(v.ws);
  return v;
}

function closeAfter(pair: Pair): Pair {
  open.push(pair.white.ws, pair.black.ws);
  return pair;
}

describe('XState inspector settings', () => {
  it('INSPECT=1 is a relay on this machine; a ws:// URL is a relay elsewhere; anything else is refused', () => {
    expect(loadConfig({ INSPECT: '1' }).inspect).toEqual({ relay: { host: '127.0.0.1', port: 8080 } });
    expect(loadConfig({ INSPECT: 'true', INSPECT_PORT: '3401', INSPECT_HOST: '0.0.0.0' }).inspect).toEqual({ relay: { host: '0.0.0.0', port: 3401 } });
    expect(loadConfig({ INSPECT: 'ws://10.0.0.5:8080/publish' }).inspect).toEqual({ url: 'ws://10.0.0.5:8080/publish' });
    expect(loadConfig({}).inspect).toBeNull();
    expect(loadConfig({ INSPECT: '0' }).inspect).toBeNull();
    expect(() => loadConfig({ INSPECT: 'http://example.org' })).toThrow(/INSPECT must be 1 \(a relay on this node\) or the ws:\/\/ or wss:\/\/ URL of a relay/);
    expect(() => loadConfig({ INSPECT: '1', INSPECT_PORT: 'x' })).toThrow(/INSPECT_PORT must be a whole number/);
  });
});

describe('XState inspector relay (INSPECT=1)', () => {
  it('streams a played game and an AI game to viewers; a late viewer is sent the running actors first', async () => {
    proc = await startProcess({
      INSPECT: '1', INSPECT_PORT: '0',
      AI_ENABLED: '1', AI_POOL_SIZE: '1', AI_REPLY_DELAY_MS: '0', AI_MAX_MOVETIME_MS: '50',
    });
    const page = relayAddress(proc);
    expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    // the page to open: the Stately inspector in a frame, fed by the relay's socket
    const html = await (await fetch(page)).text();
    expect(html).toContain('<iframe id="inspector" src="https://stately.ai/inspect">');
    expect(html).toContain('@statelyai.connected');

    const early = await viewer(page);
    const pair = closeAfter(await pairPlayers(proc.url));
    await playMoves(pair, ['e2e4', 'e7e5']);
    const name = `game ${pair.gameId}`;
    await expect.poll(() => early.actor(name)?.sessionId).toBeDefined();
    const game = early.actor(name)!.sessionId;
    await expect.poll(() => early.of(game, '@xstate.event').filter((m) => m.event?.type === 'MOVE').length).toBe(2);
    // the moves as the game was told them
    expect(early.of(game, '@xstate.event').filter((m) => m.event?.type === 'MOVE').map((m) => m.event?.move)).toEqual([
      { from: 'e2', to: 'e4' },
      { from: 'e7', to: 'e5' },
    ]);
    // each snapshot is the step's state without the game's history: the ply and the last move
    await expect.poll(() => early.of(game, '@xstate.snapshot').at(-1)?.snapshot?.context?.ply).toBe(2);
    const last = early.of(game, '@xstate.snapshot').at(-1)!.snapshot!.context!;
    expect(last).toMatchObject({ gameId: pair.gameId, turn: 'white', lastMove: 'e7e5', result: null });
    expect(last).not.toHaveProperty('moves');
    expect(last).not.toHaveProperty('positions');
    expect(early.actor('matchmaking pool')).toBeDefined();

    // an AI game: an ordinary game, and the engine's seat machine with its definition (the statechart the inspector draws)
    const ai = await AiClient.connect(proc.port);
    open.push(ai.ws);
    ai.send('startAIGame', { options: { difficulty: 1, playerColor: 'white' } });
    const created = await ai.next('gameCreated');
    const aiName = `engine seat ${String(created.gameId)}`;
    await expect.poll(() => early.actor(aiName)).toBeDefined();
    expect(JSON.parse(early.actor(aiName)!.definition!)).toMatchObject({ id: 'engineSeat' });
    await expect.poll(() => early.actor(`game ${String(created.gameId)}`)).toBeDefined();

    // a late viewer of the whole node: every running actor, registration then latest snapshot
    const late = await viewer(page);
    await expect.poll(() => late.actor(name) !== undefined && late.actor(aiName) !== undefined && late.actor('matchmaking pool') !== undefined).toBe(true);
    const lateGame = late.messages.filter((m) => m.sessionId === game);
    expect(lateGame.map((m) => m.type).slice(0, 2)).toEqual(['@xstate.actor', '@xstate.snapshot']);
    expect(lateGame[1]!.snapshot!.context).toMatchObject({ ply: 2, lastMove: 'e7e5' });

    // a late viewer of one game: that game's actors only, and its next moves
    const one = await viewer(page, `?game=${encodeURIComponent(pair.gameId)}`);
    await expect.poll(() => one.messages.length).toBeGreaterThanOrEqual(2);
    await playMoves(pair, ['g1f3']);
    await expect.poll(() => one.of(game, '@xstate.event').map((m) => m.event?.type)).toContain('MOVE');
    expect(new Set(one.messages.map((m) => m.sessionId))).toEqual(new Set([game]));
  }, 60_000);
});
