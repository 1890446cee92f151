/**
 * Spectators across the site's nodes, relayed per node and not per socket (as lila-ws does).
 *
 * On the socket's node: a socket watching a game another node plays waits while the owner is
 * looked up (`owner:<game>`); the node then asks the owner for the game's watchStart
 * (`watch`), which also tells the owner that this node has watchers, and tells it when its last
 * watcher of the game is gone (`unwatch`). Everything the owner relays is published to the game's
 * topic here, one message per frame whatever the number of watchers here.
 *
 * On the owner: the nodes with watchers of each game; a `watch` is answered with the watchStart
 * after the game log's commit (as for a local spectator), and every spectator frame (the same
 * bytes as the local topic's), the end and the archive's word are relayed to each of those nodes.
 * Nothing a player alone is told ever goes through here.
 *
 * When an owner dies, its games' new owner does not know their watchers: the socket's node finds
 * the new owner at its next beats and asks it again (its watchers get a fresh watchStart).
 *
 * A `watch` is not held as a player's commands are (a request to a dead owner would hold up the
 * node's moves behind it), so it may be lost: one left unanswered for WATCH_ANSWER_BEATS beats
 * is sent again at the next, until the owner answers or the game is found moved or ended.
 *
 * Pub/sub delivers at most once, and nothing here is held while Redis is away: after an outage
 * each side makes good what it may have lost. The socket's node asks every watched game again;
 * the owner gives each node with watchers of a live game its watchStart again, unasked. The end
 * of a game (its gameEnd, `wend`, `warchived`) whose publish failed, while Redis was away or in
 * the moment before the owner knew (its connection lost with the publish in flight), is told
 * again as it went the first time, once Redis answers.
 */
import type { Logger } from 'pino';
import type { GameManager, LiveGame } from '../game/games';
import { AWAITING_ARCHIVE_MS, watchStart, type GameWatchers, type GamesElsewhere, type Spectators } from '../realtime/spectators';
import type { Ownership } from './ownership';
import type { BusMessage, WatchMessage } from './messages';

/**
 * Whole beats a `watch` may go unanswered before it is sent again. The owner answers within a
 * Redis round trip and a commit of its game log, milliseconds; no answer through two whole beats
 * means the `watch` was lost. Asking again costs little even when the first answer was only
 * late: the owner answers a repeated `watch` as the first, and a watchStart that comes when no
 * socket here waits for one is dropped.
 */
const WATCH_ANSWER_BEATS = 2;

/** A game played elsewhere that sockets here watch. */
interface WatchedElsewhere {
  owner: string;
  /**
   * beats since a `watch` went to the owner, while its answer is awaited (its watchStart will
   * serve every socket waiting); null when none is
   */
  unanswered: number | null;
  /** the owner said the game ended: nothing more to tell it */
  ended: boolean;
}

/** A game played here that sockets on other nodes watch. */
interface Relay {
  nodes: Set<string>;
  ended: boolean;
  archived: boolean;
  /** the last frame relayed (its text): once the game ended, its gameEnd */
  lastFrame: string | null;
  /**
   * What was relayed and whose publish failed, so maybe lost: the game (a frame, its end), the
   * archive's word. An ended game's relay is kept until what it lost is told again.
   */
  lost: { game: boolean; archive: boolean };
}

const nothingLost = () => ({ game: false, archive: false });
const lostAny = (relay: Relay) => relay.lost.game || relay.lost.archive;

const decoder = new TextDecoder();

export class SiteWatching implements GameWatchers, GamesElsewhere {
  /** socket side: games played on other nodes that sockets here watch */
  private readonly watched = new Map<string, WatchedElsewhere>();
  /** owner side: games played here that other nodes' sockets watch */
  private readonly relays = new Map<string, Relay>();
  /** owner side: games of a dead node being taken over here -> the nodes that asked for them meanwhile */
  private readonly resuming = new Map<string, Set<string>>();

  constructor(
    private readonly node: string,
    private readonly spectators: Spectators,
    private readonly games: () => GameManager | undefined,
    private readonly ownership: Ownership,
    /** `failed`: told when the message's publish failed (Bus.publish) */
    private readonly publish: (node: string, msg: BusMessage, failed?: () => void) => void,
    private readonly logger: Logger,
  ) {
    spectators.elsewhere = this;
  }

  // ---------------------------------------------------------------------------------------------
  // The socket's node

  ownerOf(gameId: string): Promise<string | null> {
    const known = this.watched.get(gameId);
    if (known && !known.ended) return Promise.resolve(known.owner);
    return this.ownership.ownerOf(gameId).then((owner) => (owner === this.node ? null : owner));
  }

  /** The node that plays a game sockets here watch, when known and live. */
  ownerKnown(gameId: string): string | null {
    const w = this.watched.get(gameId);
    return w && !w.ended ? w.owner : null;
  }

  wantStart(gameId: string, owner: string): void {
    let w = this.watched.get(gameId);
    if (!w || w.owner !== owner || w.ended) this.watched.set(gameId, (w = { owner, unanswered: null, ended: false }));
    this.ask(gameId, w);
  }

  stopped(gameId: string): void {
    const w = this.watched.get(gameId);
    if (!w) return;
    this.watched.delete(gameId);
    if (!w.ended) this.publish(w.owner, { k: 'unwatch', n: this.node, g: gameId });
  }

  private ask(gameId: string, w: WatchedElsewhere): void {
    if (w.unanswered !== null) return;
    w.unanswered = 0;
    this.publish(w.owner, { k: 'watch', n: this.node, g: gameId });
  }

  /**
   * At each beat: a `watch` to a live owner left unanswered for WATCH_ANSWER_BEATS beats is sent
   * again (a game whose owner is not live is findMovedGames' to look up).
   */
  askUnansweredAgain(live: ReadonlySet<string>): void {
    for (const [gameId, w] of this.watched) {
      if (w.ended || w.unanswered === null || !live.has(w.owner)) continue;
      if (++w.unanswered <= WATCH_ANSWER_BEATS) continue;
      this.logger.debug({ gameId, owner: w.owner }, 'watch unanswered; asking the owner again');
      w.unanswered = null;
      this.ask(gameId, w);
    }
  }

  /**
   * The owner's watchStart: the sockets waiting for it follow the game from there. Sent again
   * unasked (`again`), after the owner's outage, it is for every live watcher of the game here.
   */
  private started(gameId: string, text: string, again: boolean): void {
    const w = this.watched.get(gameId);
    if (again && (!w || w.ended)) return;
    if (again) this.spectators.awaitStartAgain(gameId);
    if (w) w.unanswered = null;
    this.spectators.startedElsewhere(gameId, text);
  }

  /** The owner ended the game: the watchers here wait for the archive as local ones do. */
  private endedElsewhere(gameId: string): void {
    const w = this.watched.get(gameId);
    if (w) w.ended = true;
    this.spectators.ended(gameId);
  }

  private archivedElsewhere(gameId: string): void {
    this.watched.delete(gameId);
    this.spectators.archived(gameId);
  }

  /** The owner does not play the game (any more): its watchers here are told it is not live. */
  private unknown(gameId: string): void {
    this.watched.delete(gameId);
    this.spectators.notLive(gameId);
  }

  /**
   * At each beat: watched games whose owner is no longer live are looked up again; once another
   * node has taken one over it is asked, and the watchers here get a fresh watchStart from it.
   */
  async findMovedGames(live: ReadonlySet<string>): Promise<void> {
    const orphans = [...this.watched].filter(([, w]) => !w.ended && !live.has(w.owner));
    if (orphans.length === 0) return;
    const owners = await this.ownersOf(orphans.map(([g]) => g));
    if (!owners) return;
    orphans.forEach(([gameId, w], i) => {
      if (this.watched.get(gameId) === w) this.ownerFound(gameId, w, owners[i], live);
    });
  }

  /** The nodes that play these games, as Redis says; null (logged) when it does not answer. */
  private async ownersOf(gameIds: string[]): Promise<(string | null)[] | null> {
    try {
      return await this.ownership.owners(gameIds);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'could not look up the owners of watched games');
      return null;
    }
  }

  private ownerFound(gameId: string, w: WatchedElsewhere, owner: string | null, live: ReadonlySet<string>): void {
    if (owner === null) return this.unknown(gameId); // ended while its owner was away
    if (owner === w.owner || !live.has(owner)) return; // not taken over yet
    if (owner === this.node) return; // taken over here: tookOver shows its watchers the game
    w.owner = owner;
    w.unanswered = null;
    this.spectators.awaitStartAgain(gameId);
    this.ask(gameId, w);
  }

  /** Redis is back after an outage (frames between nodes were lost): every watched game is asked again. */
  resync(): void {
    for (const [gameId, w] of this.watched) {
      if (w.ended) continue;
      w.unanswered = null;
      this.spectators.awaitStartAgain(gameId);
      this.ask(gameId, w);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The owner

  /** A game of a dead node is being taken over here: the nodes asking for it meanwhile wait until it plays. */
  takingOver(gameId: string): void {
    this.resuming.set(gameId, new Set());
  }

  /** The game taken over plays here now (or was found ended): whoever asked meanwhile, here or elsewhere, is answered. */
  tookOver(gameId: string): void {
    const asked = this.resuming.get(gameId) ?? new Set<string>();
    this.resuming.delete(gameId);
    for (const node of asked) this.watchedFrom(node, gameId);
    if (!this.watched.delete(gameId)) return;
    this.spectators.cameHere(gameId);
  }

  /** Node `from` has watchers of game `gameId`: it gets the watchStart, then every frame. */
  private watchedFrom(from: string, gameId: string): void {
    const asked = this.resuming.get(gameId);
    if (asked) return void asked.add(from);
    const games = this.games();
    const game = games?.games.get(gameId);
    if (!games || !game || game.ended) return this.publish(from, { k: 'wunknown', g: gameId });
    let relay = this.relays.get(gameId);
    if (!relay) this.relays.set(gameId, (relay = { nodes: new Set(), ended: false, archived: false, lastFrame: null, lost: nothingLost() }));
    relay.nodes.add(from);
    this.showGame(gameId, game, games, [from], false);
  }

  /** The game's watchStart to `nodes` (`again`: unasked, for every watcher there), each still watching it once sent. */
  private showGame(gameId: string, game: LiveGame, games: GameManager, nodes: string[], again: boolean): void {
    const t = JSON.stringify(watchStart(game, games));
    // as for a local spectator: the frames before the position were relayed before this runs
    games.afterCommit(() => {
      for (const node of nodes) {
        if (this.relays.get(gameId)?.nodes.has(node)) this.publish(node, { k: 'wstart', g: gameId, t, ...(again ? { r: true as const } : {}) });
      }
    });
  }

  private unwatchedFrom(from: string, gameId: string): void {
    const relay = this.relays.get(gameId);
    relay?.nodes.delete(from);
    if (relay?.nodes.size === 0) this.relays.delete(gameId);
  }

  /** A node died: nothing more is relayed to it. */
  nodeGone(node: string): void {
    for (const gameId of [...this.relays.keys()]) this.unwatchedFrom(node, gameId);
  }

  frame(gameId: string, bytes: Uint8Array): void {
    this.spectators.frame(gameId, bytes);
    const relay = this.relays.get(gameId);
    if (!relay) return;
    relay.lastFrame = decoder.decode(bytes);
    this.tell(gameId, { k: 'wframe', g: gameId, t: relay.lastFrame });
  }

  /** A game of this node ended (its gameEnd was relayed as a frame). */
  ended(gameId: string): void {
    this.spectators.ended(gameId);
    const relay = this.tell(gameId, { k: 'wend', g: gameId });
    if (!relay) return;
    relay.ended = true;
    this.endTold(gameId, relay);
  }

  /** The archive stored a game of this node. */
  archived(gameId: string): void {
    this.spectators.archived(gameId);
    const relay = this.tell(gameId, { k: 'warchived', g: gameId });
    if (!relay) return;
    relay.archived = true;
    if (relay.ended) this.endTold(gameId, relay);
  }

  /**
   * An ended game's relay once its end (or the archive's word) went out: forgotten when nothing
   * more is to come, unless some of it failed (told again once Redis answers).
   */
  private endTold(gameId: string, relay: Relay): void {
    if (lostAny(relay)) return;
    if (relay.archived || !this.spectators.withArchive) return void this.relays.delete(gameId);
    // an archive that never answers does not keep the relay
    setTimeout(() => this.forgetRelay(gameId, relay), AWAITING_ARCHIVE_MS).unref();
  }

  private forgetRelay(gameId: string, relay: Relay): void {
    if (this.relays.get(gameId) === relay && !lostAny(relay)) this.relays.delete(gameId);
  }

  /** One message to each node with watchers of the game; its relay, when there is one. */
  private tell(gameId: string, msg: BusMessage): Relay | undefined {
    const relay = this.relays.get(gameId);
    if (!relay) return undefined;
    const part = msg.k === 'warchived' ? 'archive' : 'game';
    for (const node of relay.nodes) this.publish(node, msg, () => this.failed(gameId, relay, part));
    return relay;
  }

  /**
   * A relayed message's publish failed (Redis away, or its connection lost with the publish in
   * flight, before this node knew): it is told again once Redis answers. An ended game's relay
   * forgotten meanwhile is kept again until then.
   */
  private failed(gameId: string, relay: Relay, part: keyof Relay['lost']): void {
    relay.lost[part] = true;
    if (relay.ended && relay.nodes.size > 0 && !this.relays.has(gameId)) this.relays.set(gameId, relay);
  }

  /**
   * Redis is back after this node's outage: what it relayed meanwhile was lost. Each node with
   * watchers of a game still played here gets its watchStart again, for every watcher there; an
   * ended game has what failed of its end told again (tellLostEndsAgain).
   */
  async resyncWatchers(): Promise<void> {
    this.tellLostEndsAgain();
    const live: [string, Relay][] = [];
    for (const [gameId, relay] of this.relays) {
      if (relay.ended) continue;
      // shown again below: an end that comes meanwhile goes out as usual
      relay.lost = nothingLost();
      live.push([gameId, relay]);
    }
    if (live.length === 0) return;
    const owners = await this.ownersOf(live.map(([g]) => g));
    if (!owners) return;
    live.forEach(([gameId, relay], i) => {
      if (this.relays.get(gameId) === relay && !relay.ended) this.showAgain(gameId, relay, owners[i]);
    });
  }

  /**
   * A live game's watchStart again to its relay's nodes; not when another node plays it now (its
   * watchers' nodes find that one at their beats), nor when it just ended (its end is on its way).
   */
  private showAgain(gameId: string, relay: Relay, owner: string | null): void {
    const games = this.games();
    const game = games?.games.get(gameId);
    if (!games || !game || game.ended || owner !== this.node) return;
    this.showGame(gameId, game, games, [...relay.nodes], true);
  }

  /**
   * Redis answers (it is back, or a beat went through): each ended game's end whose publish failed
   * is told again, as it went (its gameEnd frame and `wend`, then `warchived` once stored). A
   * publish that timed out may have arrived too: a spectator then sees the same gameEnd twice
   * (and ignores the second, docs/protocol.md); its node changes nothing the second time.
   */
  tellLostEndsAgain(): void {
    for (const [gameId, relay] of this.relays) if (relay.ended) this.tellEndAgain(gameId, relay);
  }

  /** What an ended game's relay lost, told again in the order it went: the gameEnd frame and `wend`, the archive's word. */
  private tellEndAgain(gameId: string, relay: Relay): void {
    const { lost } = relay;
    if (!lostAny(relay)) return;
    relay.lost = nothingLost();
    if (lost.game && relay.lastFrame !== null) this.tell(gameId, { k: 'wframe', g: gameId, t: relay.lastFrame });
    if (lost.game) this.tell(gameId, { k: 'wend', g: gameId });
    if (lost.archive) this.tell(gameId, { k: 'warchived', g: gameId });
    this.endTold(gameId, relay);
  }

  // ---------------------------------------------------------------------------------------------
  // Messages from other nodes

  handle(msg: WatchMessage): void {
    switch (msg.k) {
      case 'watch':
        return this.watchedFrom(msg.n, msg.g);
      case 'unwatch':
        return this.unwatchedFrom(msg.n, msg.g);
      case 'wstart':
        return this.started(msg.g, msg.t, msg.r === true);
      case 'wframe':
        return this.spectators.frame(msg.g, msg.t);
      case 'wend':
        return this.endedElsewhere(msg.g);
      case 'warchived':
        return this.archivedElsewhere(msg.g);
      case 'wunknown':
        return this.unknown(msg.g);
    }
  }
}
