/**
 * Test helpers for AI games: a real `ws` client for the real server, and a scripted random
 * mover that keeps its own board (machines/chess) in step with the server's messages.
 */
import WebSocket from 'ws';
import { ChessGame } from '../../machines/chess/index';
import type { ServerMessage } from '../../machines/protocol/messages';
import { checkServerMessage } from '../support/protocol';
import { guestCookieHeader } from '../../machines/protocol/guestClaim';

type Msg = ServerMessage & Record<string, unknown>;

export class TestClient {
  private readonly inbox: Msg[] = [];
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  readonly all: Msg[] = [];
  playerId = '';
  secret = '';

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = checkServerMessage(String(data)) as Msg;
      this.all.push(msg);
      const w = this.waiters.find((x) => x.pred(msg));
      if (w) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(msg);
      } else {
        this.inbox.push(msg);
      }
    });
  }

  static async connect(port: number, identity?: { playerId: string; secret: string }): Promise<TestClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/socket`, identity ? { headers: { Cookie: guestCookieHeader(identity) } } : {});
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const ack = await client.next('connectionAck');
    client.playerId = String(ack.playerId);
    client.secret = String(ack.secret ?? '');
    return client;
  }

  send(type: string, payload?: unknown): void {
    this.ws.send(JSON.stringify(payload === undefined ? { type } : { type, payload }));
  }

  /** Next message of `type` (optionally matching `pred`), from the buffer or the socket. */
  next<T extends Msg['type']>(type: T, timeoutMs = 20_000, pred: (m: Msg) => boolean = () => true): Promise<Msg> {
    return this.nextAny([type], timeoutMs, pred);
  }

  /** Next message whose type is one of `types`. */
  nextAny(types: Msg['type'][], timeoutMs = 20_000, pred: (m: Msg) => boolean = () => true): Promise<Msg> {
    const type = types.join('|');
    const match = (m: Msg) => types.includes(m.type) && pred(m);
    const i = this.inbox.findIndex(match);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = {
        pred: match,
        resolve: (m: Msg) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no ${type} within ${timeoutMs} ms; got: ${this.all.slice(-5).map((m) => JSON.stringify(m)).join(' | ')}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Whether a message of `type` arrives within `ms` (for "nothing happens" checks). */
  async quietFor(type: string, ms: number): Promise<boolean> {
    try {
      await this.next(type as Msg['type'], ms);
      return false;
    } catch {
      return true;
    }
  }

  /** Drops buffered messages (keeps the log in `all`). */
  clear(): void {
    this.inbox.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

export interface PlayedGame {
  gameId: string;
  playerColor: 'white' | 'black';
  result: Msg;
  board: ChessGame;
  aiMoves: number;
}

/**
 * Starts an AI game and answers every AI move with a random legal move until the game is
 * over. The local board follows the server's moves, so each AI move is checked for legality
 * by our own rules on arrival. A game against the AI speaks the game messages of every game
 * (gameStart, gameMove, gameEnd); the player's own moves come back too and are skipped.
 */
export async function playRandomGame(
  client: TestClient,
  options: { difficulty: number; playerColor: 'white' | 'black' | 'random'; timeControl?: { initial: number; increment: number } },
  random: () => number = Math.random,
  perMoveTimeoutMs = 20_000,
): Promise<PlayedGame> {
  client.send('startAIGame', { options });
  const created = await client.next('gameCreated');
  const start = await client.next('gameStart');
  const gameId = String(created.gameId);
  const playerColor = created.playerColor as 'white' | 'black';
  if (start.gameId !== gameId || start.color !== playerColor) throw new Error('gameStart does not match gameCreated');
  if (typeof start.engineLevel !== 'number') throw new Error('gameStart of a game against the AI names no engine level');
  const board = new ChessGame();
  let aiMoves = 0;
  const playRandom = () => {
    const legal = board.legalMoves();
    const uci = legal[Math.floor(random() * legal.length)];
    const played = board.play(uci)!;
    client.send('gameMove', {
      gameId,
      move: { from: played.from, to: played.to, ...(played.promotion ? { promotion: played.promotion } : {}) },
    });
    return played;
  };
  if (playerColor === 'white') playRandom();
  for (;;) {
    const msg = await client.nextAny(['gameMove', 'gameEnd', 'moveRejected', 'error'], perMoveTimeoutMs);
    if (msg.type === 'error') throw new Error(`server error during the game: ${JSON.stringify(msg)}`);
    if (msg.type === 'moveRejected') throw new Error(`random mover's legal move was rejected: ${JSON.stringify(msg)}`);
    if (msg.type === 'gameEnd') return { gameId, playerColor, result: msg, board, aiMoves };
    if (msg.gameId !== gameId) throw new Error('gameMove for another game');
    if (msg.nextTurn !== playerColor) continue; // our own move, played
    const move = msg.move as { from: string; to: string; promotion?: 'q' | 'r' | 'b' | 'n' };
    const played = board.play(move);
    if (!played) throw new Error(`AI move ${JSON.stringify(move)} is illegal in ${board.fen()}`);
    if (msg.fen !== board.fen()) throw new Error(`fen mismatch: server ${String(msg.fen)} vs local ${board.fen()}`);
    aiMoves++;
    if (board.status().over) {
      const over = await client.next('gameEnd', perMoveTimeoutMs);
      return { gameId, playerColor, result: over, board, aiMoves };
    }
    playRandom();
  }
}

export async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
