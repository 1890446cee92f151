/**
 * `npm run bench:lobby`: the bytes the lobby of custom games sends per change, on the real server
 * with real WebSocket clients. WATCHERS sockets follow the lobby while HOOKS players each have a
 * game in it; then CHANGES changes take turns (a game cancelled, posted again, replaced by
 * another). Each watcher's list is kept from the whole list and the changes, as the browser keeps
 * it, and checked against the list a new watcher gets at the end. Printed per kind of change: the
 * bytes sent (frame payloads, all watchers) and frames per watcher, beside the bytes the old way
 * would have sent (the whole list, `lobbyHooks`, to every watcher on every change), and the ratio.
 *
 *   WATCHERS=200 HOOKS=100 CHANGES=30 npm run bench:lobby
 */
import pino from 'pino';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../app';
import type { Hook, ServerMessage } from '../../../machines/protocol/messages';
import { applyLobbyChange } from '../../../machines/lobby/listing';

const WATCHERS = Number(process.env.WATCHERS ?? 200);
const HOOKS = Number(process.env.HOOKS ?? 100);
const CHANGES = Number(process.env.CHANGES ?? 30);
const KINDS = ['cancelled', 'posted', 'replaced'] as const;
type Kind = (typeof KINDS)[number];
const out = (s: string) => process.stdout.write(`${s}\n`);

/** A socket of the bench: its player, and (watching) its list of the lobby and the lobby bytes it got. */
class Socket {
  playerId = '';
  hooks: Hook[] = [];
  lobbyBytes = 0;
  lobbyFrames = 0;
  private waiters: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {}

  static async open(url: string): Promise<Socket> {
    const s = new Socket(new WebSocket(url.replace(/^http/, 'ws') + '/socket'));
    await new Promise<void>((resolve, reject) => {
      s.ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as ServerMessage;
        if (m.type === 'connectionAck') {
          s.playerId = m.playerId;
          resolve();
        }
        s.take(m, data.length);
      });
      s.ws.once('error', reject);
    });
    return s;
  }

  private take(m: ServerMessage, bytes: number): void {
    if (m.type === 'lobbyHooks') this.hooks = m.hooks;
    else if (m.type === 'lobbyHooksChanged') this.hooks = applyLobbyChange(this.hooks, m);
    else return;
    this.lobbyBytes += bytes;
    this.lobbyFrames++;
    this.waiters.splice(0).forEach((w) => w());
  }

  /** Resolves once this socket's list satisfies `pred`. */
  async until(pred: (hooks: Hook[]) => boolean): Promise<void> {
    while (!pred(this.hooks)) await new Promise<void>((r) => this.waiters.push(r));
  }

  send(type: string, payload?: unknown): void {
    this.ws.send(JSON.stringify(payload === undefined ? { type } : { type, payload }));
  }
}

const post = (s: Socket, initial: number) => s.send('postHook', { options: { timeControl: { initial, increment: 0 }, rated: false, color: 'random' }, username: `Player ${s.playerId.slice(-6)}` });
const hookOf = (hooks: Hook[], s: Socket) => hooks.find((h) => h.by.id === s.playerId);

/** One change of kind `kind` by `poster`, and the list every watcher holds once it has arrived. */
async function change(kind: Kind, poster: Socket, watchers: Socket[]): Promise<void> {
  const before = hookOf(watchers[0].hooks, poster)?.id;
  if (kind === 'cancelled') poster.send('cancelHook');
  else post(poster, kind === 'posted' ? 180 : 300);
  const arrived = (hooks: Hook[]) => {
    const now = hookOf(hooks, poster);
    return kind === 'cancelled' ? !now : now !== undefined && now.id !== before;
  };
  await Promise.all(watchers.map((w) => w.until(arrived)));
}

async function main(): Promise<void> {
  const server: RunningServer = await startServer({
    port: 0, host: '127.0.0.1', staticDir: '/nonexistent', logger: pino({ level: 'error' }),
    admission: { maxSockets: 0, socketsPerAddress: 0, connectRate: null },
  });
  const watchers: Socket[] = [];
  const posters: Socket[] = [];
  try {
    for (let i = 0; i < WATCHERS; i++) watchers.push(await Socket.open(server.url));
    for (let i = 0; i < HOOKS; i++) posters.push(await Socket.open(server.url));
    for (const w of watchers) w.send('watchLobby');
    await Promise.all(watchers.map((w) => w.until(() => w.lobbyFrames > 0)));
    posters.forEach((p, i) => post(p, 60 + i));
    await Promise.all(watchers.map((w) => w.until((h) => h.length === HOOKS)));

    const rows = new Map<Kind, { changes: number; bytes: number; frames: number; oldBytes: number }>(KINDS.map((k) => [k, { changes: 0, bytes: 0, frames: 0, oldBytes: 0 }]));
    for (let i = 0; i < CHANGES; i++) {
      const kind = KINDS[i % KINDS.length];
      const bytes = watchers.reduce((n, w) => n + w.lobbyBytes, 0);
      const frames = watchers.reduce((n, w) => n + w.lobbyFrames, 0);
      await change(kind, posters[Math.floor(i / KINDS.length) % posters.length], watchers);
      const row = rows.get(kind)!;
      row.changes++;
      row.bytes += watchers.reduce((n, w) => n + w.lobbyBytes, 0) - bytes;
      row.frames += watchers.reduce((n, w) => n + w.lobbyFrames, 0) - frames;
      // the old way: the whole list as it is now, to every watcher
      row.oldBytes += watchers.reduce((n, w) => n + Buffer.byteLength(JSON.stringify({ type: 'lobbyHooks', hooks: w.hooks } satisfies ServerMessage)), 0);
    }

    const fresh = await Socket.open(server.url);
    fresh.send('watchLobby');
    await fresh.until(() => fresh.lobbyFrames > 0);
    const differing = watchers.filter((w) => JSON.stringify(w.hooks) !== JSON.stringify(fresh.hooks)).length;
    fresh.ws.close();

    out(`lobby of ${HOOKS} custom games, ${WATCHERS} watchers, ${CHANGES} changes (whole list: ${Buffer.byteLength(JSON.stringify({ type: 'lobbyHooks', hooks: fresh.hooks })).toLocaleString('en')} bytes)`);
    out('| change | count | bytes per change, all watchers | frames per watcher | old way (whole list) bytes | old / new |');
    out('| --- | --- | --- | --- | --- | --- |');
    let bytes = 0;
    let oldBytes = 0;
    for (const [kind, r] of rows) {
      if (r.changes === 0) continue;
      bytes += r.bytes;
      oldBytes += r.oldBytes;
      out(`| ${kind} | ${r.changes} | ${Math.round(r.bytes / r.changes).toLocaleString('en')} | ${(r.frames / r.changes / WATCHERS).toFixed(2)} | ${Math.round(r.oldBytes / r.changes).toLocaleString('en')} | ${(r.oldBytes / r.bytes).toFixed(1)}× |`);
    }
    out(`| all | ${CHANGES} | ${Math.round(bytes / CHANGES).toLocaleString('en')} | | ${Math.round(oldBytes / CHANGES).toLocaleString('en')} | ${(oldBytes / bytes).toFixed(1)}× |`);
    out(`watchers whose list differs from a new watcher's whole list: ${differing}`);
    if (differing > 0) process.exitCode = 1;
  } finally {
    for (const s of [...watchers, ...posters]) s.ws.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
