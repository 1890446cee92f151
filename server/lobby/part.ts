/** What the lobby's hooks and the challenges share: their dependencies, and how they answer a refusal or a failure. */
import type { Logger } from 'pino';
import type { ErrorCode } from '../../machines/protocol/messages';
import type { PlayerSession } from '../realtime/hub';
import type { LobbyDeps } from './players';
import type { TimeControl } from '../../machines/protocol/messages';
import { rateSessionFor } from '../game/ratingLookup';

export abstract class LobbyPart {
  protected readonly store: LobbyDeps['store'];
  protected readonly hub: LobbyDeps['hub'];
  protected readonly start: LobbyDeps['start'];
  protected readonly heldBy: LobbyDeps['heldBy'];
  private readonly heldOnSite: LobbyDeps['heldOnSite'];
  protected readonly node: string;
  protected readonly now: () => number;
  protected readonly random: () => number;
  private readonly ratingOf: LobbyDeps['ratingOf'];
  private readonly newGamesRefused: LobbyDeps['newGamesRefused'];
  /** each player's last request here, which their next one waits for (inOrder) */
  private readonly requests = new Map<string, Promise<void>>();

  constructor(
    deps: LobbyDeps,
    protected readonly log: Logger,
    /** what a failure of the store is answered with */
    private readonly unreachable: string,
  ) {
    ({ store: this.store, hub: this.hub, start: this.start, heldBy: this.heldBy, heldOnSite: this.heldOnSite, node: this.node, now: this.now, random: this.random, ratingOf: this.ratingOf, newGamesRefused: this.newGamesRefused } = deps);
  }

  /** Gives a signed-in player their rating in the speed of the game they create or take (shown with it, and the game starts with it). */
  protected rate(s: PlayerSession, timeControl: TimeControl): Promise<void> {
    return rateSessionFor(s, timeControl, this.ratingOf, this.log);
  }

  /**
   * Whether a game holds the player, as the site records it: a game played elsewhere whose end is
   * recorded (its owner's word not here yet, just after a Redis outage) holds them no more.
   */
  protected async heldStill(s: PlayerSession): Promise<boolean> {
    return (await this.heldOnSite(s)) !== null;
  }

  /** Whether no game may start here now; if so the player is told why (as a search is refused). */
  protected refusedHere(s: PlayerSession): boolean {
    const refused = this.newGamesRefused();
    if (refused) this.refuse(s, 'unavailable', refused);
    return refused !== null;
  }

  /**
   * Runs a player's request once their requests under way here are done: each reads the player's
   * records and changes them, so two at once (two posts read together, on a site where each
   * reading waits for Redis; a challenge made and cancelled while its file is being written)
   * would each miss what the other changes.
   */
  protected inOrder(s: PlayerSession, request: () => Promise<void>): Promise<void> {
    const run = (this.requests.get(s.id) ?? Promise.resolve()).then(request, request);
    this.requests.set(s.id, run);
    const done = () => {
      if (this.requests.get(s.id) === run) this.requests.delete(s.id);
    };
    run.then(done, done);
    return run;
  }

  protected refuse(s: PlayerSession, code: ErrorCode, message: string): void {
    this.hub.sendTo(s, { type: 'error', code, message });
  }

  /** The store failed (Redis away): logged, and the player told to try again; nothing changed. */
  protected failed(s: PlayerSession, err: Error, what: string): void {
    this.log.warn({ err: err.message, playerId: s.id }, what);
    this.refuse(s, 'unavailable', this.unreachable);
  }
}
