/**
 * One XState actor per live multiplayer game. Commands from sockets go in as machine events;
 * the machine's emitted events come out as socket messages to the two players. A finished
 * game's actor is stopped and forgotten.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Color, CurrentState, ServerMessage } from '../../machines/protocol/messages';
import type { Hub, PlayerSession } from '../realtime/hub';
import type { ServerMetrics } from '../http/metrics';
import type { GameCommand, GameEmitted, GameInput, Seat } from './contract';
import { createGameActor, rejoinState, runningClocks, type GameActor } from './machines';

/**
 * timerUpdate comes from one server ticker instead of a timer per game actor (the machine's
 * `clockEvents: false`): every TICK_SLICE_MS one of TICK_SLICES groups of games is visited, so
 * each game gets one update per second and the sends are spread over the second. A per-game
 * XState wake-up costs far more than reading the clocks from the snapshot (BENCHMARKS.md).
 * The machine still wakes itself for the flag and the disconnect grace.
 */
const TICK_SLICES = 10;
const TICK_SLICE_MS = 100;

export interface GameOptions {
  clockMs: number;
  firstMoveMs: number;
  graceMs: { guest: number; account: number };
  /** lag compensation quota (live-play.md, lichess 10+0): 1 s per move, 3 s bank, 7 s cap */
  lag: { perMoveCapMs: number; initialBankMs: number; bankCapMs: number };
  startFen?: string;
  inspect?: unknown;
}

export interface LiveGame {
  id: string;
  /** which ticker slice updates this game's clocks */
  slice: number;
  white: Seat;
  black: Seat;
  actor: GameActor;
  startedAt: number;
  ended: boolean;
}

const OPPONENT_LEFT = (seconds: number) =>
  `Your opponent disconnected. They have ${seconds} seconds to come back before you win by disconnection.`;
const OPPONENT_BACK = 'Your opponent reconnected.';

export class GameManager {
  readonly games = new Map<string, LiveGame>();
  /** performance.now() when the move being processed arrived, for the relay histogram */
  private moveArrivedAt = 0;
  private readonly slices: Set<LiveGame>[] = Array.from({ length: TICK_SLICES }, () => new Set());
  private nextSlice = 0;
  private tickSlice = 0;
  private ticker: NodeJS.Timeout | null = null;

  constructor(
    private readonly hub: Hub,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
    private readonly opts: GameOptions,
  ) {}

  get size(): number {
    return this.games.size;
  }

  get clockMs(): number {
    return this.opts.clockMs;
  }

  colorOf(game: LiveGame, playerId: string): Color | null {
    return game.white.id === playerId ? 'white' : game.black.id === playerId ? 'black' : null;
  }

  start(white: PlayerSession, black: PlayerSession): LiveGame | null {
    const id = 'game_' + randomBytes(9).toString('base64url');
    const input: GameInput = {
      gameId: id,
      white: { id: white.id, name: white.name ?? white.id },
      black: { id: black.id, name: black.name ?? black.id },
      clockMs: this.opts.clockMs,
      firstMoveDeadlineMs: this.opts.firstMoveMs,
      graceMs: this.opts.graceMs,
      lag: this.opts.lag,
      now: () => performance.now(),
      accountIds: [white, black].filter((s) => s.kind === 'account').map((s) => s.id),
      clockEvents: false,
      ...(this.opts.startFen ? { startFen: this.opts.startFen } : {}),
    };
    let actor: GameActor;
    try {
      actor = createGameActor(input, this.opts.inspect);
    } catch (err) {
      this.log.error({ err, gameId: id }, 'could not create game actor');
      return null;
    }
    const game: LiveGame = { id, slice: this.nextSlice++ % TICK_SLICES, white: input.white, black: input.black, actor, startedAt: Date.now(), ended: false };
    try {
      actor.start();
    } catch (err) {
      this.log.error({ err, gameId: id }, 'game actor failed to start');
      return null;
    }
    const status = (actor.getSnapshot() as { status?: string; error?: unknown }).status;
    if (status !== 'active') {
      this.log.error({ gameId: id, status, err: (actor.getSnapshot() as { error?: unknown }).error }, 'game actor did not start');
      return null;
    }
    this.games.set(id, game);
    this.slices[game.slice].add(game);
    this.startTicker();
    white.gameId = id;
    black.gameId = id;
    actor.on('*', (e) => this.onEmitted(game, e as GameEmitted));
    actor.subscribe({
      error: (err) => {
        this.log.error({ err, gameId: id }, 'game actor failed; aborting the game');
        this.finish(game, { type: 'ended', winner: 'draw', reason: 'aborted', pgn: '' });
      },
    });
    this.metrics.gamesStarted.inc();
    this.log.info({ gameId: id, white: white.id, black: black.id }, 'game started');
    const timerDuration = Math.round(this.opts.clockMs / 1000);
    let currentState: CurrentState | undefined;
    try {
      currentState = this.opts.startFen ? this.currentState(game) : undefined;
    } catch (err) {
      this.log.error({ err, gameId: id }, 'cannot read the game state');
    }
    for (const [me, them, color] of [
      [input.white, input.black, 'white'],
      [input.black, input.white, 'black'],
    ] as const) {
      this.hub.send(me.id, {
        type: 'gameStart',
        gameId: id,
        color,
        opponentId: them.id,
        opponentName: them.name,
        timerDuration,
        ...(currentState ? { currentState } : {}),
      });
    }
    // A player may have disconnected between pairing and now.
    for (const s of [white, black]) if (!s.ws) this.command(game, { type: 'PLAYER_DISCONNECTED', playerId: s.id });
    return game;
  }

  /** Sends a command to a game actor; never throws. */
  command(game: LiveGame, cmd: GameCommand, arrivedAt?: number): void {
    if (game.ended) return;
    this.moveArrivedAt = arrivedAt ?? 0;
    try {
      game.actor.send(cmd);
    } catch (err) {
      this.log.error({ err, gameId: game.id, cmd: cmd.type }, 'game actor threw');
    } finally {
      this.moveArrivedAt = 0;
    }
  }

  /** The rejoin snapshot (SPEC gameStart.currentState); throws if the actor has no context. */
  currentState(game: LiveGame): CurrentState {
    return rejoinState(game.actor);
  }

  /** One serialisation and one UTF-8 encoding for both players. */
  private both(game: LiveGame, msg: ServerMessage): void {
    const bytes = Buffer.from(JSON.stringify(msg));
    this.hub.sendBytes(game.white.id, bytes);
    this.hub.sendBytes(game.black.id, bytes);
  }

  private seatOf(game: LiveGame, color: Color): Seat {
    return color === 'white' ? game.white : game.black;
  }

  private onEmitted(game: LiveGame, e: GameEmitted): void {
    if (game.ended) return;
    switch (e.type) {
      case 'moved': {
        this.both(game, {
          type: 'gameMove',
          gameId: game.id,
          move: e.move,
          nextTurn: e.nextTurn,
          san: e.san,
          fen: e.fen,
          clocks: e.clocks,
          seq: e.seq,
        });
        this.metrics.movesRelayed.inc();
        if (this.moveArrivedAt) this.metrics.relayLatency.observe((performance.now() - this.moveArrivedAt) / 1000);
        return;
      }
      case 'rejected': {
        let fen: string | undefined;
        try {
          fen = this.currentState(game).fen;
        } catch {
          fen = undefined;
        }
        this.hub.send(e.playerId, { type: 'moveRejected', message: e.reason, gameId: game.id, ...(fen ? { fen } : {}) });
        this.metrics.messagesRejected.inc({ reason: 'move_rejected' });
        this.log.info({ gameId: game.id, playerId: e.playerId, reason: e.reason }, 'move rejected');
        return;
      }
      case 'clock':
        this.both(game, {
          type: 'timerUpdate',
          gameId: game.id,
          timers: { white: Math.ceil(e.clocks.white / 1000), black: Math.ceil(e.clocks.black / 1000) },
          clocks: e.clocks,
        });
        return;
      case 'drawOffered':
        this.hub.send(this.seatOf(game, e.by === 'white' ? 'black' : 'white').id, { type: 'drawOffer', gameId: game.id });
        return;
      case 'drawDeclined':
        this.hub.send(this.seatOf(game, e.by === 'white' ? 'black' : 'white').id, { type: 'drawDeclined', gameId: game.id });
        return;
      case 'opponentDisconnected':
        this.hub.send(this.seatOf(game, e.color === 'white' ? 'black' : 'white').id, {
          type: 'opponentDisconnected',
          gameId: game.id,
          message: OPPONENT_LEFT(Math.round(e.graceMs / 1000)),
        });
        return;
      case 'opponentReconnected':
        this.hub.send(this.seatOf(game, e.color === 'white' ? 'black' : 'white').id, {
          type: 'opponentReconnected',
          gameId: game.id,
          message: OPPONENT_BACK,
        });
        return;
      case 'ended':
        this.finish(game, e);
        return;
      default:
        return;
    }
  }

  private finish(game: LiveGame, e: Extract<GameEmitted, { type: 'ended' }>): void {
    if (game.ended) return;
    game.ended = true;
    this.both(game, { type: 'gameEnd', gameId: game.id, winner: e.winner, reason: e.reason, ...(e.pgn ? { pgn: e.pgn } : {}) });
    this.games.delete(game.id);
    this.slices[game.slice].delete(game);
    for (const seat of [game.white, game.black]) {
      const s = this.hub.session(seat.id);
      if (s && s.gameId === game.id) {
        s.gameId = null;
        this.hub.forgetIfIdle(s);
      }
    }
    this.metrics.gamesEnded.inc({ reason: e.reason });
    this.log.info(
      { gameId: game.id, white: game.white.id, black: game.black.id, winner: e.winner, reason: e.reason, durationMs: Date.now() - game.startedAt },
      'game ended',
    );
    // Stop the actor outside its own event processing.
    setImmediate(() => {
      try {
        game.actor.stop();
      } catch (err) {
        this.log.warn({ err, gameId: game.id }, 'stopping a finished game actor failed');
      }
    });
  }

  private startTicker(): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => this.tick(), TICK_SLICE_MS);
    this.ticker.unref?.();
  }

  /** One slice of games: a timerUpdate for each game whose clock is running. */
  private tick(): void {
    const slice = this.slices[this.tickSlice];
    this.tickSlice = (this.tickSlice + 1) % TICK_SLICES;
    if (slice.size === 0) return;
    const now = performance.now();
    for (const game of slice) {
      if (game.ended) continue;
      let clocks;
      try {
        clocks = runningClocks(game.actor, now);
      } catch (err) {
        this.log.warn({ err, gameId: game.id }, 'cannot read the clocks');
        continue;
      }
      if (!clocks) continue;
      this.both(game, {
        type: 'timerUpdate',
        gameId: game.id,
        timers: { white: Math.ceil(clocks.white / 1000), black: Math.ceil(clocks.black / 1000) },
        clocks,
      });
    }
  }

  /** Server shutdown: stop every actor without scoring the games. */
  stopAll(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    for (const s of this.slices) s.clear();
    for (const g of this.games.values()) {
      g.ended = true;
      try {
        g.actor.stop();
      } catch {
        // already stopped
      }
    }
    this.games.clear();
  }
}
