/**
 * The engine's seats: for every game here with a seat the engine holds (GameInput seat marked
 * `engine`), one engine-seat actor (machines/ai) that thinks when it is the engine's turn and
 * plays its move as an ordinary MOVE command of that seat. Its thinking counts on its clock (no
 * lag credit: the command carries no lag), its search time adapts to that clock, and an engine
 * that fails ends the game as a technical draw (SEAT_FAILED), its player told why.
 */
import type { Logger } from 'pino';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { engineSeatMachine, type ThinkInput, type ThinkOutput } from '../../machines/ai/index';
import { engineMovetimeMs, enginePauseMs, type EngineClock } from '../../machines/ai/movetime';
import { clocksAt, type Color, type GameCommand, type GameState } from '../../machines/game';
import { uciToWireMove } from '../../machines/game/rejoin';
import type { ServerMessage } from '../../machines/protocol/messages';
import type { EngineSeats, LiveGame } from '../game/games';
import type { Inspect } from '../game/machines';
import type { EnginePool } from './engine/pool';
import { levelSettings } from './levels';
import { chooseAiMove } from './move-chooser';

/** What the engine's seats need of the games: to command them. */
export interface EngineGames {
  command(game: LiveGame, cmd: GameCommand): boolean;
}

export interface EngineSeatOptions {
  pool: EnginePool;
  games: () => EngineGames | undefined;
  /** the game's player, told of an engine failure (error engine_failure) */
  tell: (game: LiveGame, msg: ServerMessage) => void;
  logger: Logger;
  random: () => number;
  /** human-like pause range, ms */
  replyDelayMs: [number, number];
  /** cap on the level's movetime by load (load shedding); the level's otherwise */
  movetimeCap: (level: number) => number | undefined;
  /** told when a game with an engine seat leaves this node */
  gone: (game: LiveGame) => void;
  inspect?: Inspect;
}

/** How soon a move this node could not play (it may not play now) is tried again. */
const RETRY_MS = 1_000;

type SeatActor = ActorRefFrom<typeof engineSeatMachine>;

interface SeatEntry {
  color: Color;
  actor: SeatActor;
}

/** The engine's side of a game, if it has one. */
function engineColor(game: LiveGame): Color | null {
  return game.white.engine ? 'white' : game.black.engine ? 'black' : null;
}

/** The engine's clock as it stands now, or null when the game has no clock. */
function engineClock(state: GameState, color: Color, now: number): EngineClock | null {
  if (state.settings.untimed) return null;
  return { remainingMs: clocksAt(state, now)[color], incrementMs: state.settings.incrementMs };
}

export class EngineSeatDriver implements EngineSeats {
  private readonly seats = new Map<string, SeatEntry>();
  private readonly machine;

  constructor(private readonly opts: EngineSeatOptions) {
    const { pool, random, replyDelayMs } = opts;
    // XState aborts `signal` when the seat stops (the game ended, shutdown): the engine stops searching
    const think = fromPromise<ThinkOutput, ThinkInput>(async ({ input, signal }) => {
      const started = performance.now();
      const [lo, hi] = replyDelayMs;
      const targetMs = lo + random() * Math.max(0, hi - lo);
      const levelMs = Math.min(levelSettings(input.level).movetimeMs, opts.movetimeCap(input.level) ?? Infinity);
      const chosen = await chooseAiMove(pool, input.level, input.moves, {
        maxMovetimeMs: engineMovetimeMs(levelMs, input.clock),
        random,
        tag: input.gameId,
        signal,
      });
      return { uci: chosen.uci, pauseMs: enginePauseMs(targetMs, performance.now() - started, input.clock) };
    });
    this.machine = engineSeatMachine.provide({ actors: { think } });
  }

  get size(): number {
    return this.seats.size;
  }

  changed(game: LiveGame): void {
    const color = engineColor(game);
    if (!color) return;
    const state = game.actor.getSnapshot().context;
    if (state.result !== null) return;
    const seat = this.seats.get(game.id) ?? this.seat(game, color);
    if (state.turn !== color || !seat.actor.getSnapshot().matches('ready')) return;
    seat.actor.send({ type: 'TURN', turn: { moves: state.moves, clock: engineClock(state, color, performance.now()) } });
  }

  gone(game: LiveGame): void {
    const seat = this.seats.get(game.id);
    if (seat) {
      this.seats.delete(game.id);
      seat.actor.stop();
    }
    this.opts.gone(game);
  }

  /** Every seat stops (shutdown). */
  stopAll(): void {
    for (const seat of this.seats.values()) seat.actor.stop();
    this.seats.clear();
  }

  private seat(game: LiveGame, color: Color): SeatEntry {
    const level = game[color].engine?.level ?? 1;
    const log = this.opts.logger.child({ gameId: game.id });
    const actor = createActor(this.machine, { input: { gameId: game.id, level }, id: `engine seat ${game.id}`, inspect: this.opts.inspect });
    const entry: SeatEntry = { color, actor };
    this.seats.set(game.id, entry);
    actor.on('move', (e) => this.play(game, entry, e.uci, e.ply, log));
    actor.on('failed', (e) => this.failed(game, entry, e.message, log));
    actor.subscribe({ error: (err) => this.failed(game, entry, `The AI game failed unexpectedly: ${(err as Error)?.message ?? String(err)}`, log) });
    actor.start();
    return entry;
  }

  /** The engine's move, as an ordinary move of its seat; a move the game refuses is the engine's failure. */
  private play(game: LiveGame, seat: SeatEntry, uci: string, ply: number, log: Logger): void {
    const games = this.opts.games();
    if (!games || game.ended || this.seats.get(game.id) !== seat) return;
    const before = game.actor.getSnapshot().context;
    if (before.moves.length !== ply) return; // the game moved on (a takeover replayed it)
    const engineId = game[seat.color].id;
    if (!games.command(game, { type: 'MOVE', playerId: engineId, move: uciToWireMove(uci) })) {
      // this node may not play now (its store cannot write, its lease is uncertain): asked again later
      const retry = setTimeout(() => this.changed(game), RETRY_MS);
      retry.unref?.();
      return;
    }
    const after = game.actor.getSnapshot().context;
    if (after.moves.length === ply && after.result === null) this.failed(game, seat, `The AI produced an illegal move (${uci})`, log);
  }

  private failed(game: LiveGame, seat: SeatEntry, message: string, log: Logger): void {
    if (game.ended || this.seats.get(game.id) !== seat) return;
    log.error({ err: message }, 'AI engine failure; game ends as a technical draw');
    this.opts.tell(game, { type: 'error', code: 'engine_failure', message });
    this.opts.games()?.command(game, { type: 'SEAT_FAILED', playerId: game[seat.color].id });
  }
}
