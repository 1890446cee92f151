/**
 * One game actor per live multiplayer game (machines/game: XState's fromTransition running the
 * core's pure step). Commands from sockets go in stamped with the time they are handled; the
 * step's events come out as socket messages to the two players. A finished game's actor is
 * stopped and forgotten.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { ChatLine, ClocksMs, Color, CurrentState, ErrorCode, GameNotice, GameRatings, RatingChangeMsg, ServerMessage, TimeControl } from '../../machines/protocol/messages';
import type { Hub, PlayerSession } from '../realtime/hub';
import type { ServerMetrics } from '../http/metrics';
import {
  chatOf,
  clockRunning,
  replay,
  gamePgn,
  newGameLog,
  clocksAt,
  playsAsGuest,
  rejoinState,
  timedCommand,
  wakeAt,
  type GameActor,
  type GameCommand,
  type GameEmitted,
  type GameInput,
  type GameLog,
  type GameResult,
  type GameState,
  type LagSettings,
  type Seat,
  clockOf,
  timeControlOf,
  takebacksByDefault,
  gameTimeControl,
} from '../../machines/game';
import { createGameActor, type Inspect } from './machines';
import { engineSeat } from '../../machines/ai/index';
import type { Heartbeat } from '../heartbeat';
import { WakeWheel, type WheelEntry } from './wakeWheel';
import { ENDED_KEEP_MS, ENDED_MAX, EndedGames } from './endedGames';
import { encodeJson, gameMoveFrame, timerUpdateFrame } from './frames';
import { NO_RECORDER, type GameRecorder } from './journal';
import type { DamagedGame } from './journalRecovery';
import type { GameWatchers, LiveGame } from '../round/types';

export type { LiveGame };
import { sit, stand } from '../round/seats';

/**
 * Time in the server's games comes from one timing wheel, turned by the server's heartbeat
 * (server/heartbeat.ts), not from a timer per game actor. Every command and wake-up is stamped
 * with performance.now() (monotonic), the time base of the games' states.
 * Each live game waits in the wheel for its next due time, whichever is first of:
 * - a deadline of the game (`wakeAt`: first-move deadline, flag, end of a counting disconnect
 *   grace); the game actor is then sent WAKE and decides;
 * - the next clock report of the running clock's turn without a move (`timerUpdate`, every
 *   `clockReportMs` of the turn; none when it is 0). Every `gameMove` carries both clocks, so a
 *   report repeats nothing the players were told less than an interval ago.
 * After every command the game is put back in the slot of its new due time. Slots are
 * as wide as a heartbeat (GAME_BEAT_MS), so a deadline is acted on at most that late (the flag
 * grace is 2 s).
 */
export const GAME_BEAT_MS = 50;

export interface GameOptions {
  clockMs: number;
  /** how often a running clock without a move is reported (timerUpdate), ms; 0 = never */
  clockReportMs: number;
  firstMoveMs: number;
  graceMs: { guest: number; account: number };
  /** lag compensation quota (DEFAULT_LAG: lichess 10+0) */
  lag: LagSettings;
  startFen?: string;
  inspect?: Inspect;
  /** told of every finished game, with its log and final state (the archive stores it) */
  onEnded?: (ended: EndedGame) => void;
  /** several nodes: told when a game starts and ends here (server/cluster) */
  placement?: GamePlacement;
  /** several nodes: false while this node may not change its games (its lease is uncertain); see CANNOT_PLAY_NOW */
  mayPlay?: () => boolean;
  /** the games' spectators (server/realtime/spectators.ts), given every frame the players get */
  watchers?: GameWatchers;
  /** told when a game begins here, started or resumed (server/round: its absent players are away) */
  presence?: GamePresence;
  /** plays the seats the engine holds (server/ai/seat.ts): told after every change of such a game */
  engine?: EngineSeats;
}

/** What plays the engine's seats needs to hear of their games. */
export interface EngineSeats {
  /** the game (one with an engine seat) changed, began here or was resumed: the engine may have to move */
  changed(game: LiveGame): void;
  /** the game left this node (ended, dropped, shutdown): the engine stops playing it */
  gone(game: LiveGame): void;
}

/** A game against the engine: the player's seat and colour, the engine's level, and the clock (null: none). */
export interface EngineGameSpec {
  player: PlayerSession;
  playerColor: Color;
  level: number;
  /** null: no clock, each move within `moveLimitMs` */
  timeControl: TimeControl | null;
  moveLimitMs: number;
}

/**
 * The session of a seat the engine holds: no socket, never seated in the hub (frames to it go
 * nowhere), its id the seat's.
 */
export function engineSession(seat: Seat): PlayerSession {
  return { id: seat.id, kind: 'guest', ws: null, name: seat.name, game: null, queued: false };
}

/** Whether a seat is the engine's. */
export function isEngineSeat(seat: Seat): boolean {
  return seat.engine !== undefined;
}

/** What the players' presence needs to hear of the games (server/round/presence.ts). */
export interface GamePresence {
  begun(game: LiveGame): void;
}

/**
 * The answer to a player's command refused because this node may not change its games right now
 * (its game store cannot write, a full disk for one; several nodes: its lease is uncertain):
 * nothing was played, the player may try again.
 */
export const CANNOT_PLAY_NOW = {
  code: 'unavailable',
  message: 'The server cannot save games right now; nothing was played. Try again in a moment.',
} as const satisfies { code: ErrorCode; message: string };

/** Where games are played, for a site of several nodes. */
export interface GamePlacement {
  gameStarted(game: LiveGame): void;
  gameEnded(game: LiveGame): void;
}

/** A game that has just finished; `at` is the end in the log's time base (performance.now()). */
export interface EndedGame {
  log: GameLog;
  state: GameState;
  result: GameResult;
  at: number;
}

/**
 * A game's `gameEnd` frame: its result and, when one could be written, its PGN. The one builder of
 * it, whether the game ends here or a node that took it over finds its end in its log.
 */
export function gameEndFrame(gameId: string, result: GameResult, pgn = ''): Uint8Array {
  return encodeJson({ type: 'gameEnd', gameId, winner: result.winner, reason: result.reason, ...(pgn ? { pgn } : {}) } satisfies ServerMessage);
}

/** The PGN the game's end carried: its replayed state's, once that state holds the end; '' when it does not (the game ended by a failure, not a command). */
function loggedPgn(log: GameLog): string {
  try {
    const state = replay(log);
    return state.result ? gamePgn(state) : '';
  } catch {
    return '';
  }
}

/** A new game's id. */
export function newGameId(): string {
  return 'game_' + randomBytes(9).toString('base64url');
}

/** The players' ratings a game shows: a signed-in player's as looked up, none for a guest; left out if neither has one. */
function ratingsInput(white: PlayerSession, black: PlayerSession): { ratings?: GameRatings } {
  const of = (s: PlayerSession) => (s.kind === 'account' ? (s.rating ?? null) : null);
  const ratings = { white: of(white), black: of(black) };
  return ratings.white || ratings.black ? { ratings } : {};
}

/** A game's notice as sent: its type, then the game's id, then its fields. */
function namingGame(gameId: string, notice: GameNotice): ServerMessage {
  const { type, ...fields } = notice;
  return { type, gameId, ...fields } as ServerMessage;
}

export class GameManager {
  readonly games = new Map<string, LiveGame>();
  /** performance.now() when the move being processed arrived, for the relay histogram */
  private moveArrivedAt = 0;
  private readonly wheel: WakeWheel<LiveGame>;
  private readonly ended = new EndedGames(ENDED_KEEP_MS, ENDED_MAX);

  constructor(
    private readonly hub: Hub,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
    private readonly opts: GameOptions,
    heartbeat: Heartbeat,
    /** the durable store every command goes to before its effects are sent (server/game/journal.ts) */
    private readonly recorder: GameRecorder = NO_RECORDER,
  ) {
    this.wheel = new WakeWheel<LiveGame>(heartbeat.periodMs, performance.now());
    heartbeat.onBeat((now) => this.tick(now));
  }

  get size(): number {
    return this.games.size;
  }

  /** Every live game's log (the journal's compaction writes them out). */
  *liveLogs(): Iterable<GameLog> {
    for (const g of this.games.values()) yield g.log;
  }

  /** The default pool's time control, a search's or rematch's that names none: the server's clock (CLOCK_SECONDS), no increment; 10+0 by default. */
  get defaultTimeControl(): TimeControl {
    return { initial: this.opts.clockMs / 1000, increment: 0 };
  }

  colorOf(game: LiveGame, playerId: string): Color | null {
    return game.white.id === playerId ? 'white' : game.black.id === playerId ? 'black' : null;
  }

  /**
   * Starts a game on `timeControl`'s clock; without one, on the default pool's. `casual`: never
   * rated (a custom game's choice). `takebacks`: whether the players may take moves back; by
   * default (lichess) yes unless the game may be rated. `gameId`: the id a pairing committed it
   * under (several nodes); a new one otherwise.
   */
  start(white: PlayerSession, black: PlayerSession, timeControl: TimeControl = this.defaultTimeControl, opts: { casual?: boolean; takebacks?: boolean; gameId?: string } = {}): LiveGame | null {
    const id = opts.gameId ?? newGameId();
    const input: GameInput = {
      gameId: id,
      white: { id: white.id, name: white.name ?? white.id },
      black: { id: black.id, name: black.name ?? black.id },
      ...clockOf(timeControl),
      firstMoveDeadlineMs: this.opts.firstMoveMs,
      graceMs: this.opts.graceMs,
      lag: this.opts.lag,
      startedAt: performance.now(),
      accountIds: [white, black].filter((s) => s.kind === 'account').map((s) => s.id),
      // a game between two accounts may be rated unless casual (docs/ratings.md): then no takebacks, as lichess by default
      takebacks: opts.takebacks ?? takebacksByDefault(white.kind === 'account' && black.kind === 'account' && !opts.casual),
      ...(this.opts.startFen ? { startFen: this.opts.startFen } : {}),
      ...ratingsInput(white, black),
      ...(opts.casual ? { casual: true } : {}),
    };
    return this.begin(input, { white, black });
  }

  /**
   * Starts a game against the engine: an ordinary game whose other seat the engine holds (its
   * seat marked `engine`, played by EngineSeats). On a time control its first moves have every
   * game's first-move deadline; without one it has no clock: each move must come within
   * `moveLimitMs`, the first moves too (as games against the AI had before they had clocks).
   */
  startAgainstEngine(spec: EngineGameSpec): LiveGame | null {
    const id = newGameId();
    const { player } = spec;
    const human: Seat = { id: player.id, name: player.name ?? (player.kind === 'account' ? 'Player' : 'Guest') };
    const engine = engineSeat(id, spec.level);
    const [white, black] = spec.playerColor === 'white' ? [human, engine] : [engine, human];
    const clock = spec.timeControl ? clockOf(spec.timeControl) : { clockMs: spec.moveLimitMs, untimed: true };
    const input: GameInput = {
      gameId: id,
      white,
      black,
      ...clock,
      firstMoveDeadlineMs: spec.timeControl ? this.opts.firstMoveMs : spec.moveLimitMs,
      graceMs: this.opts.graceMs,
      lag: this.opts.lag,
      startedAt: performance.now(),
      accountIds: player.kind === 'account' ? [player.id] : [],
    };
    const sessions = spec.playerColor === 'white' ? { white: player, black: engineSession(engine) } : { white: engineSession(engine), black: player };
    return this.begin(input, sessions);
  }

  /** A new game from `input`, recorded, seated, announced to its players and placed. */
  private begin(input: GameInput, sessions: { white: PlayerSession; black: PlayerSession }): LiveGame | null {
    const id = input.gameId;
    const actor = this.startActor(input);
    if (!actor) return null;
    this.recorder.started(input);
    const game = this.adopt(actor, newGameLog(input), sessions);
    this.metrics.gamesStarted.inc();
    this.log.info({ gameId: id, white: input.white.id, black: input.black.id }, 'game started');
    let currentState: CurrentState | undefined;
    try {
      currentState = this.opts.startFen ? this.currentState(game) : undefined;
    } catch (err) {
      this.log.error({ err, gameId: id }, 'cannot read the game state');
    }
    this.recorder.afterCommit(() => {
      for (const color of ['white', 'black'] as const) this.hub.sendTo(game.sessions[color], this.startMessage(game, color, currentState));
    });
    this.opts.placement?.gameStarted(game);
    // A player may have disconnected between pairing and now.
    this.opts.presence?.begun(game);
    this.engineChanged(game);
    return game;
  }

  /** gameStart for the player of `color`: the opponent, the clock (none: timerDuration 0, no timeControl), the position when given. */
  private startMessage(game: LiveGame, color: Color, currentState?: CurrentState, chat: ChatLine[] = []): ServerMessage {
    const input = game.log.input;
    const opponent = color === 'white' ? input.black : input.white;
    const timeControl = gameTimeControl(input);
    return {
      type: 'gameStart',
      gameId: game.id,
      color,
      opponentId: opponent.id,
      opponentName: opponent.name,
      opponentGuest: !opponent.engine && playsAsGuest(input, opponent.id),
      timerDuration: timeControl ? Math.round(timeControl.initial) : 0,
      ...(timeControl ? { timeControl } : {}),
      takebacks: input.takebacks === true,
      ...(opponent.engine ? { engineLevel: opponent.engine.level } : {}),
      ...(currentState ? { currentState } : {}),
      ...(game.ratings ? { ratings: game.ratings } : {}),
      ...(chat.length > 0 ? { chat } : {}),
    };
  }

  /**
   * Resumes a game from its log (already in this process's time base), seating its players, who
   * come back on their own; a player without a socket now starts a disconnect grace. Returns
   * null when the log does not give a running game (logged).
   */
  resume(log: GameLog, seat: (playerId: string, kind: 'guest' | 'account') => PlayerSession, awayMs: number): LiveGame | null {
    const input = log.input;
    const actor = this.startActor(input);
    if (!actor) return null;
    // before the game's listeners are attached: replaying tells nobody anything
    for (const entry of log.entries) actor.send(entry);
    const snap = actor.getSnapshot();
    if (snap.status !== 'active') {
      this.log.error({ gameId: input.gameId, err: snap.error }, 'game log did not replay; the game is aborted');
      return null;
    }
    const kind = (id: string) => (input.accountIds?.includes(id) ? 'account' : 'guest');
    // the engine's seat is played again here (EngineSeats); the players come back on their own
    const sessionOf = (s: Seat) => (isEngineSeat(s) ? engineSession(s) : seat(s.id, kind(s.id)));
    const game = this.adopt(actor, { ...log, entries: [...log.entries] }, { white: sessionOf(input.white), black: sessionOf(input.black) });
    const state = snap.context;
    this.metrics.gamesResumed.inc();
    this.log.info({ gameId: input.gameId, moves: state.moves.length, awayMs: Math.round(awayMs) }, 'game resumed');
    if (state.result) {
      // it ended by a command the journal holds but its end record was not yet written
      this.finish(game, { type: 'ended', winner: state.result.winner, reason: state.result.reason, pgn: gamePgn(state), clocks: state.clocks });
      return game;
    }
    this.opts.presence?.begun(game);
    this.engineChanged(game);
    return game;
  }

  /** A game whose log is damaged ends as aborted: players who come back are told so. Returns its gameEnd frame. */
  abortDamaged(d: DamagedGame): Uint8Array {
    this.metrics.gamesEnded.inc({ reason: 'aborted' });
    const frame = gameEndFrame(d.gameId, { winner: 'draw', reason: 'aborted' });
    if (d.white && d.black) this.ended.record(d.gameId, d.white.id, d.black.id, frame, performance.now());
    return frame;
  }

  /**
   * A game that ended on the node that played it, found ended in its log by a node taking that
   * node's games over (its players may never have heard of the end): its gameEnd frame, the one
   * its owner sent (the same result, the same PGN from the same commands), kept here as the end of
   * a game that ended here, so a player's rejoinGame is answered with it. Returns the frame.
   */
  loggedEnd(log: GameLog, result: GameResult): Uint8Array {
    const input = log.input;
    const frame = gameEndFrame(input.gameId, result, loggedPgn(log));
    this.ended.record(input.gameId, input.white.id, input.black.id, frame, performance.now(), gameTimeControl(input) ?? undefined);
    return frame;
  }

  /**
   * A game found ended in its log (loggedEnd), handed on as a game that ended here: the archive
   * stores a game once, by its id, so whether its node stored it or not, and a rated game's
   * ratingChange is then kept with its end here. `at`: the end, in this process's time base.
   */
  handOnLogged(log: GameLog, result: GameResult, at: number): void {
    try {
      this.opts.onEnded?.({ log, state: replay(log), result, at });
    } catch (err) {
      this.log.error({ err, gameId: log.input.gameId }, 'could not hand the finished game on');
    }
  }

  /** Runs `fn` once everything the games recorded so far is durable (at once without a journal). */
  afterCommit(fn: () => void): void {
    this.recorder.afterCommit(fn);
  }

  /** A started game actor for `input`, or null (logged) when it cannot be created or started. */
  private startActor(input: GameInput): GameActor | null {
    const id = input.gameId;
    let actor: GameActor;
    try {
      actor = createGameActor(input, this.opts.inspect);
      actor.start();
    } catch (err) {
      this.log.error({ err, gameId: id }, 'could not create or start the game actor');
      return null;
    }
    const started = actor.getSnapshot();
    if (started.status !== 'active') {
      this.log.error({ gameId: id, status: started.status, err: started.error }, 'game actor did not start');
      return null;
    }
    return actor;
  }

  /** The live game around a started actor: registered, seated, scheduled and listened to. */
  private adopt(actor: GameActor, log: GameLog, sessions: { white: PlayerSession; black: PlayerSession }): LiveGame {
    const input = log.input;
    const id = input.gameId;
    const game: LiveGame = {
      id,
      wakeSlot: -1,
      wakePrev: null,
      wakeNext: null,
      reportTurn: -1,
      reportsThisTurn: 0,
      white: input.white,
      black: input.black,
      sessions,
      actor,
      log,
      startedAt: Date.now(),
      ended: false,
      // kept in the input, so a game resumed from the journal shows them too
      ratings: input.ratings,
    };
    this.games.set(id, game);
    this.reschedule(game);
    sit(sessions.white, game);
    sit(sessions.black, game);
    actor.on('*', (e) => this.onEmitted(game, e));
    actor.subscribe({
      error: (err) => {
        this.log.error({ err, gameId: id }, 'game actor failed; aborting the game');
        this.finish(game, { type: 'ended', winner: 'draw', reason: 'aborted', pgn: '', clocks: actor.getSnapshot().context.clocks });
      },
    });
    return game;
  }

  /**
   * Sends a command to a game actor, stamped with the time now; never throws. False when the
   * game is over, or when this node may not play its games right now (several nodes: its lease
   * is uncertain), and nothing was done.
   */
  command(game: LiveGame, cmd: GameCommand, arrivedAt?: number): boolean {
    if (game.ended) return false;
    if (!this.mayPlay()) return false;
    this.moveArrivedAt = arrivedAt ?? 0;
    try {
      const entry = timedCommand(cmd, performance.now());
      game.log.entries.push(entry);
      this.recorder.command(game.id, entry, game.log.entries.length);
      game.actor.send(entry);
    } catch (err) {
      this.log.error({ err, gameId: game.id, cmd: cmd.type }, 'game actor threw');
    } finally {
      this.moveArrivedAt = 0;
    }
    this.reschedule(game);
    this.engineChanged(game);
    return true;
  }

  /** A game the engine plays a seat of changed: EngineSeats decides whether it moves. */
  private engineChanged(game: LiveGame): void {
    if (!this.opts.engine || game.ended || !(isEngineSeat(game.white) || isEngineSeat(game.black))) return;
    try {
      this.opts.engine.changed(game);
    } catch (err) {
      this.log.error({ err, gameId: game.id }, 'the engine seats failed');
    }
  }

  /**
   * Whether the games may change now: their store writes (a full or failing disk does not: what
   * would be played could not be kept), and, with several nodes, this node's lease is sure.
   */
  mayPlay(): boolean {
    return this.recorder.healthy && (this.opts.mayPlay?.() ?? true);
  }

  /** Puts the game in the wheel slot of its next due time (see the top of this file). */
  private reschedule(game: LiveGame): void {
    const state = this.liveState(game);
    if (!state) {
      this.wheel.cancel(game);
      return;
    }
    this.wheel.schedule(game, Math.min(wakeAt(state), this.nextReportAt(game, state)));
  }

  /** The state of a game still being played, or null once it ended or its actor failed. */
  private liveState(game: LiveGame): GameState | null {
    if (game.ended) return null;
    const snap = game.actor.getSnapshot();
    return snap.status === 'active' && snap.context.result === null ? snap.context : null;
  }

  /** When the running clock's next report without a move is due (Infinity if none runs or none is reported). */
  private nextReportAt(game: LiveGame, state: GameState): number {
    const every = this.opts.clockReportMs;
    if (every <= 0 || !clockRunning(state)) return Number.POSITIVE_INFINITY;
    if (game.reportTurn !== state.turnStartedAt) {
      game.reportTurn = state.turnStartedAt;
      game.reportsThisTurn = 0;
    }
    return state.turnStartedAt + (game.reportsThisTurn + 1) * every;
  }

  /**
   * Tells a player of the game where it stands (a rejoin, or a game taken over from another
   * node): gameStart with the position, move list and clocks, and the opponent's pending draw
   * offer. The position may hold a move still being written: the player sees it once durable.
   */
  sendPosition(game: LiveGame, session: PlayerSession): void {
    const color = this.colorOf(game, session.id);
    if (!color) return;
    const state = this.currentState(game);
    const chat = chatOf(game.log, 'player');
    this.recorder.afterCommit(() => {
      this.hub.sendTo(session, this.startMessage(game, color, state, chat));
      // the opponent's pending draw offer and takeback proposal are part of currentState; sent as events as well
      if (state.drawOfferFrom && state.drawOfferFrom !== color) this.hub.sendTo(session, { type: 'drawOffer', gameId: game.id });
      if (state.takebackFrom && state.takebackFrom !== color) this.hub.sendTo(session, { type: 'takebackOffer', gameId: game.id });
    });
  }

  /** The rejoin snapshot (gameStart.currentState) as of now. */
  currentState(game: LiveGame): CurrentState {
    return rejoinState(game.actor.getSnapshot().context, performance.now());
  }

  /**
   * One frame, serialised and encoded once, to both players once durable; returns it. A frame
   * that must wait is copied: the frame writers (frames.ts) reuse one buffer.
   */
  private both(game: LiveGame, frame: Uint8Array, relayFrom = 0): Uint8Array {
    const bytes = this.recorder.waiting ? frame.slice() : frame;
    this.recorder.afterCommit(() => {
      this.hub.sendBytesTo(game.sessions.white, bytes);
      this.hub.sendBytesTo(game.sessions.black, bytes);
      this.opts.watchers?.frame(game.id, bytes);
      if (relayFrom) this.metrics.relayLatency.observe((performance.now() - relayFrom) / 1000);
    });
    return bytes;
  }

  /** The players of a game `playerId` played in that ended in the last minutes (for a rematch), or null. */
  endedPlayers(gameId: string, playerId: string): { white: string; black: string; timeControl?: TimeControl } | null {
    return this.ended.playersOf(gameId, playerId, performance.now());
  }

  /** The gameEnd frame of a game `playerId` played in that ended in the last minutes, then its ratingChange if scored; none if not. */
  endedFrames(gameId: string, playerId: string): Uint8Array[] {
    return this.ended.framesFor(gameId, playerId, performance.now());
  }

  /** A rated game's ratingChange, kept with its end for a player who comes back late. */
  rated(msg: RatingChangeMsg): void {
    this.ended.followUp(msg.gameId, encodeJson(msg), performance.now());
  }

  /**
   * A rated game's ratingChange to its player, back online after it was scored: while the game's
   * end is kept, the end first and then the ratingChange, as a player coming back to the game
   * gets them, and the socket remembers it was told (a rejoin does not repeat them); else the
   * ratingChange alone. False when it could not be sent.
   */
  sendRatedLate(session: PlayerSession, msg: RatingChangeMsg): boolean {
    const end = this.endedFrames(msg.gameId, session.id);
    if (end.length === 0) return this.hub.sendTo(session, msg);
    if (session.ws) (session.ws.getUserData().endsSent ??= new Set()).add(msg.gameId);
    for (const frame of end) this.hub.sendBytesTo(session, frame);
    return true;
  }

  /**
   * A line of the game's chat (server/chat checked its author and text): kept in the game's log,
   * then sent to its room once durable, to the two players or to the spectators. A player's line
   * carries the name and colour the game gives them. False (nothing done) when the game is not
   * live here, or the author does not belong to the room (a player in the spectator room).
   */
  chat(gameId: string, playerId: string, line: ChatLine): boolean {
    const game = this.games.get(gameId);
    if (!game || game.ended) return false;
    const color = this.colorOf(game, playerId);
    if ((line.room === 'player') !== (color !== null)) return false;
    const said: ChatLine = color ? { room: 'player', name: game[color].name, ...(playsAsGuest(game.log.input, playerId) ? { guest: true } : {}), color, text: line.text } : line;
    if (!this.command(game, { type: 'CHAT', playerId, line: said })) return false;
    const frame = encodeJson({ type: 'chatMessage', gameId, ...said } satisfies ServerMessage);
    this.recorder.afterCommit(() => {
      if (said.room === 'spectator') return this.opts.watchers?.frame(gameId, frame);
      this.hub.sendBytesTo(game.sessions.white, frame);
      this.hub.sendBytesTo(game.sessions.black, frame);
    });
    return true;
  }

  /** What the step told the players (a `told`): once durable, to one seat, or to both players and the spectators. */
  private tell(game: LiveGame, to: 'both' | Color, notice: GameNotice): void {
    const msg = namingGame(game.id, notice);
    if (to === 'both') this.both(game, encodeJson(msg));
    else this.recorder.afterCommit(() => this.hub.sendTo(game.sessions[to], msg));
  }

  private onEmitted(game: LiveGame, e: GameEmitted): void {
    if (game.ended) return;
    switch (e.type) {
      case 'moved': {
        this.both(game, gameMoveFrame({ type: 'gameMove', gameId: game.id, move: e.move, nextTurn: e.nextTurn, san: e.san, fen: e.fen, clocks: e.clocks, seq: e.seq }), this.moveArrivedAt);
        this.metrics.movesRelayed.inc();
        return;
      }
      case 'rejected': {
        const fen = game.actor.getSnapshot().context.fen;
        const rejected: ServerMessage = { type: 'moveRejected', message: e.reason, gameId: game.id, fen };
        this.recorder.afterCommit(() => this.hub.send(e.playerId, rejected));
        this.metrics.messagesRejected.inc({ reason: 'move_rejected' });
        this.log.info({ gameId: game.id, playerId: e.playerId, reason: e.reason }, 'move rejected');
        return;
      }
      case 'told':
        this.tell(game, e.to, e.message);
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
    const endedAt = performance.now();
    this.recorder.ended(game.log, endedAt, { winner: e.winner, reason: e.reason });
    this.tellEnded(game, { winner: e.winner, reason: e.reason }, endedAt);
    // its own buffer: the frame is kept for players who come back late
    const frame = this.both(game, gameEndFrame(game.id, { winner: e.winner, reason: e.reason }, e.pgn));
    this.recorder.afterCommit(() => this.opts.watchers?.ended(game.id));
    this.ended.record(game.id, game.white.id, game.black.id, frame, performance.now(), gameTimeControl(game.log.input) ?? undefined);
    this.unseat(game);
    this.opts.placement?.gameEnded(game);
    this.metrics.gamesEnded.inc({ reason: e.reason });
    this.log.info(
      { gameId: game.id, white: game.white.id, black: game.black.id, winner: e.winner, reason: e.reason, durationMs: Date.now() - game.startedAt },
      'game ended',
    );
    // A finished game's state changes no more; its actor is stopped and dropped with the game.
    game.actor.stop();
  }

  /** The game leaves this node's games and its players' seats. */
  private unseat(game: LiveGame): void {
    this.games.delete(game.id);
    this.wheel.cancel(game);
    if (isEngineSeat(game.white) || isEngineSeat(game.black)) this.opts.engine?.gone(game);
    for (const s of [game.sessions.white, game.sessions.black]) if (stand(s, game)) this.hub.forgetIfIdle(s);
  }

  /**
   * Drops a game another node plays now (several nodes): stopped here without a result, nothing
   * told to anybody. False when there is no such game here.
   */
  drop(gameId: string): boolean {
    const game = this.games.get(gameId);
    if (!game) return false;
    game.ended = true;
    this.unseat(game);
    game.actor.stop();
    return true;
  }

  private tellEnded(game: LiveGame, result: GameResult, at: number): void {
    if (!this.opts.onEnded) return;
    try {
      this.opts.onEnded({ log: game.log, state: game.actor.getSnapshot().context, result, at });
    } catch (err) {
      this.log.error({ err, gameId: game.id }, 'could not hand the finished game on');
    }
  }

  /** The games whose due time has come: deadlines to the machine, clock reports to the players. */
  private tick(now: number): void {
    if (!this.mayPlay()) return;
    const due = this.wheel.takeDue(now);
    for (const game of due) {
      if (game.ended) continue;
      try {
        this.wake(game);
      } catch (err) {
        this.log.warn({ err, gameId: game.id }, 'cannot read the clocks');
      }
      this.reschedule(game);
    }
  }

  private wake(game: LiveGame): void {
    let state = this.liveState(game);
    if (!state) return;
    const now = performance.now();
    if (now >= wakeAt(state)) {
      this.command(game, { type: 'WAKE' });
      state = this.liveState(game);
      if (!state) return;
    }
    if (now < this.nextReportAt(game, state)) return;
    // intervals of this turn reported so far (a late tick does not send a burst)
    game.reportsThisTurn = Math.floor((now - state.turnStartedAt) / this.opts.clockReportMs);
    this.reportClocks(game, clocksAt(state, now));
  }

  /** timerUpdate: the whole seconds players see, and the milliseconds. */
  private reportClocks(game: LiveGame, clocks: ClocksMs): void {
    this.both(game, timerUpdateFrame(game.id, clocks));
  }

  /** Server shutdown: stop every actor without scoring the games. */
  stopAll(): void {
    for (const g of this.games.values()) this.wheel.cancel(g);
    for (const g of this.games.values()) {
      g.ended = true;
      if (isEngineSeat(g.white) || isEngineSeat(g.black)) this.opts.engine?.gone(g);
      for (const s of [g.sessions.white, g.sessions.black]) stand(s, g);
      try {
        g.actor.stop();
      } catch {
        // already stopped
      }
    }
    this.games.clear();
  }
}
