/**
 * Load-driver worker process: simulates a share of the players on real `ws` sockets.
 * Chess mode: players queue, get paired, and play random legal moves (machines/chess) at a pace.
 * Echo mode: clients send a move-sized message at the same rate to a bare echo server.
 * Controlled by its parent over IPC (see bench.ts). Times use process.hrtime (CLOCK_MONOTONIC,
 * shared by all processes on the machine) so a move sent here and received in another worker
 * can be timed.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ChessGame } from '../../machines/chess';
import type { ClientMessage, PromotionPiece, ServerMessage, WireMove } from '../../machines/protocol/messages';

type Cmd =
  /** player i connects to urls[i % urls.length] (several nodes: see bench.ts, --nodes) */
  | { cmd: 'connect'; urls: string[]; count: number; mode: 'chess' | 'echo'; concurrency: number }
  | { cmd: 'queue'; ratePerSec: number }
  | { cmd: 'play'; durationMs: number; paceMs: number }
  | { cmd: 'finish'; waitMs: number }
  | { cmd: 'count' }
  | { cmd: 'exit' };

const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const send = (m: unknown) => process.send!(m);
/** A protocol message to the server; its shape is checked against the protocol's types. */
const sendToServer = (ws: WebSocket, msg: ClientMessage) => ws.send(JSON.stringify(msg));

interface Player {
  ws: WebSocket;
  playerId: string;
  gameId: string | null;
  color: 'white' | 'black' | null;
  chess: ChessGame | null;
  /** plies played in the current game (the key of a move's timing record) */
  ply: number;
  /** a move of ours is on its way and its gameMove echo has not come back yet */
  inFlight: boolean;
  queuedAt: number;
  moveTimer: NodeJS.Timeout | null;
  gamesEnded: number;
  gamesStarted: number;
}

const players: Player[] = [];
/** this worker's own event-loop delay: if it is high, measured latencies include driver delay */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let mode: 'chess' | 'echo' = 'chess';
let playing = false;
let paceMs = 1000;
const pairingUs: number[] = [];
const sentAt: [string, number][] = [];
const recvAt: [string, number][] = [];
const echoLatencyUs: number[] = [];
const counters = { moveRejected: 0, errors: 0, gameStarts: 0, gameEnds: 0, movesSent: 0, movesReceived: 0, echoSent: 0, echoReceived: 0, closedUnexpectedly: 0, lateResigns: 0 };
let finishing = false;
const rejections: string[] = [];
const endReasons: Record<string, number> = {};

function jitter(ms: number): number {
  return ms * (0.5 + Math.random());
}

function scheduleMove(p: Player): void {
  if (!playing || !p.gameId || !p.chess || p.moveTimer || p.inFlight) return;
  if (p.chess.turn() !== p.color) return;
  p.moveTimer = setTimeout(() => {
    p.moveTimer = null;
    if (!playing || !p.gameId || !p.chess || p.inFlight || p.chess.turn() !== p.color) return;
    const moves = p.chess.legalMoves();
    if (moves.length === 0) return;
    const uci = moves[Math.floor(Math.random() * moves.length)];
    const ply = p.ply;
    // legalMoves() writes a promotion as one of q, r, b, n
    const move: WireMove = { from: uci.slice(0, 2), to: uci.slice(2, 4), ...(uci.length > 4 ? { promotion: uci[4] as PromotionPiece } : {}) };
    sentAt.push([`${p.gameId}:${ply}`, nowUs()]);
    counters.movesSent++;
    p.inFlight = true;
    sendToServer(p.ws, { type: 'gameMove', payload: { gameId: p.gameId, move } });
  }, jitter(paceMs));
}

function onChessMessage(p: Player, m: ServerMessage): void {
  switch (m.type) {
    case 'connectionAck':
      p.playerId = m.playerId;
      return;
    case 'gameStart':
      if (p.queuedAt) pairingUs.push(nowUs() - p.queuedAt);
      p.queuedAt = 0;
      p.gameId = m.gameId;
      p.color = m.color;
      p.chess = new ChessGame();
      p.ply = 0;
      p.inFlight = false;
      p.gamesStarted++;
      counters.gameStarts++;
      scheduleMove(p);
      return;
    case 'gameMove': {
      if (!p.chess || m.gameId !== p.gameId) return;
      const ply = p.ply;
      const mover = p.chess.turn();
      const uci = m.move.from + m.move.to + (m.move.promotion ?? '');
      if (!p.chess.play(uci)) {
        counters.errors++;
        rejections.push(`local replica refused ${uci}`);
        return;
      }
      p.ply++;
      if (mover === p.color) p.inFlight = false;
      else {
        recvAt.push([`${p.gameId}:${ply}`, nowUs()]);
        counters.movesReceived++;
      }
      scheduleMove(p);
      return;
    }
    case 'gameEnd':
      if (m.gameId !== p.gameId) return;
      counters.gameEnds++;
      endReasons[m.reason] = (endReasons[m.reason] ?? 0) + 1;
      p.gamesEnded++;
      p.gameId = null;
      p.chess = null;
      p.inFlight = false;
      if (p.moveTimer) clearTimeout(p.moveTimer);
      p.moveTimer = null;
      if (playing) queue(p);
      return;
    case 'moveRejected':
      counters.moveRejected++;
      if (rejections.length < 20) rejections.push(`moveRejected: ${m.message}`);
      return;
    case 'error':
      // While the remaining games are resigned at the end, a resignation that crosses the game's
      // end (its gameEnd still on the way) is answered "game not found": not a server fault.
      if (finishing && m.code === 'unknown_game') {
        counters.lateResigns++;
        return;
      }
      counters.errors++;
      if (rejections.length < 20) rejections.push(`error: ${m.code ?? ''} ${m.message}`);
      return;
    default:
      return;
  }
}

function queue(p: Player): void {
  p.queuedAt = nowUs();
  sendToServer(p.ws, { type: 'findGame', payload: { username: 'Bot ' + p.playerId.slice(-4) } });
}

async function connectAll(urls: string[], count: number, concurrency: number): Promise<{ ms: number; failed: number }> {
  const start = nowUs();
  let next = 0;
  let failed = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(urls[i % urls.length], { perMessageDeflate: false });
      const p: Player = { ws, playerId: '', gameId: null, color: null, chess: null, ply: 0, inFlight: false, queuedAt: 0, moveTimer: null, gamesEnded: 0, gamesStarted: 0 };
      let acked = false;
      ws.on('message', (data) => {
        const t = nowUs();
        if (mode === 'echo') {
          if (!acked) {
            acked = true;
            resolve();
            return;
          }
          const s = data.toString();
          const i = s.indexOf('"t":');
          if (i >= 0) {
            echoLatencyUs.push(t - Number(s.slice(i + 4, s.indexOf('}', i))));
            counters.echoReceived++;
          }
          return;
        }
        const text = data.toString();
        // the most frequent messages this driver does not need: skip parsing them
        if (acked && (text.startsWith('{"type":"timerUpdate"') || text.startsWith('{"type":"playerCount"'))) return;
        const m: ServerMessage = JSON.parse(text);
        if (!acked && m.type === 'connectionAck') {
          acked = true;
          onChessMessage(p, m);
          resolve();
          return;
        }
        onChessMessage(p, m);
      });
      ws.on('error', () => {
        if (!acked) {
          failed++;
          acked = true;
          resolve();
        }
      });
      ws.on('close', () => {
        if (!closing) counters.closedUnexpectedly++;
      });
      players.push(p);
    });
  const lanes = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      await one(next++);
    }
  });
  await Promise.all(lanes);
  return { ms: (nowUs() - start) / 1000, failed };
}

let closing = false;
let echoTimers: NodeJS.Timeout[] = [];

process.on('message', async (c: Cmd) => {
  switch (c.cmd) {
    case 'connect': {
      mode = c.mode;
      // echo mode: the echo server sends a hello on open, like connectionAck
      const r = await connectAll(c.urls, c.count, c.concurrency);
      send({ ev: 'connected', ...r, players: players.length });
      return;
    }
    case 'queue': {
      // Players arrive at a steady rate (a burst of thousands at one instant is not a lobby).
      playing = true;
      const gap = 1000 / c.ratePerSec;
      players.forEach((p, i) => setTimeout(() => queue(p), i * gap));
      send({ ev: 'queued' });
      return;
    }
    case 'play': {
      playing = true;
      loopDelay.reset();
      paceMs = c.paceMs;
      if (mode === 'echo') {
        // the same message rate as the chess games: one move per pace per pair of players
        for (const p of players) {
          const tick = () => {
            if (!playing) return;
            const payload = JSON.stringify({ type: 'gameMove', payload: { gameId: 'game_echo', move: { from: 'e2', to: 'e4' } }, t: nowUs() });
            counters.echoSent++;
            p.ws.send(payload);
            echoTimers.push(setTimeout(tick, jitter(2 * paceMs)));
          };
          echoTimers.push(setTimeout(tick, Math.random() * 2 * paceMs));
        }
      } else {
        for (const p of players) scheduleMove(p);
      }
      send({ ev: 'playing' });
      return;
    }
    case 'finish': {
      playing = false;
      finishing = true;
      for (const t of echoTimers) clearTimeout(t);
      echoTimers = [];
      for (const p of players) if (p.moveTimer) clearTimeout(p.moveTimer), (p.moveTimer = null);
      if (mode === 'chess') {
        // let in-flight moves land, then end every game still going (white resigns; black too
        // if a game is still on after that, e.g. when white's resignation crossed an ending)
        const settle = Date.now() + Math.min(20_000, c.waitMs);
        while (Date.now() < settle && players.some((p) => p.inFlight)) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 200));
        for (const color of ['white', 'black'] as const) {
          for (const p of players) if (p.gameId && p.color === color) sendToServer(p.ws, { type: 'resign', payload: { gameId: p.gameId } });
          const deadline = Date.now() + c.waitMs / 2;
          while (Date.now() < deadline && players.some((p) => p.gameId)) await new Promise((r) => setTimeout(r, 100));
          if (!players.some((p) => p.gameId)) break;
        }
      } else {
        await new Promise((r) => setTimeout(r, 500));
      }
      const lost = players.filter((p) => p.gameId).length;
      const stillQueued = players.filter((p) => !p.gameId && p.queuedAt).length;
      send({
        ev: 'report',
        counters,
        lost,
        stillQueued,
        endReasons,
        rejections,
        pairingUs,
        sentAt,
        recvAt,
        echoLatencyUs,
        loopDelayP99ms: loopDelay.percentile(99) / 1e6,
        loopDelayMaxMs: loopDelay.max / 1e6,
      });
      return;
    }
    case 'count':
      // echo messages received so far, to open and close the measured window
      send({ ev: 'count', echoReceived: counters.echoReceived, echoSent: counters.echoSent });
      return;
    case 'exit': {
      closing = true;
      for (const p of players) p.ws.terminate();
      setTimeout(() => process.exit(0), 100);
      return;
    }
  }
});
send({ ev: 'ready' });
