/**
 * A simulated human playing the server's AI, as one k6 VU iteration: connect, startAIGame,
 * play random legal moves (gameMove) with a pause before each, answer the AI's replies
 * (gameMove), and leave after the game ends (gameEnd) or resign at the
 * ply cap.
 */
import { check } from 'k6';
import type { Color, ServerMessage, WireMove } from '../../../machines/protocol/messages.ts';
import { ChessGame, positionKey, randomLegalMove, wireToUci } from './chess.ts';
import type { PaceSettings } from './config.ts';
import { randomBetween } from './config.ts';
import { Connection, logProblem } from './connection.ts';
import { Timers } from './timers.ts';
import {
  aiReplyTime,
  gamesFinished,
  gamesStarted,
  gamesUnfinished,
  movesPlayed,
  movesRejected,
  moveRelayLatency,
  protocolViolations,
  serverErrors,
  timeToPairing,
  touchCounters,
  wsErrors,
} from './metrics.ts';

export interface AiPlan extends PaceSettings {
  difficulty: number;
  playerColor: Color | 'random';
}

type Phase = 'connecting' | 'starting' | 'playing' | 'done';

export function playAiGame(plan: AiPlan): void {
  touchCounters();
  new AiPlayer(plan).start();
}

class AiPlayer {
  private phase: Phase = 'connecting';
  private conn!: Connection;
  private gameId?: string;
  private color?: Color;
  private game = new ChessGame();
  private requestedAt = 0;
  private resignSent = false;
  private pending: { uci: string; sentAt: number } | null = null;
  /** When our last move was acknowledged (or sent, if the server does not echo it). */
  private lastMoveAt = 0;
  private readonly timers = new Timers();

  constructor(private readonly plan: AiPlan) {}

  start(): void {
    this.timers.probeLag();
    this.conn = new Connection({ onMessage: (m) => this.onMessage(m), onClose: (e) => this.onClose(e) });
  }

  private finish(): void {
    this.timers.cancelAll();
    this.phase = 'done';
    this.conn.close();
  }

  private onMessage(msg: ServerMessage): void {
    switch (msg.type) {
      case 'connectionAck':
        if (this.phase !== 'connecting') return;
        this.phase = 'starting';
        this.requestedAt = Date.now();
        this.conn.send({
          type: 'startAIGame',
          payload: { options: { difficulty: this.plan.difficulty, playerColor: this.plan.playerColor } },
        });
        this.timers.later('start', this.plan.pairingTimeoutMs, () => {
          gamesUnfinished.add(1, { why: 'no gameCreated' });
          logProblem(`no gameCreated within ${this.plan.pairingTimeoutMs} ms of startAIGame`);
          this.finish();
        });
        return;
      case 'gameCreated':
        return this.onStart(msg.gameId, msg.playerColor);
      case 'gameStart':
        return this.onStart(msg.gameId, msg.color);
      case 'gameMove':
        return this.onMoveMade(msg.gameId, msg.move, msg.fen);
      case 'gameEnd':
        if (this.phase !== 'playing' || msg.gameId !== this.gameId) return;
        gamesFinished.add(1, { reason: String(msg.reason), mode: 'ai' });
        return this.finish();
      case 'moveRejected':
        movesRejected.add(1, { mode: 'ai' });
        logProblem(`legal move ${this.pending?.uci ?? '?'} rejected by the AI game: ${msg.message}`);
        if (this.pending) {
          this.game.undo();
          this.pending = null;
        }
        return this.scheduleMove();
      case 'error':
        // An error message ends an AI game (docs/protocol.md).
        serverErrors.add(1, { mode: 'ai' });
        logProblem(`AI game error: ${msg.message}`);
        if (this.phase === 'playing' || this.phase === 'starting') gamesUnfinished.add(1, { why: 'error' });
        return this.finish();
      default:
        return;
    }
  }

  private onStart(gameId: string, color: Color): void {
    if (this.phase === 'playing' && gameId === this.gameId) return; // gameCreated and gameStart both came
    if (this.phase !== 'starting') return this.violation(`AI game start ${gameId} in phase ${this.phase}`);
    this.timers.cancel('start');
    timeToPairing.add(Date.now() - this.requestedAt, { mode: 'ai' });
    gamesStarted.add(1, { mode: 'ai' });
    check(color, { 'AI game has a colour': (c) => c === 'white' || c === 'black' });
    this.gameId = gameId;
    this.color = color;
    this.phase = 'playing';
    this.lastMoveAt = Date.now();
    this.timers.later('game', this.plan.gameTimeoutMs, () => {
      gamesUnfinished.add(1, { why: 'timeout', mode: 'ai' });
      logProblem(`AI game ${this.gameId} had no end after ${this.plan.gameTimeoutMs} ms`);
      this.finish();
    });
    this.scheduleMove();
  }

  private onMoveMade(gameId: string, move: WireMove, fen: string | undefined): void {
    if (this.phase !== 'playing') return;
    if (gameId !== this.gameId) return this.violation(`gameMove for ${gameId}, playing ${this.gameId}`);
    const uci = wireToUci(move);
    if (this.pending && this.pending.uci === uci) {
      moveRelayLatency.add(Date.now() - this.pending.sentAt, { mode: 'ai' });
      this.pending = null;
      this.lastMoveAt = Date.now();
    } else {
      if (this.game.turn() === this.color) return this.violation(`AI moved ${uci} on our turn`);
      aiReplyTime.add(Date.now() - this.lastMoveAt);
      this.pending = null;
      if (!this.game.play(uci)) {
        this.violation(`AI played ${uci}, illegal in our copy ${this.game.fen()}`);
        if (fen) this.game = new ChessGame(fen);
      }
    }
    if (fen && positionKey(fen) !== positionKey(this.game.fen())) {
      this.violation(`position differs after ${uci}: server "${positionKey(fen)}", ours "${positionKey(this.game.fen())}"`);
      this.game = new ChessGame(fen);
    }
    // a move that ends the game: its gameEnd follows
    if (this.game.status().over) return;
    this.scheduleMove();
  }

  private onClose(expected: boolean): void {
    if (expected || this.phase === 'done') return;
    wsErrors.add(1, { what: 'closed by server', mode: 'ai' });
    logProblem(`server closed the socket in phase ${this.phase}`);
    if (this.phase === 'playing') gamesUnfinished.add(1, { why: 'socket closed', mode: 'ai' });
    this.finish();
  }

  private scheduleMove(): void {
    if (this.phase !== 'playing' || this.resignSent || this.game.turn() !== this.color) return;
    if (this.timers.has('move')) return;
    this.timers.later('move', randomBetween(this.plan.thinkMinMs, this.plan.thinkMaxMs), () => this.move());
  }

  private move(): void {
    if (this.phase !== 'playing' || this.game.turn() !== this.color || !this.gameId) return;
    if (this.game.plies() >= this.plan.maxPlies) {
      this.resignSent = true;
      this.conn.send({ type: 'resign', payload: { gameId: this.gameId } });
      return;
    }
    const choice = randomLegalMove(this.game);
    if (!choice || this.game.status().over) return; // the server's gameEnd is on its way
    this.game.play(choice.uci);
    this.pending = { uci: choice.uci, sentAt: Date.now() };
    this.lastMoveAt = this.pending.sentAt;
    if (this.conn.send({ type: 'gameMove', payload: { gameId: this.gameId, move: choice.wire } })) movesPlayed.add(1, { mode: 'ai' });
  }

  private violation(text: string): void {
    protocolViolations.add(1, { mode: 'ai' });
    logProblem(text);
  }
}
