/**
 * The AI (docs/ai.md): starts games against the engine and plays the engine's seats in them.
 * A game against the AI is an ordinary game of the game manager (the same step, log, journal,
 * clocks, spectators and takeover) whose other seat the engine holds (server/ai/seat.ts); this
 * module keeps the AI's limits (AI_MAX_GAMES, AI_GAMES_PER_ADDRESS) and its engine pool.
 *
 * startAIGame -> gameCreated {gameId, playerColor, opponentName}, then the game's own messages
 * (gameStart with `engineLevel`, gameMove, gameEnd, ...); refusals as error {message, code}.
 * An engine fault -> error {code: 'engine_failure'}, then gameEnd technical_draw.
 */
import type { Logger } from 'pino';
import { TEXT, type AiGameOptions, type Color, type ErrorCode, type ServerMessage } from '../../machines/protocol/messages';
import { defaultSettings } from '../config';
import { DEFAULT_IDLE_MS } from '../config/ai';
import type { EngineGameSpec, EngineSeats, LiveGame } from '../game/games';
import type { Inspect } from '../game/machines';
import type { PlayerSession } from '../round/types';
import { EnginePool } from './engine/pool';
import { resolveEngine } from './engine/locate';
import { levelSettings } from './levels';
import { EngineSeatDriver, type EngineGames } from './seat';

export interface AiService {
  /**
   * options as the protocol's startAIGame schema has checked them; `address`: the client address
   * the game is counted against (AI_GAMES_PER_ADDRESS)
   */
  start(player: PlayerSession, options: AiGameOptions, address?: string): void;
  /** plays the engine's seats of the games (the game manager's `engine`) */
  readonly seats: EngineSeats;
  stats(): { games: number; engines: number; queue: number };
  close(): Promise<void>;
  /** additive: process ids of the engines (operations, tests) */
  enginePids(): number[];
  /** additive: pid of the engine searching for this game right now, if any */
  enginePidFor(gameId: string): number | undefined;
  /** additive: which engine runs, e.g. "/usr/games/stockfish" */
  readonly engineLabel: string;
}

/** The games the AI starts and plays in (the game manager). */
export interface AiGames extends EngineGames {
  startAgainstEngine(spec: EngineGameSpec): LiveGame | null;
  readonly games: ReadonlyMap<string, LiveGame>;
}

export interface AiServiceOptions {
  /** a message to one player, through the games' commit (the server's hub) */
  send: (player: PlayerSession, msg: ServerMessage) => void;
  /** the game manager, once it exists (the AI starts before it) */
  games: () => AiGames | undefined;
  /** whether a player's socket is connected (here or, several nodes, elsewhere) */
  connected: (player: PlayerSession) => boolean;
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
  /** a game without a clock: a player who does not move this long on their turn loses on time; default DEFAULT_IDLE_MS (10 minutes) */
  idleMs?: number;
  /** cap on every search's movetime (tests); default none */
  maxMovetimeMs?: number;
  /** watchdog margin on top of movetime before an engine counts as hung */
  watchdogGraceMs?: number;
  /** injectable randomness (colour draw, weakness policy, pauses) */
  random?: () => number;
  /** the XState inspector each engine seat's machine reports to (INSPECT; server/inspect) */
  inspect?: Inspect;
}

/** What the server supplies to the AI service it starts; the rest are settings. */
export type AiServiceDeps = Pick<AiServiceOptions, 'send' | 'games' | 'connected' | 'logger' | 'inspect'>;

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
  engine: (detail: string) => ({ code: 'engine_failure', message: detail }),
  unavailable: { code: 'ai_unavailable', message: 'The AI is not available right now' },
} as const satisfies Record<string, AiError | ((arg: never) => AiError)>;

interface AiError {
  code: ErrorCode;
  message: string;
}

/** Shortest movetime load shedding may give a search. */
export const MIN_SHED_MOVETIME_MS = 30;

/** An AI game started here: its player and the address it counts against. */
interface Started {
  player: PlayerSession;
  address: string;
}

export async function createAiService(opts: AiServiceOptions): Promise<AiService> {
  const env = defaultSettings().ai;
  const log = opts.logger;
  const random = opts.random ?? Math.random;
  const maxGames = opts.maxGames ?? env.maxGames;
  const maxGamesPerAddress = opts.maxGamesPerAddress ?? env.maxGamesPerAddress;
  const replyDelay = opts.replyDelayMs ?? env.replyDelayMs;
  const idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  const maxMovetimeMs = opts.maxMovetimeMs ?? env.maxMovetimeMs;
  const spec = resolveEngine({ enginePath: opts.enginePath ?? env.enginePath });
  const pool = await EnginePool.create({
    spec,
    size: opts.poolSize ?? env.poolSize,
    logger: log.child({ sub: 'engine-pool' }),
    watchdogGraceMs: opts.watchdogGraceMs,
  });
  /** the AI games started here, by game id (a game taken over from another node counts against nobody's address) */
  const started = new Map<string, Started>();
  let closed = false;

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

  const seats = new EngineSeatDriver({
    pool,
    games: opts.games,
    tell: (game, msg) => {
      const player = game.white.engine ? game.sessions.black : game.sessions.white;
      opts.send(player, msg);
    },
    logger: log,
    random,
    replyDelayMs: replyDelay,
    movetimeCap: loadShedMovetime,
    gone: (game) => started.delete(game.id),
    inspect: opts.inspect,
  });

  /** AI games live here now (started here or taken over). */
  const liveAiGames = (): LiveGame[] => [...(opts.games()?.games.values() ?? [])].filter((g) => g.white.engine || g.black.engine);

  const countAt = (address: string): number => {
    let n = 0;
    for (const s of started.values()) if (s.address === address) n++;
    return n;
  };

  /**
   * A game whose player is gone (no socket left) keeps its seat for the disconnect grace, but
   * not its slot: when a new game needs the slot, one of `address` (or of anyone) is resigned for
   * its gone player to make room. Returns whether one was.
   */
  function reclaimGoneGame(address?: string): boolean {
    const games = opts.games();
    if (!games) return false;
    for (const [gameId, s] of started) {
      const game = games.games.get(gameId);
      if (!game || (address !== undefined && s.address !== address) || opts.connected(s.player)) continue;
      log.info({ gameId, address: s.address }, 'AI game abandoned: its player is gone and a new game needs the slot');
      games.command(game, { type: 'RESIGN', playerId: s.player.id });
      return !games.games.has(gameId);
    }
    return false;
  }

  function refuse(player: PlayerSession, err: AiError): void {
    opts.send(player, { type: 'error', code: err.code, message: err.message });
  }

  const service: AiService = {
    engineLabel: spec.label,
    seats,

    start(player, options, address = 'unknown') {
      const games = opts.games();
      if (closed || !games) return refuse(player, AI_ERRORS.unavailable);
      if (countAt(address) >= maxGamesPerAddress && !reclaimGoneGame(address)) {
        log.info({ playerId: player.id, address, maxGamesPerAddress }, 'AI game refused: the address has its maximum');
        return refuse(player, AI_ERRORS.addressFull(maxGamesPerAddress));
      }
      if (liveAiGames().length >= maxGames && !reclaimGoneGame()) {
        log.warn({ playerId: player.id, maxGames }, 'AI game refused: server at capacity');
        return refuse(player, AI_ERRORS.full(maxGames));
      }
      const playerColor: Color = options.playerColor === 'random' ? (random() < 0.5 ? 'white' : 'black') : options.playerColor;
      const level = options.difficulty;
      const timeControl = options.timeControl ?? null;
      const game = games.startAgainstEngine({ player, playerColor, level, timeControl, moveLimitMs: idleMs });
      if (!game) return refuse(player, AI_ERRORS.unavailable);
      started.set(game.id, { player, address });
      log.info({ gameId: game.id, playerId: player.id, level, playerColor, requestedColor: options.playerColor, timeControl, engine: spec.kind }, 'AI game started');
      opts.send(player, { type: 'gameCreated', gameId: game.id, playerColor, opponentName: TEXT.aiOpponentName });
    },

    stats() {
      const p = pool.stats();
      return { games: liveAiGames().length, engines: p.engines, queue: p.queue };
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
      seats.stopAll();
      started.clear();
      await pool.close();
    },
  };
  log.info({ engine: spec.label, poolSize: pool.size, maxGames, maxGamesPerAddress, replyDelayMs: replyDelay }, 'AI service ready');
  return service;
}
