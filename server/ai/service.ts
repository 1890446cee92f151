/**
 * The AI game service (docs/protocol.md): one XState actor (machines/ai) per AI game,
 * with engine-backed implementations, and the socket messages those actors produce.
 *
 * Messages, all through `send(playerId, msg)`:
 *   startAIGame  -> gameCreated {gameId, playerColor, opponentName}, aiGameStart {gameId, color,
 *                   timerDuration: 0, currentState}; refusals as error {message, code}
 *   playerMoveAI -> nothing on success (the AI's reply follows as moveMade); moveRejected
 *                   {message, gameId, fen} when illegal / out of turn / not this player's game
 *   AI reply     -> moveMade {gameId, move, gameOver, san, fen} after the human-like pause
 *   game end     -> gameOver {gameId, reason, winner} (also after a moveMade with gameOver)
 *   engine fault -> error {message, code: 'engine_failure'} then gameOver technical_draw
 */
import type { Logger } from 'pino';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import {
  aiGameMachine,
  type AiGameEmitted,
  type AiMoveInput,
  type AiMoveOutput,
} from '../../machines/ai/index';
import { toMoveInput } from '../../machines/ai/position';
import {
  TEXT,
  type AiGameOptions,
  type Color,
  type CurrentState,
  type ErrorCode,
  type ParsedPayloads,
  type ServerMessage,
  type WireMove,
} from '../../machines/protocol/messages';
import { defaultSettings } from '../config';
import { EnginePool } from './engine/pool';
import { resolveEngine } from './engine/locate';
import { DEFAULT_IDLE_MS } from '../config/ai';
import { newAiGameId } from './gameIds';
import { DEFAULT_GRACE_MS } from '../../machines/game/defaults';
import { playerKind } from '../realtime/identity';
import { levelSettings } from './levels';
import { chooseAiMove } from './move-chooser';
import type { Inspect } from '../game/machines';
import type { AiGameRecorder } from '../game/journal';
import { CANNOT_PLAY_NOW } from '../game/games';
import type { GameResult } from '../../machines/game';
import type { AiGameLog } from '../game/journalRecords';

export interface AiService {
  /**
   * options as the protocol's startAIGame schema has checked them; `address`: the client address
   * the game is counted against (AI_GAMES_PER_ADDRESS)
   */
  start(playerId: string, options: AiGameOptions, address?: string): void;
  /** a playerMoveAI payload as the protocol's schema has checked it */
  move(playerId: string, payload: ParsedPayloads['playerMoveAI']): void;
  resign(playerId: string, gameId: string): void;
  ownsGame(gameId: string): boolean;
  hasGame(playerId: string): boolean;
  /** the id of the player's game against the AI here, or undefined */
  gameOf(playerId: string): string | undefined;
  /** game kept for the disconnect grace, then lost by the absent player */
  playerDisconnected(playerId: string): void;
  /** re-sends aiGameStart with currentState */
  playerReconnected(playerId: string): void;
  stats(): { games: number; engines: number; queue: number };
  close(): Promise<void>;
  /** additive: process ids of the engines (operations, tests) */
  enginePids(): number[];
  /** additive: pid of the engine searching for this game right now, if any */
  enginePidFor(gameId: string): number | undefined;
  /** additive: which engine runs, e.g. "/usr/games/stockfish" */
  readonly engineLabel: string;
  /**
   * additive: a game the journal kept across a restart, back in play; its player is away until
   * they reconnect (the disconnect grace runs). False (logged) when it cannot be resumed.
   */
  resumeGame(game: AiGameLog): boolean;
  /** additive: every live game as the journal keeps it (for its compaction) */
  liveGames(): AiGameLog[];
  /**
   * additive, several nodes: a game another node plays now (this node lost it) stops here
   * without a result: nothing is recorded, the player is told nothing. False when it is not here.
   */
  dropGame(gameId: string): boolean;
}

/** A game against the AI as the AI service reports its end. */
export interface EndedAiGame {
  gameId: string;
  playerId: string;
  playerColor: Color;
  difficulty: number;
  /** UCI, both sides */
  moves: readonly string[];
  result: GameResult;
  /** wall-clock ms */
  startedAt: number;
  endedAt: number;
}

export interface AiServiceOptions {
  send: (playerId: string, msg: ServerMessage) => void;
  logger: Logger;
  /** engine processes; default AI_POOL_SIZE or the number of cores */
  poolSize?: number;
  /** concurrent AI games; default AI_MAX_GAMES or 200 */
  maxGames?: number;
  /** concurrent AI games started from one client address; default AI_GAMES_PER_ADDRESS or 5 */
  maxGamesPerAddress?: number;
  /** engine executable or .js build; default STOCKFISH_PATH, PATH, then the WASM build */
  enginePath?: string;
  /** human-like pause range in ms; default AI_REPLY_DELAY_MS or [300, 1200] */
  replyDelayMs?: [number, number];
  /** told of every finished game, with its moves and result (the archive stores it) */
  onEnded?: (ended: EndedAiGame) => void;
  /** how long a disconnected player's game is kept, then lost by them; default: `graceMs` */
  disconnectGraceMs?: number;
  /**
   * the disconnect grace of the site's games by player (GRACE_GUEST_SECONDS, GRACE_ACCOUNT_SECONDS):
   * an AI game ends by the same rule as a game between players; without either, DEFAULT_GRACE_MS
   */
  graceMs?: (playerId: string) => number;
  /** a player who does not move this long on their turn loses on time; default DEFAULT_IDLE_MS (10 minutes) */
  idleMs?: number;
  /** cap on every search's movetime (tests); default none */
  maxMovetimeMs?: number;
  /** watchdog margin on top of movetime before an engine counts as hung */
  watchdogGraceMs?: number;
  /** injectable randomness (colour draw, weakness policy, pauses) */
  random?: () => number;
  /**
   * the durable store (server/game/journal.ts): each game's start, moves and end are recorded
   * before the messages about them are sent (the server's `send` waits for the commit)
   */
  recorder?: AiGameRecorder;
  /**
   * several nodes: false while this node may not change its games (its lease is uncertain);
   * the player's moves and resignations are then refused and nothing is played
   */
  mayPlay?: () => boolean;
  /** the XState inspector each game's machine reports to (INSPECT; server/inspect) */
  inspect?: Inspect;
}

/** What the server supplies to the AI service it starts; the rest are settings. */
export type AiServiceDeps = Pick<AiServiceOptions, 'send' | 'logger' | 'recorder' | 'onEnded' | 'mayPlay' | 'inspect' | 'graceMs'>;

export const AI_ERRORS = {
  alreadyPlaying: { code: 'ai_game_in_progress', message: 'You already have an AI game in progress' },
  full: (max: number) => ({
    code: 'ai_capacity',
    message: `The server is already running its maximum of ${max} AI games. Please try again in a few minutes.`,
  }),
  addressFull: (max: number) => ({
    code: 'ai_address_limit',
    message: `At most ${max} AI games can be played at once from one address. Finish or resign one first.`,
  }),
  notYourGame: { code: 'not_your_game', message: 'Not your game' },
  engine: (detail: string) => ({ code: 'engine_failure', message: detail }),
  unavailable: { code: 'ai_unavailable', message: 'The AI is not available right now' },
  noGame: { code: 'no_ai_game', message: 'No active AI game' },
} as const satisfies Record<string, AiError | ((arg: never) => AiError)>;

interface AiError {
  code: ErrorCode;
  message: string;
}

export const NO_AI_GAME = AI_ERRORS.noGame.message;

/** Shortest movetime load shedding may give a search. */
export const MIN_SHED_MOVETIME_MS = 30;

type GameActor = ActorRefFrom<typeof aiGameMachine>;

interface GameEntry {
  gameId: string;
  playerId: string;
  playerColor: Color;
  difficulty: number;
  actor: GameActor;
  log: Logger;
  startedAt: number;
  /** the client address the game counts against */
  address: string;
  /** performance.now() when its player left with no other socket; null while connected */
  goneSince: number | null;
  disconnectTimer: NodeJS.Timeout | null;
  /** runs while it is the player's turn: they lose on time when it fires */
  idleTimer: NodeJS.Timeout | null;
  finished: boolean;
}

function uciToWire(uci: string): WireMove {
  const input = toMoveInput(uci)!;
  return input.promotion ? { from: input.from, to: input.to, promotion: input.promotion } : { from: input.from, to: input.to };
}

export async function createAiService(opts: AiServiceOptions): Promise<AiService> {
  const env = defaultSettings().ai;
  const log = opts.logger;
  const random = opts.random ?? Math.random;
  const maxGames = opts.maxGames ?? env.maxGames;
  const maxGamesPerAddress = opts.maxGamesPerAddress ?? env.maxGamesPerAddress;
  const replyDelay = opts.replyDelayMs ?? env.replyDelayMs;
  const idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  const graceMsOf = (playerId: string) => opts.disconnectGraceMs ?? opts.graceMs?.(playerId) ?? DEFAULT_GRACE_MS[playerKind(playerId)];
  const maxMovetimeMs = opts.maxMovetimeMs ?? env.maxMovetimeMs;
  const spec = resolveEngine({ enginePath: opts.enginePath ?? env.enginePath });
  const pool = await EnginePool.create({
    spec,
    size: opts.poolSize ?? env.poolSize,
    logger: log.child({ sub: 'engine-pool' }),
    watchdogGraceMs: opts.watchdogGraceMs,
  });

  const recorder = opts.recorder;
  const mayPlay = opts.mayPlay ?? (() => true);
  const games = new Map<string, GameEntry>();
  const byPlayer = new Map<string, string>();
  /** games per client address */
  const byAddress = new Map<string, number>();
  let closed = false;

  const send = (playerId: string, msg: ServerMessage) => {
    try {
      opts.send(playerId, msg);
    } catch (e) {
      log.error({ playerId, type: msg.type, err: (e as Error).message }, 'sending an AI message failed');
    }
  };

  /**
   * Load shedding: when more searches are waiting or running than there are engines, every
   * new search gets a proportionally shorter movetime (never under MIN_SHED_MOVETIME_MS), so
   * a reply still comes within about one normal movetime of queueing instead of the queue
   * growing without bound (200 games at level 10 on 2 engines would otherwise wait ~100 s
   * per move). Depth-limited low levels are unaffected; high levels play weaker under load.
   */
  const loadShedMovetime = (level: number): number | undefined => {
    const st = pool.stats();
    const demand = st.queue + st.busy + 1;
    const base = Math.min(levelSettings(level).movetimeMs, maxMovetimeMs ?? Infinity);
    if (demand <= pool.size) return maxMovetimeMs;
    return Math.max(MIN_SHED_MOVETIME_MS, Math.round((base * pool.size) / demand));
  };

  /** Engine-backed move source with the human-like pause (rest of it after thinking). */
  // XState aborts `signal` when the game leaves its thinking state (a resignation, an abandoned
  // game, shutdown): the engine stops searching for a move nobody will play.
  const aiMove = fromPromise<AiMoveOutput, AiMoveInput>(async ({ input, signal }) => {
    const started = performance.now();
    const [lo, hi] = replyDelay;
    const targetMs = lo + random() * Math.max(0, hi - lo);
    const chosen = await chooseAiMove(pool, input.difficulty, input.moves, {
      maxMovetimeMs: loadShedMovetime(input.difficulty),
      random,
      tag: input.gameId,
      signal,
    });
    const elapsed = performance.now() - started;
    return { uci: chosen.uci, pauseMs: Math.max(0, Math.round(targetMs - elapsed)) };
  });
  const machine = aiGameMachine.provide({ actors: { aiMove } });

  function finish(entry: GameEntry): void {
    if (entry.finished) return;
    entry.finished = true;
    recorder?.aiEnded(entry.gameId);
    release(entry);
  }

  /** The player's turn has begun: unless they move within the idle limit, they lose on time. */
  function awaitPlayer(entry: GameEntry): void {
    stopIdle(entry);
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = null;
      entry.log.info({ idleMs }, 'AI game player did not move on their turn; they lose on time');
      entry.actor.send({ type: 'IDLE' });
    }, idleMs);
    entry.idleTimer.unref?.();
  }

  function stopIdle(entry: GameEntry): void {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = null;
  }

  /** Whose turn it is: the player's when as many moves were played as make it their colour's. */
  function playersTurn(entry: GameEntry): boolean {
    const plies = entry.actor.getSnapshot().context.moves.length;
    return (plies % 2 === 0) === (entry.playerColor === 'white');
  }

  /** The game's place here (its timers, its seat, its address's slot) is given up. */
  function release(entry: GameEntry): void {
    stopIdle(entry);
    if (entry.disconnectTimer) clearTimeout(entry.disconnectTimer);
    games.delete(entry.gameId);
    if (byPlayer.get(entry.playerId) === entry.gameId) byPlayer.delete(entry.playerId);
    const n = (byAddress.get(entry.address) ?? 1) - 1;
    if (n > 0) byAddress.set(entry.address, n);
    else byAddress.delete(entry.address);
  }

  /**
   * A game whose player is gone (no socket left) keeps its seat for the resume window, but not
   * its reservation: when a new game needs the slot, the one gone longest (of `address`, or of
   * anyone) is abandoned to make room. Returns whether one was.
   */
  function reclaimGoneGame(address?: string): boolean {
    let oldest: GameEntry | undefined;
    for (const entry of games.values()) {
      if (entry.goneSince === null || (address !== undefined && entry.address !== address)) continue;
      if (!oldest || entry.goneSince < (oldest.goneSince ?? Infinity)) oldest = entry;
    }
    if (!oldest) return false;
    oldest.log.info({ address: oldest.address }, 'AI game abandoned: its player is gone and a new game needs the slot');
    oldest.actor.send({ type: 'ABANDON' });
    finish(oldest);
    return true;
  }

  function onEmitted(entry: GameEntry, ev: AiGameEmitted): void {
    switch (ev.type) {
      case 'aiMoved':
        recorder?.aiMoved(entry.gameId, ev.uci);
        if (!ev.gameOver) awaitPlayer(entry);
        send(entry.playerId, { type: 'moveMade', gameId: entry.gameId, move: ev.move, gameOver: ev.gameOver, san: ev.san, fen: ev.fen });
        return;
      case 'playerMoved':
        stopIdle(entry);
        recorder?.aiMoved(entry.gameId, ev.uci);
        entry.log.debug({ move: ev.uci }, 'player moved');
        return;
      case 'rejected':
        send(entry.playerId, { type: 'moveRejected', message: ev.reason, gameId: entry.gameId, fen: ev.fen });
        return;
      case 'engineError':
        entry.log.error({ err: ev.message }, 'AI engine failure; game ends as a technical draw');
        send(entry.playerId, { type: 'error', ...AI_ERRORS.engine(ev.message) });
        return;
      case 'ended': {
        const plies = entry.actor.getSnapshot().context.moves.length;
        entry.log.info(
          { winner: ev.winner, reason: ev.reason, plies, durationMs: Date.now() - entry.startedAt },
          'AI game ended',
        );
        // the end is recorded first: the server's send waits for that record to be durable, so
        // no player is told of an end a node taking the game over would not find
        finish(entry);
        send(entry.playerId, { type: 'gameOver', gameId: entry.gameId, reason: ev.reason, winner: ev.winner });
        tellEnded(entry, { winner: ev.winner, reason: ev.reason });
        return;
      }
    }
  }

  function tellEnded(entry: GameEntry, result: EndedAiGame['result']): void {
    if (!opts.onEnded) return;
    try {
      const { moves } = entry.actor.getSnapshot().context;
      opts.onEnded({
        gameId: entry.gameId, playerId: entry.playerId, playerColor: entry.playerColor, difficulty: entry.difficulty,
        moves: [...moves], result, startedAt: entry.startedAt, endedAt: Date.now(),
      });
    } catch (err) {
      entry.log.error({ err }, 'could not hand the finished AI game on');
    }
  }

  function currentState(entry: GameEntry): CurrentState {
    const ctx = entry.actor.getSnapshot().context;
    return {
      fen: ctx.fen,
      turn: ctx.moves.length % 2 === 0 ? 'white' : 'black',
      moves: ctx.moves.map(uciToWire),
      timers: { white: 0, black: 0 },
    };
  }

  function sendStart(entry: GameEntry): void {
    send(entry.playerId, {
      type: 'aiGameStart',
      gameId: entry.gameId,
      color: entry.playerColor,
      timerDuration: 0, // AI games have no clock
      currentState: currentState(entry),
    });
  }

  function refuse(playerId: string, err: AiError): void {
    send(playerId, { type: 'error', code: err.code, message: err.message });
  }

  function rejectMove(playerId: string, message: string, gameId?: string): void {
    send(playerId, { type: 'moveRejected', message, ...(gameId ? { gameId } : {}) });
  }

  /** A game's actor (not started yet) and its entry, registered and listened to. */
  function adopt(game: AiGameLog, address: string): GameEntry {
    const { gameId, playerId, playerColor, difficulty } = game;
    const actor = createActor(machine, {
      input: { gameId, playerColor, difficulty, ...(game.moves.length > 0 ? { moves: game.moves } : {}) },
      // the id is the name the inspector shows
      id: `AI game ${gameId}`,
      inspect: opts.inspect,
    });
    const entry: GameEntry = {
      gameId,
      playerId,
      playerColor,
      difficulty,
      actor,
      log: log.child({ gameId, playerId }),
      startedAt: Date.now(),
      address,
      goneSince: null,
      disconnectTimer: null,
      idleTimer: null,
      finished: false,
    };
    games.set(gameId, entry);
    byPlayer.set(playerId, gameId);
    byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    for (const type of ['aiMoved', 'playerMoved', 'rejected', 'engineError', 'ended'] as const) {
      actor.on(type, (ev) => onEmitted(entry, ev as AiGameEmitted));
    }
    actor.subscribe({
      error: (err) => {
        // A bug in the machine must not leave the player hanging or crash the server.
        if (entry.finished) return;
        entry.log.error({ err: (err as Error)?.message ?? String(err) }, 'AI game actor failed');
        send(playerId, { type: 'error', ...AI_ERRORS.engine('The AI game failed unexpectedly') });
        send(playerId, { type: 'gameOver', gameId, reason: 'technical_draw', winner: 'draw' });
        finish(entry);
      },
    });
    return entry;
  }

  const service: AiService = {
    engineLabel: spec.label,

    start(playerId, options, address = 'unknown') {
      if (closed) return refuse(playerId, AI_ERRORS.unavailable);
      if (byPlayer.has(playerId)) return refuse(playerId, AI_ERRORS.alreadyPlaying);
      if ((byAddress.get(address) ?? 0) >= maxGamesPerAddress && !reclaimGoneGame(address)) {
        log.info({ playerId, address, maxGamesPerAddress }, 'AI game refused: the address has its maximum');
        return refuse(playerId, AI_ERRORS.addressFull(maxGamesPerAddress));
      }
      if (games.size >= maxGames && !reclaimGoneGame()) {
        log.warn({ playerId, games: games.size, maxGames }, 'AI game refused: server at capacity');
        return refuse(playerId, AI_ERRORS.full(maxGames));
      }
      const playerColor: Color =
        options.playerColor === 'random' ? (random() < 0.5 ? 'white' : 'black') : options.playerColor;
      const gameId = newAiGameId();
      const entry = adopt({ gameId, playerId, playerColor, difficulty: options.difficulty, moves: [] }, address);
      recorder?.aiStarted({ gameId, playerId, playerColor, difficulty: options.difficulty });
      entry.log.info({ difficulty: options.difficulty, playerColor, requestedColor: options.playerColor, engine: spec.kind }, 'AI game started');
      send(playerId, { type: 'gameCreated', gameId, playerColor, opponentName: TEXT.aiOpponentName });
      sendStart(entry);
      entry.actor.start(); // the AI moves at once when it has white
      if (playersTurn(entry)) awaitPlayer(entry);
    },

    resumeGame(game) {
      if (closed || games.has(game.gameId) || byPlayer.has(game.playerId)) return false;
      const entry = adopt(game, 'resumed');
      entry.actor.start(); // the AI moves at once when it is its turn
      if (entry.actor.getSnapshot().status !== 'active') {
        entry.log.error({ moves: game.moves.length }, 'AI game could not be resumed; it ends');
        finish(entry);
        return false;
      }
      entry.log.info({ moves: game.moves.length }, 'AI game resumed');
      if (playersTurn(entry)) awaitPlayer(entry);
      service.playerDisconnected(game.playerId); // until the player's client reconnects
      return true;
    },

    liveGames() {
      return [...games.values()].map((e) => ({
        gameId: e.gameId,
        playerId: e.playerId,
        playerColor: e.playerColor,
        difficulty: e.difficulty,
        moves: [...e.actor.getSnapshot().context.moves],
      }));
    },

    dropGame(gameId) {
      const entry = games.get(gameId);
      if (!entry) return false;
      entry.finished = true; // before the actor stops: its end is neither recorded nor told
      entry.actor.stop();
      release(entry);
      entry.log.warn('AI game dropped here: another node plays it now');
      return true;
    },

    move(playerId, { gameId, move }) {
      const entry = games.get(gameId);
      if (!entry) {
        return rejectMove(playerId, byPlayer.has(playerId) ? AI_ERRORS.notYourGame.message : NO_AI_GAME, gameId);
      }
      if (entry.playerId !== playerId) return rejectMove(playerId, AI_ERRORS.notYourGame.message, gameId);
      if (!mayPlay()) return rejectMove(playerId, CANNOT_PLAY_NOW.message, gameId);
      entry.actor.send({ type: 'PLAYER_MOVE', move });
    },

    resign(playerId, gameId) {
      const entry = games.get(gameId);
      if (!entry) return refuse(playerId, AI_ERRORS.noGame);
      if (entry.playerId !== playerId) return refuse(playerId, AI_ERRORS.notYourGame);
      if (!mayPlay()) return refuse(playerId, CANNOT_PLAY_NOW);
      entry.actor.send({ type: 'RESIGN' });
    },

    ownsGame(gameId) {
      return games.has(gameId);
    },

    hasGame(playerId) {
      return byPlayer.has(playerId);
    },

    gameOf(playerId) {
      return byPlayer.get(playerId);
    },

    playerDisconnected(playerId) {
      const entry = games.get(byPlayer.get(playerId) ?? '');
      if (!entry) return;
      if (entry.disconnectTimer) clearTimeout(entry.disconnectTimer);
      entry.goneSince = performance.now();
      const graceMs = graceMsOf(playerId);
      entry.log.info({ graceMs }, 'AI game player disconnected; keeping the game');
      entry.disconnectTimer = setTimeout(() => {
        entry.disconnectTimer = null;
        entry.log.info('player did not come back; abandoning the AI game');
        entry.actor.send({ type: 'ABANDON' });
      }, graceMs);
      entry.disconnectTimer.unref?.();
    },

    playerReconnected(playerId) {
      const entry = games.get(byPlayer.get(playerId) ?? '');
      if (!entry) return;
      entry.goneSince = null;
      if (entry.disconnectTimer) {
        clearTimeout(entry.disconnectTimer);
        entry.disconnectTimer = null;
      }
      entry.log.info('AI game player reconnected');
      sendStart(entry);
    },

    stats() {
      const p = pool.stats();
      return { games: games.size, engines: p.engines, queue: p.queue };
    },

    enginePids() {
      return pool.pids();
    },

    enginePidFor(gameId) {
      return pool.pidFor(gameId);
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const entry of [...games.values()]) {
        entry.finished = true;
        stopIdle(entry);
        if (entry.disconnectTimer) clearTimeout(entry.disconnectTimer);
        entry.actor.stop();
      }
      games.clear();
      byPlayer.clear();
      byAddress.clear();
      await pool.close();
    },
  };
  log.info({ engine: spec.label, poolSize: pool.size, maxGames, maxGamesPerAddress, replyDelayMs: replyDelay }, 'AI service ready');
  return service;
}
