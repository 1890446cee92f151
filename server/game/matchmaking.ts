/**
 * Wraps the single matchmaking actor (the pools, machines/matchmaking): JOIN/LEAVE/TICK in,
 * stamped with the time and a colour roll; queued/left/paired out. A signed-in player joins with
 * their rating in the pool's speed (looked up when they search); a pairing starts a game through
 * the GameManager.
 */
import type { Logger } from 'pino';
import type { Hub, PlayerSession } from '../realtime/hub';
import type { GameManager } from './games';
import type { PoolActor, PoolEmitted } from '../../machines/matchmaking';
import type { TimeControl } from '../../machines/protocol/messages';
import { speedOf } from '../../machines/game/timeControl';
import { lookUpRating, type RatingLookup } from './ratingLookup';
import { createPoolActor, type Inspect } from './machines';

/** How often the pool pairs its queue again (rating windows widen while players wait). */
export const POOL_TICK_MS = 1_000;
export type { RatingLookup };

export const QUEUED_TEXT = 'Searching for an opponent...';
export const CANCELED_TEXT = 'Matchmaking canceled';

export class Matchmaking {
  private actor: PoolActor;
  private queued = 0;
  /** players who asked to cancel (answer `canceled`); others left silently (disconnect) */
  private readonly canceling = new Set<string>();
  /** signed-in players whose rating is being looked up before they join */
  private readonly joining = new Set<string>();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly hub: Hub,
    private readonly games: GameManager,
    private readonly log: Logger,
    private readonly random: () => number = Math.random,
    private readonly inspect?: Inspect,
    private readonly ratingOf?: RatingLookup,
    /**
     * starts a paired game; false when it could not start (several nodes: the pairing is
     * committed first, and its game may start on another node)
     */
    private readonly startGame: (white: PlayerSession, black: PlayerSession, timeControl: TimeControl) => boolean | Promise<boolean> = (w, b, tc) => games.start(w, b, tc) !== null,
  ) {
    this.actor = this.startActor();
    this.ticker = setInterval(() => {
      if (this.queued >= 2) this.actor.send({ type: 'TICK', at: performance.now(), roll: this.random() });
    }, POOL_TICK_MS);
    this.ticker.unref();
  }

  private startActor(): PoolActor {
    const actor = createPoolActor(this.inspect);
    actor.on('*', (e) => this.onEmitted(e as PoolEmitted));
    actor.subscribe({
      error: (err) => {
        // The pool is gone with the actor: start a new one and tell the waiting players.
        this.log.error({ err }, 'matchmaking actor failed; restarting it');
        setImmediate(() => this.restart());
      },
    });
    actor.start();
    return actor;
  }

  private restart(): void {
    this.actor = this.startActor();
    for (const s of this.hub.players.values()) {
      if (!s.queued) continue;
      s.queued = false;
      this.hub.send(s.id, { type: 'matchmakingStatus', status: 'idle', message: 'Matchmaking was restarted. Please search again.' });
    }
    this.queued = 0;
  }

  get length(): number {
    return this.queued;
  }

  join(session: PlayerSession, name: string, timeControl: TimeControl = this.games.defaultTimeControl): void {
    session.name = name;
    if (session.queued || this.joining.has(session.id)) {
      // Already searching: answer again, change nothing.
      this.hub.send(session.id, { type: 'matchmakingStatus', status: 'queued', message: QUEUED_TEXT });
      return;
    }
    if (session.kind !== 'account' || !this.ratingOf) {
      this.enter(session, name, null, timeControl);
      return;
    }
    this.joining.add(session.id);
    lookUpRating(this.ratingOf, session.id, speedOf(timeControl), this.log).then((rating) => {
      // cancelled, gone or seated while the rating was looked up
      if (!this.joining.delete(session.id) || !this.hub.connected(session) || session.game) return;
      // the game the pairing starts shows it
      session.rating = rating;
      this.enter(session, session.name ?? name, rating?.rating ?? null, timeControl);
    });
  }

  private enter(session: PlayerSession, name: string, rating: number | null, timeControl: TimeControl): void {
    this.actor.send({ type: 'JOIN', playerId: session.id, name, rating, at: performance.now(), roll: this.random(), timeControl });
  }

  /** `cancel` answers the player with `canceled`; otherwise the player leaves silently. */
  leave(session: PlayerSession, cancel: boolean): void {
    if (this.joining.delete(session.id)) {
      if (cancel) this.hub.send(session.id, { type: 'matchmakingStatus', status: 'canceled', message: CANCELED_TEXT });
      return;
    }
    if (!session.queued) {
      if (cancel) this.hub.send(session.id, { type: 'matchmakingStatus', status: 'canceled', message: CANCELED_TEXT });
      return;
    }
    if (cancel) this.canceling.add(session.id);
    this.actor.send({ type: 'LEAVE', playerId: session.id, at: performance.now() });
    // If the machine did not answer (already gone), still settle our side.
    if (session.queued) this.markLeft(session.id);
  }

  private markLeft(playerId: string): void {
    const s = this.hub.session(playerId);
    if (s?.queued) {
      s.queued = false;
      this.queued--;
    }
    if (this.canceling.delete(playerId)) {
      this.hub.send(playerId, { type: 'matchmakingStatus', status: 'canceled', message: CANCELED_TEXT });
    }
    if (s) this.hub.forgetIfIdle(s);
  }

  private onEmitted(e: PoolEmitted): void {
    switch (e.type) {
      case 'queued': {
        const s = this.hub.session(e.playerId);
        if (!s) return;
        if (!s.queued) {
          s.queued = true;
          this.queued++;
        }
        this.hub.send(e.playerId, { type: 'matchmakingStatus', status: 'queued', message: QUEUED_TEXT });
        return;
      }
      case 'left':
        this.markLeft(e.playerId);
        return;
      case 'paired': {
        const white = this.hub.session(e.white.id);
        const black = this.hub.session(e.black.id);
        for (const s of [white, black]) {
          if (s?.queued) {
            s.queued = false;
            this.queued--;
          }
        }
        if (!white || !black || white.game || black.game || white.remoteGame || black.remoteGame || white.id === black.id) {
          this.log.warn({ white: e.white.id, black: e.black.id }, 'pairing dropped: a player is gone or busy');
          // put whoever is still waiting back in the pool
          for (const s of [white, black]) if (s && this.hub.connected(s) && !s.game && !s.remoteGame) this.join(s, s.name ?? e.white.name, e.timeControl);
          return;
        }
        white.name = e.white.name;
        black.name = e.black.name;
        const started = this.startGame(white, black, e.timeControl);
        if (started === false) this.startFailed(white, black);
        else if (started !== true) void this.startedLater(started, white, black);
        return;
      }
      default:
        return;
    }
  }

  /** A paired game whose start is decided later (several nodes: its pairing is committed in Redis first). */
  private async startedLater(started: Promise<boolean>, white: PlayerSession, black: PlayerSession): Promise<void> {
    try {
      if (!(await started)) this.startFailed(white, black);
    } catch (err) {
      this.log.error({ err }, 'paired game failed to start');
      this.startFailed(white, black);
    }
  }

  /** The paired players hear that their game could not start. */
  private startFailed(white: PlayerSession, black: PlayerSession): void {
    for (const s of [white, black]) {
      this.hub.send(s.id, { type: 'error', code: 'game_start_failed', message: 'The game could not be started. Please search again.' });
      this.hub.send(s.id, { type: 'matchmakingStatus', status: 'idle', message: 'The game could not be started. Please search again.' });
    }
  }

  stop(): void {
    clearInterval(this.ticker);
    try {
      this.actor.stop();
    } catch {
      // already stopped
    }
  }
}
