/**
 * What every simulated player does the same way, whoever it plays: one socket at a time (a
 * replaced one is ignored), its own copy of the game with the move it has sent until the server
 * echoes it, the server's moves and positions checked against that copy, random moves after a
 * pause, and an end (finish) that cancels its timers and closes its socket, so that the VU's
 * iteration ends. The players (online-player.ts, ai-player.ts) add their own way into a game.
 */
import type { Color, ServerMessage } from '../../../machines/protocol/messages.ts';
import { ChessGame, positionKey, randomLegalMove } from './chess.ts';
import type { PaceSettings } from './config.ts';
import { randomBetween } from './config.ts';
import { Connection, logProblem } from './connection.ts';
import type { Identity } from './connection.ts';
import { gamesUnfinished, moveRelayLatency, movesPlayed, movesRejected, protocolViolations, wsErrors } from './metrics.ts';
import { Timers } from './timers.ts';

/** The tags a player adds to its metrics (none for the online pool). */
export type PlayerTags = { mode: string } | undefined;

/** Phases every player has; each adds its own between connecting and playing. */
type CommonPhase = 'connecting' | 'playing' | 'done';

export abstract class SimulatedPlayer<OwnPhase extends string> {
  protected phase: CommonPhase | OwnPhase = 'connecting';
  protected conn!: Connection;
  protected gameId?: string;
  protected color?: Color;
  protected game = new ChessGame();
  protected resignSent = false;
  /** Our last move, sent and applied locally, until the server's broadcast of it arrives. */
  protected pending: { uci: string; sentAt: number } | null = null;
  protected readonly timers = new Timers();

  protected constructor(
    private readonly pace: PaceSettings,
    private readonly tags: PlayerTags,
  ) {}

  protected abstract onMessage(msg: ServerMessage): void;

  start(): void {
    this.timers.probeLag();
    this.conn = this.open();
  }

  /** A new socket; the messages and close of any earlier one no longer reach the player. */
  protected open(identity?: Identity): Connection {
    const conn: Connection = new Connection(
      {
        onMessage: (msg) => {
          if (conn === this.conn) this.onMessage(msg);
        },
        onClose: (expected) => {
          if (conn === this.conn) this.onClose(expected);
        },
      },
      identity,
    );
    return conn;
  }

  protected finish(): void {
    this.timers.cancelAll();
    this.phase = 'done';
    this.conn.close();
  }

  /** Whether a game is under way for this player (its loss counts as an unfinished game). */
  protected inGame(): boolean {
    return this.phase === 'playing';
  }

  private onClose(expected: boolean): void {
    if (expected || this.phase === 'done') return;
    wsErrors.add(1, { what: 'closed by server', ...this.tags });
    logProblem(`server closed the socket in phase ${this.phase}`);
    if (this.inGame()) gamesUnfinished.add(1, { why: 'socket closed', ...this.tags });
    this.finish();
  }

  protected violation(text: string): void {
    protocolViolations.add(1, this.tags);
    logProblem(text);
  }

  /** Our turn in a game we have not resigned. */
  protected mayMove(): boolean {
    return this.phase === 'playing' && !this.resignSent && this.game.turn() === this.color;
  }

  /** Moves after a random think time, unless a move is already due. */
  protected moveAfterThinking(): void {
    if (this.timers.has('move')) return;
    this.timers.later('move', randomBetween(this.pace.thinkMinMs, this.pace.thinkMaxMs), () => this.move());
  }

  protected abstract move(): void;

  /**
   * Plays a random legal move on our copy and sends it. Null, and nothing sent, when the game
   * is over on our board; otherwise the ply it was made at and when it was sent.
   */
  protected sendRandomMove(gameId: string): { ply: number; sentAt: number } | null {
    const choice = randomLegalMove(this.game);
    if (!choice || this.game.status().over) return null;
    const ply = this.game.plies();
    this.game.play(choice.uci);
    this.pending = { uci: choice.uci, sentAt: Date.now() };
    if (this.conn.send({ type: 'gameMove', payload: { gameId, move: choice.wire } })) movesPlayed.add(1, this.tags);
    return { ply, sentAt: this.pending.sentAt };
  }

  protected resign(): void {
    if (!this.gameId || this.resignSent) return;
    this.resignSent = true;
    this.conn.send({ type: 'resign', payload: { gameId: this.gameId } });
  }

  /** The server refused our move: count it and take it back from our copy. */
  protected takeBackRejected(message: string): void {
    movesRejected.add(1, this.tags);
    logProblem(`legal move ${this.pending?.uci ?? '?'} rejected: ${message}`);
    if (this.pending) {
      this.game.undo();
      this.pending = null;
    }
  }

  /** Whether a relayed move is the server's broadcast of ours (it is already on our board); if so its relay time is counted. */
  protected isEchoOfOurMove(uci: string, now: number): boolean {
    if (!this.pending || this.pending.uci !== uci) return false;
    moveRelayLatency.add(now - this.pending.sentAt, this.tags);
    this.pending = null;
    return true;
  }

  /** Plays the other side's relayed move on our copy; if it is illegal there, our copy takes the server's position. */
  protected playTheirMove(uci: string, fen: string | undefined): void {
    this.pending = null;
    if (!this.game.play(uci)) {
      this.violation(`server relayed ${uci}, illegal in our copy ${this.game.fen()}`);
      if (fen) this.game = new ChessGame(fen);
    }
  }

  /** After a move, our copy must stand where the server's does; if not, it takes the server's position. */
  protected checkPosition(uci: string, fen: string | undefined): void {
    if (fen && positionKey(fen) !== positionKey(this.game.fen())) {
      this.violation(`position differs after ${uci}: server "${positionKey(fen)}", ours "${positionKey(this.game.fen())}"`);
      this.game = new ChessGame(fen);
    }
  }
}
