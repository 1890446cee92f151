/**
 * A simulated human playing the server's AI, as one k6 VU iteration: connect, startAIGame,
 * play random legal moves (gameMove) with a pause before each, answer the AI's replies
 * (gameMove), and leave after the game ends (gameEnd) or resign at the
 * ply cap.
 */
import { check } from 'k6';
import type { Color, ServerMessage, WireMove } from '../../../machines/protocol/messages.ts';
import { wireToUci } from './chess.ts';
import type { PaceSettings } from './config.ts';
import { logProblem } from './connection.ts';
import { aiReplyTime, gamesFinished, gamesStarted, gamesUnfinished, serverErrors, timeToPairing, touchCounters } from './metrics.ts';
import { SimulatedPlayer } from './player.ts';

export interface AiPlan extends PaceSettings {
  difficulty: number;
  playerColor: Color | 'random';
}

export function playAiGame(plan: AiPlan): void {
  touchCounters();
  new AiPlayer(plan).start();
}

class AiPlayer extends SimulatedPlayer<'starting'> {
  private requestedAt = 0;
  /** When our last move was acknowledged (or sent, if the server does not echo it). */
  private lastMoveAt = 0;

  constructor(private readonly plan: AiPlan) {
    super(plan, { mode: 'ai' });
  }

  protected onMessage(msg: ServerMessage): void {
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
        this.takeBackRejected(msg.message);
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
    const now = Date.now();
    if (this.isEchoOfOurMove(uci, now)) {
      this.lastMoveAt = now;
    } else {
      if (this.game.turn() === this.color) return this.violation(`AI moved ${uci} on our turn`);
      aiReplyTime.add(now - this.lastMoveAt);
      this.playTheirMove(uci, fen);
    }
    this.checkPosition(uci, fen);
    // a move that ends the game: its gameEnd follows
    if (this.game.status().over) return;
    this.scheduleMove();
  }

  private scheduleMove(): void {
    if (this.mayMove()) this.moveAfterThinking();
  }

  protected move(): void {
    if (this.phase !== 'playing' || this.game.turn() !== this.color || !this.gameId) return;
    if (this.game.plies() >= this.plan.maxPlies) return this.resign();
    const sent = this.sendRandomMove(this.gameId);
    if (sent) this.lastMoveAt = sent.sentAt; // else the server's gameEnd is on its way
  }
}
