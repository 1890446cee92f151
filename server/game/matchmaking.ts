/**
 * Wraps the single matchmaking actor (the 10-minute pool): JOIN/LEAVE in, queued/left/paired
 * out. A pairing starts a game through the GameManager.
 */
import type { Logger } from 'pino';
import type { Hub, PlayerSession } from '../realtime/hub';
import type { GameManager } from './games';
import type { MatchmakingEmitted } from '../../machines/matchmaking';
import { createMatchmakingActor, type MatchmakingActor } from './machines';

export const QUEUED_TEXT = 'Searching for an opponent...';
export const CANCELED_TEXT = 'Matchmaking canceled';

export class Matchmaking {
  private actor: MatchmakingActor;
  private queued = 0;
  /** players who asked to cancel (answer `canceled`); others left silently (disconnect) */
  private readonly canceling = new Set<string>();

  constructor(
    private readonly hub: Hub,
    private readonly games: GameManager,
    private readonly log: Logger,
    private readonly random: () => number = Math.random,
    private readonly inspect?: unknown,
  ) {
    this.actor = this.startActor();
  }

  private startActor(): MatchmakingActor {
    const actor = createMatchmakingActor(this.random, this.inspect);
    actor.on('*', (e) => this.onEmitted(e as MatchmakingEmitted));
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

  join(session: PlayerSession, name: string): void {
    session.name = name;
    if (session.queued) {
      // Already searching: answer again, change nothing.
      this.hub.send(session.id, { type: 'matchmakingStatus', status: 'queued', message: QUEUED_TEXT });
      return;
    }
    this.actor.send({ type: 'JOIN', playerId: session.id, name });
  }

  /** `cancel` answers the player with `canceled`; otherwise the player leaves silently. */
  leave(session: PlayerSession, cancel: boolean): void {
    if (!session.queued) {
      if (cancel) this.hub.send(session.id, { type: 'matchmakingStatus', status: 'canceled', message: CANCELED_TEXT });
      return;
    }
    if (cancel) this.canceling.add(session.id);
    this.actor.send({ type: 'LEAVE', playerId: session.id });
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

  private onEmitted(e: MatchmakingEmitted): void {
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
        if (!white || !black || white.game || black.game || white.id === black.id) {
          this.log.warn({ white: e.white.id, black: e.black.id }, 'pairing dropped: a player is gone or busy');
          // put whoever is still waiting back in the pool
          for (const s of [white, black]) if (s?.ws && !s.game) this.join(s, s.name ?? e.white.name);
          return;
        }
        white.name = e.white.name;
        black.name = e.black.name;
        if (!this.games.start(white, black)) {
          for (const s of [white, black]) {
            this.hub.send(s.id, { type: 'error', code: 'game_start_failed', message: 'The game could not be started. Please search again.' });
            this.hub.send(s.id, { type: 'matchmakingStatus', status: 'idle', message: 'The game could not be started. Please search again.' });
          }
        }
        return;
      }
      default:
        return;
    }
  }

  stop(): void {
    try {
      this.actor.stop();
    } catch {
      // already stopped
    }
  }
}
