/**
 * A simulated human in the 10-minute pool, as one k6 VU iteration: connect, findGame, wait for
 * gameStart, play random legal moves with a pause before each, and leave after gameEnd.
 * Optionally it resigns at once after pairing (lobby storm) or drops its socket mid-game and
 * comes back as the same guest with rejoinGame (reconnect storm).
 *
 * Everything is event driven (k6/experimental/websockets + k6/timers): the VU's iteration lasts
 * until the socket is closed and no timer is pending, which finish() guarantees.
 */
import { check } from 'k6';
import type { GameMoveMsg, GameStartMsg, ServerMessage } from '../../../machines/protocol/messages.ts';
import { ChessGame, gameFromState, positionKey, wireToUci } from './chess.ts';
import type { PaceSettings } from './config.ts';
import { logProblem } from './connection.ts';
import type { Identity } from './connection.ts';
import { ClockWatch, type ClockFault } from './clock-watch.ts';
import {
  clockDrift,
  clockFaults,
  gamesFinished,
  gamesStarted,
  gamesUnfinished,
  pairingTimeouts,
  reconnects,
  rejoinFailures,
  rejoinTime,
  serverErrors,
  timeToPairing,
  touchCounters,
} from './metrics.ts';
import { SimulatedPlayer } from './player.ts';

export interface OnlinePlan extends PaceSettings {
  username: string;
  /** Lobby storm: the player who gets white resigns right after pairing (black after 3 s if
   * white has not); they make no move. */
  resignAfterPairing?: boolean;
  /**
   * Reconnect storm: on this player's first turn once the game has at least `atPly` plies, or
   * once the clock has passed `atTime` (ms since the epoch: a burst of many players at once),
   * close the socket, stay away `offlineMs`, then reconnect as the same guest and rejoin.
   * Dropping on our own turn means the opponent cannot move (or end the game) meanwhile.
   */
  drop?: { atPly?: number; atTime?: number; offlineMs: number };
  /** How long to wait for the game back after reconnecting. */
  rejoinTimeoutMs?: number;
  /**
   * Audit the server's clock with our own watch (lib/clock-watch.ts): every timed move's charge
   * and every flag, within `toleranceMs` of slack for the network and the generator.
   */
  clockAudit?: { toleranceMs: number };
  /** From this ply on, stop moving and wait for the server to flag us (bullet). */
  flagAtPly?: number;
}

type OwnPhase = 'queued' | 'offline' | 'rejoining';

/** If the server has not ended a game our copy calls over, resign after this long. */
const END_EXPECTED_WITHIN_MS = 5_000;
/** Lobby storm: how long black waits for white's resignation before resigning itself. */
const LOBBY_BLACK_RESIGN_MS = 3_000;

export function playOnlineGame(plan: OnlinePlan): void {
  touchCounters();
  new OnlinePlayer(plan).start();
}

class OnlinePlayer extends SimulatedPlayer<OwnPhase> {
  private identity?: Identity;
  private queuedAt = 0;
  private rejoinStartedAt = 0;
  private dropped = false;
  private clockWatch: ClockWatch | null = null;

  constructor(private readonly plan: OnlinePlan) {
    super(plan, undefined);
  }

  protected override inGame(): boolean {
    return this.phase === 'playing' || this.phase === 'rejoining';
  }

  // -- messages ------------------------------------------------------------------------------

  protected onMessage(msg: ServerMessage): void {
    switch (msg.type) {
      case 'connectionAck':
        return this.onAck(msg.playerId);
      case 'gameStart':
        return this.onGameStart(msg);
      case 'gameMove':
        return this.onGameMove(msg);
      case 'moveRejected':
        return this.onMoveRejected(msg.message, msg.fen);
      case 'gameEnd':
        if (!this.inGame()) return;
        if (msg.gameId !== this.gameId) return this.violation(`gameEnd for ${msg.gameId}, playing ${this.gameId}`);
        check(msg, { 'gameEnd has a winner': (m) => m.winner === 'white' || m.winner === 'black' || m.winner === 'draw' });
        gamesFinished.add(1, { reason: String(msg.reason) });
        if (msg.reason === 'timeout' && msg.winner !== this.color) this.clockFault(this.clockWatch?.flagFell(Date.now()) ?? null);
        return this.finish();
      case 'drawOffer':
        // Random players decline, so games run to a decisive end or the ply cap.
        if (this.gameId && msg.gameId === this.gameId) this.conn.send({ type: 'declineDraw', payload: { gameId: this.gameId } });
        return;
      case 'error':
        serverErrors.add(1);
        logProblem(`server error (${this.phase}): ${msg.message}`);
        return;
      case 'serverShutdown':
        logProblem(`server shutting down: ${msg.message}`);
        return;
      default:
        // playerCount, matchmakingStatus, timerUpdate, opponentDisconnected/Reconnected,
        // activeGameStatus, identified: nothing to do for a random player.
        return;
    }
  }

  private onAck(playerId: string): void {
    if (this.phase === 'connecting') {
      check(playerId, { 'connectionAck carries a playerId': (id) => typeof id === 'string' && id.length > 0 });
      this.identity = this.conn.identity;
      this.phase = 'queued';
      this.queuedAt = Date.now();
      this.conn.send({ type: 'findGame', payload: { username: this.plan.username, ...(this.plan.timeControl ? { timeControl: this.plan.timeControl } : {}) } });
      this.timers.later('pairing', this.plan.pairingTimeoutMs, () => {
        pairingTimeouts.add(1);
        this.conn.send({ type: 'cancelMatchmaking' });
        this.finish();
      });
      return;
    }
    if (this.phase === 'rejoining' && this.identity && this.gameId) {
      const same = check(playerId, { 'reconnect keeps the guest id': (id) => id === this.identity?.playerId });
      if (!same) {
        rejoinFailures.add(1);
        gamesUnfinished.add(1);
        logProblem(`reconnected as ${playerId}, expected ${this.identity.playerId}`);
        return this.finish();
      }
      this.conn.send({ type: 'rejoinGame', payload: { gameId: this.gameId } });
    }
  }

  private onGameStart(msg: GameStartMsg): void {
    if (this.phase === 'queued') {
      this.timers.cancel('pairing');
      timeToPairing.add(Date.now() - this.queuedAt);
      gamesStarted.add(1);
      check(msg, {
        'gameStart has a colour': (m) => m.color === 'white' || m.color === 'black',
        'gameStart has a clock': (m) => typeof m.timerDuration === 'number' && m.timerDuration > 0,
      });
      this.gameId = msg.gameId;
      this.color = msg.color;
      this.game = new ChessGame();
      const audit = this.plan.clockAudit;
      if (audit) this.clockWatch = new ClockWatch(msg.color, (msg.timeControl?.increment ?? 0) * 1000, audit.toleranceMs);
      if (msg.currentState) this.restore(msg);
      this.phase = 'playing';
      this.timers.later('game', this.plan.gameTimeoutMs, () => {
        gamesUnfinished.add(1, { why: 'timeout' });
        logProblem(`game ${this.gameId} had no gameEnd after ${this.plan.gameTimeoutMs} ms`);
        this.finish();
      });
      if (this.plan.resignAfterPairing) {
        // White resigns at once. Black resigns too if its opponent has not (in a mixed run it
        // can be paired with a player who plays on); the timer dies with the gameEnd.
        if (this.color === 'white') this.resign();
        else this.timers.later('lobby-resign', LOBBY_BLACK_RESIGN_MS, () => this.resign());
        return;
      }
      return this.scheduleMove();
    }
    if ((this.phase === 'rejoining' || this.phase === 'playing') && msg.gameId === this.gameId) {
      if (this.phase === 'rejoining') {
        this.timers.cancel('rejoin');
        rejoinTime.add(Date.now() - this.rejoinStartedAt);
        check(msg, { 'rejoin gameStart carries the position': (m) => m.currentState !== undefined });
        this.phase = 'playing';
      }
      if (msg.currentState) this.restore(msg);
      return this.scheduleMove();
    }
    this.violation(`unexpected gameStart ${msg.gameId} in phase ${this.phase}`);
  }

  /** Loads the server's snapshot unless it is older than what we already know. */
  private restore(msg: GameStartMsg): void {
    const state = msg.currentState;
    if (!state) return;
    if (state.moves.length < this.game.plies()) return; // stale duplicate
    if (this.color && msg.color !== this.color) this.violation(`colour changed on rejoin: ${this.color} -> ${msg.color}`);
    const { game, error } = gameFromState(state);
    if (error) this.violation(error);
    this.game = game;
    this.pending = null;
    if (state.turn !== game.turn()) this.violation(`snapshot turn ${state.turn} but position says ${game.turn()}`);
  }

  private onGameMove(msg: GameMoveMsg): void {
    const { gameId, nextTurn, fen } = msg;
    const uci = wireToUci(msg.move);
    if (this.phase !== 'playing') return; // while rejoining, the snapshot covers it
    if (gameId !== this.gameId) return this.violation(`gameMove for ${gameId}, playing ${this.gameId}`);
    const now = Date.now();
    if (this.isEchoOfOurMove(uci, now)) this.auditCharge(msg, now);
    else this.playTheirMove(uci, fen);
    this.checkPosition(uci, fen);
    if (nextTurn !== this.game.turn()) this.violation(`nextTurn ${nextTurn} after ${uci}, our copy says ${this.game.turn()}`);
    if (nextTurn === this.color) this.clockWatch?.turnBegan(msg.clocks, now);
    this.scheduleMove();
  }

  private auditCharge(msg: GameMoveMsg, at: number): void {
    const charged = this.clockWatch?.moveCharged(msg.clocks, at);
    if (!charged) return;
    clockDrift.add(charged.chargedMs - charged.thinkMs);
    if (charged.fault) {
      this.clockFault(charged.fault);
      logProblem(`clock ${charged.fault}: thought ${charged.thinkMs} ms, charged ${charged.chargedMs} ms, relay ${charged.relayMs} ms`);
    }
  }

  private clockFault(fault: ClockFault | null): void {
    if (fault) clockFaults.add(1, { kind: fault });
  }

  private onMoveRejected(message: string, fen: string | undefined): void {
    this.takeBackRejected(message);
    if (fen && positionKey(fen) !== positionKey(this.game.fen())) this.game = new ChessGame(fen);
    this.scheduleMove();
  }

  // -- our actions ---------------------------------------------------------------------------

  private scheduleMove(): void {
    if (!this.mayMove()) return;
    if (this.dropDue()) return this.dropAndReturn(this.plan.drop!.offlineMs);
    if (this.waitingForFlag()) return;
    this.moveAfterThinking();
  }

  /**
   * Bullet: from `flagAtPly` on we do not move. The server must flag us once our clock and its
   * flag grace have run out; if it has not by then (and a little network), that is a late flag.
   */
  private waitingForFlag(): boolean {
    if (this.plan.flagAtPly === undefined || this.game.plies() < this.plan.flagAtPly) return false;
    if (!this.timers.has('flag')) {
      const dueIn = this.clockWatch?.flagDueIn(Date.now()) ?? this.plan.gameTimeoutMs;
      this.timers.later('flag', dueIn, () => {
        this.clockFault('late_flag');
        logProblem(`no flag ${dueIn} ms into a turn we did not play`);
        this.resign();
      });
    }
    return true;
  }

  private dropDue(): boolean {
    const drop = this.plan.drop;
    if (!drop || this.dropped) return false;
    if (drop.atPly !== undefined && this.game.plies() >= drop.atPly) return true;
    return drop.atTime !== undefined && Date.now() >= drop.atTime;
  }

  protected move(): void {
    if (this.phase !== 'playing' || this.game.turn() !== this.color || !this.gameId) return;
    if (this.dropDue()) return this.dropAndReturn(this.plan.drop!.offlineMs);
    if (this.game.plies() >= this.plan.maxPlies) return this.resign();
    const sent = this.sendRandomMove(this.gameId);
    if (sent) {
      this.clockWatch?.moveSent(sent.sentAt, sent.ply);
      return;
    }
    // The game is over on the board; the server must end it on its own.
    this.timers.later('end-expected', END_EXPECTED_WITHIN_MS, () => {
      this.violation(`server did not end the game after ${this.game.status().reason ?? 'game over'}`);
      this.resign();
    });
  }

  private dropAndReturn(offlineMs: number): void {
    this.dropped = true;
    this.phase = 'offline';
    reconnects.add(1);
    this.timers.cancel('move');
    this.conn.close();
    this.timers.later('return', offlineMs, () => {
      this.phase = 'rejoining';
      this.rejoinStartedAt = Date.now();
      this.conn = this.open(this.identity);
      this.timers.later('rejoin', this.plan.rejoinTimeoutMs ?? 10_000, () => {
        rejoinFailures.add(1);
        gamesUnfinished.add(1, { why: 'rejoin' });
        logProblem(`no gameStart for ${this.gameId} within ${this.plan.rejoinTimeoutMs ?? 10_000} ms of reconnecting`);
        this.finish();
      });
    });
  }
}
