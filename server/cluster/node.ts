/**
 * This node's part in a site of several nodes on one Redis and one PostgreSQL (REDIS_URL): the
 * lila / lila-ws split. Sockets may be on any node; each game is played by one owner node, and a
 * player whose socket is elsewhere plays it through Redis: this node is the rounds' way to games
 * owned elsewhere (server/round: RoundsElsewhere), their commands travel to the owner parsed and
 * typed and are played there as a local player's, the frames come back to the socket's node. Games are written to the shared game log (PostgreSQL) before their effects
 * are sent; a node whose lease expires has its games taken over by another, from that log
 * (takeover.ts).
 * Games against the AI are ordinary games (one seat the engine's): a node that takes one over
 * plays the engine's seat again (server/ai/seat.ts).
 * docs/operations.md ("Several nodes on Redis") describes the whole.
 */
import type { JournalSync } from '../config/server';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Hub, PlayerSession, RemoteGame } from '../realtime/hub';
import { newGameId, type GameManager, type LiveGame } from '../game/games';
import type { Matchmaking } from '../game/matchmaking';
import type { ClusterMetrics } from '../http/metrics';
import type { Db } from '../accounts/db';
import { openRedis, type RedisLink } from './redis';
import { ClusterKeys } from './keys';
import { Bus } from './bus';
import { Membership } from './membership';
import { Ownership } from './ownership';
import { SharedGameLog, GAME_LOG_TABLE_SQL, GAME_LOG_LOCK_KEY, loggedEnd } from './sharedLog';
import type { MoveLag } from '../../machines/game';
import type { Color, GameCommandMsg, TimeControl } from '../../machines/protocol/messages';
import { SiteMatchmaking } from './matchmaking';
import { PairingCommit, type PairingVerdict } from './pairingCommit';
import { Retries } from './retries';
import { SharedLimits } from './sharedLimits';
import { readBusMessage, type BusMessage, type SeatInfo } from './messages';
import { SiteLiveGames, type NodeLiveView } from './liveGames';
import type { SiteLiveView } from '../realtime/liveGames';
import { SiteWatching } from './watching';
import { GameTakeover } from './takeover';
import { refuseMixedSite } from './siteProtocol';
import { redisLobbyStore } from './lobbyRecords';
import type { LobbyStore } from '../lobby/records';
import type { GameWatchers, Spectators } from '../realtime/spectators';
import type { Rounds, RoundsElsewhere } from '../round/round';
import type { ChatElsewhere } from '../chat/chat';
import { elsewhereAgainstAi, endedElsewhere, forgetElsewhere, playElsewhere, socketOn } from '../round/seats';

/** What a command the node sends on a player's behalf carries of its lag: nothing measured. */
const NO_LAG: MoveLag = {};

export interface ClusterOptions {
  redisUrl: string;
  /** the prefix of every Redis key of this site (REDIS_PREFIX) */
  prefix: string;
  /** the shared PostgreSQL database (accounts, archive and the game log) */
  db: Db;
  /** how far a batch of the game log goes before its moves are sent (GAME_JOURNAL_SYNC; default interval): see SharedGameLog */
  sync?: JournalSync;
}

/** What the socket layer does for messages that come from another node. */
export interface RemoteSockets {
  /** the player connected on node `by` (socket number `order` of the site's order): close an older socket of theirs here, without a disconnection */
  replaced(playerId: string, by: string, order: number): void;
}

export const NEW_GAMES_REFUSED = 'New games cannot start right now: this server cannot reach the site\'s shared store. Please try again in a moment.';

export class ClusterNode implements RoundsElsewhere {
  readonly keys: ClusterKeys;
  readonly log: SharedGameLog;
  readonly membership: Membership;
  readonly ownership: Ownership;
  /** the pool's pairings, each committed in Redis before its game starts */
  private readonly pairingCommit: PairingCommit;
  /** request limits shared by the site's nodes (a socket's connect rate per address) */
  readonly limits: SharedLimits;
  private games!: GameManager;
  private sockets!: RemoteSockets;
  private rounds!: Rounds;
  matchmaking!: SiteMatchmaking;
  /** spectators of games played on other nodes, and other nodes' spectators of this node's games */
  private watching?: SiteWatching;
  /** the site's list of live games, read at each beat */
  private liveGames?: SiteLiveGames;
  /**
   * nodes whose lease expired, as last seen; a node that renews its lease again (it was held up,
   * or Redis was) is live again and leaves this set
   */
  private readonly deadNodes = new Set<string>();
  /** messages to the other nodes; a player's commands are held while Redis is away */
  private readonly bus: Bus;
  private closing = false;
  /** the lobby's hooks and the challenges, in Redis, and the channel their changes are announced on */
  private readonly lobbyRecords: ReturnType<typeof redisLobbyStore>;
  /** the end of a game in Redis (owner and seats cleared), tried again while Redis is away */
  private readonly endWrites: Retries;
  /** games that change owner: a dead node's taken over here, this node's taken elsewhere dropped */
  private readonly takeover: GameTakeover;

  private constructor(
    readonly node: string,
    private readonly redis: RedisLink,
    /** the shared PostgreSQL database */
    readonly db: Db,
    private readonly hub: Hub,
    private readonly metrics: ClusterMetrics,
    private readonly logger: Logger,
    prefix: string,
    sync: JournalSync | undefined,
  ) {
    this.keys = new ClusterKeys(prefix);
    this.bus = new Bus(redis, this.keys, metrics, logger.child({ part: 'bus' }));
    this.ownership = new Ownership(this.node, redis, this.keys);
    this.pairingCommit = new PairingCommit(this.node, redis, this.keys);
    this.endWrites = new Retries({
      failed: (err, gameId, failures) => {
        if (failures === 1) this.logger.warn({ err: err.message, gameId }, "could not clear the ended game's owner and seats; trying again until Redis answers");
      },
      worked: (gameId, failures) => this.logger.info({ gameId, failures }, "cleared the ended game's owner and seats"),
    });
    this.limits = new SharedLimits(redis.cmd, this.keys, logger);
    this.lobbyRecords = redisLobbyStore(redis.cmd, this.keys, logger.child({ sub: 'lobby' }));
    this.log = new SharedGameLog(db, { commitSeconds: metrics.logCommitSeconds, bytesWritten: metrics.logBytes }, logger.child({ sub: 'game-log' }), (lost) => this.takeover.dropGames(lost, 'fenced'), sync);
    this.takeover = new GameTakeover({
      node: this.node,
      db,
      log: this.log,
      ownership: this.ownership,
      hub,
      metrics,
      logger,
      games: () => this.games,
      watching: () => this.watching,
      mayTake: () => !this.closing && this.membership.mayPlay,
      publish: (n, m) => this.publish(n, m),
      tellSeats: (game) => this.tellSeats(game),
    });
    this.membership = new Membership(this.node, redis, this.keys, logger, () => hub.playersOnline, {
      leaseLapsed: () => this.leaseLapsed(),
      deadNodes: (nodes) => {
        for (const n of nodes) {
          if (!this.deadNodes.has(n)) this.logger.warn({ dead: n }, 'node lease expired: its players are gone and its games are taken over');
          this.deadNodes.add(n);
          this.watching?.nodeGone(n);
          void this.takeover.takeOver(n);
        }
      },
      matchmakerChanged: (holder, previous) => this.matchmakerChanged(holder, previous),
      storeEmptied: () => this.takeover.storeEmptied(),
      beat: (live) => {
        this.nodesBack(live);
        this.playersOfDeadNodesGone();
        void this.findMovedGames(live);
        void this.watching?.findMovedGames(live);
        this.watching?.askUnansweredAgain(live);
        this.watching?.tellLostEndsAgain();
        void this.liveGames?.beat(live);
      },
      siteChanged: (view) => {
        if (this.hub.remote) this.hub.remote.elsewhereOnline = view.elsewhere;
        this.hub.countChanged();
      },
    });
  }

  /** Connects to Redis and PostgreSQL; rejects (with the reason) when either cannot be reached. */
  static async open(opts: ClusterOptions, hub: Hub, metrics: ClusterMetrics, logger: Logger): Promise<ClusterNode> {
    if (opts.db.kind !== 'pg') throw new Error('several nodes need PostgreSQL (DATABASE_URL): the embedded database has one writer');
    // nodes starting together create the table once (an advisory lock serialises them)
    await opts.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [GAME_LOG_LOCK_KEY]);
      await tx.exec(GAME_LOG_TABLE_SQL);
    });
    const node = 'n' + randomBytes(6).toString('hex');
    const redis = await openRedis(opts.redisUrl, node, logger);
    const keys = new ClusterKeys(opts.prefix);
    try {
      await refuseMixedSite(redis.cmd, keys);
    } catch (err) {
      await redis.close();
      throw err;
    }
    return new ClusterNode(node, redis, opts.db, hub, metrics, logger.child({ part: 'cluster' }), opts.prefix, opts.sync);
  }

  /** The site's matchmaking as this node's sockets use it, around the node's own pool. */
  sitePool(games: GameManager, localPool: Matchmaking): SiteMatchmaking {
    this.games = games;
    this.matchmaking = new SiteMatchmaking(this.node, localPool, this.hub, () => this.membership.matchmaker, (n, m) => this.publish(n, m));
    return this.matchmaking;
  }

  /** The node's spectators, across the site: what the game manager and the archive tell them is relayed to other nodes' too. */
  spectate(spectators: Spectators, games: () => GameManager | undefined): GameWatchers {
    this.watching = new SiteWatching(this.node, spectators, games, this.ownership, (n, m, failed) => this.publish(n, m, failed), this.logger.child({ sub: 'watching' }));
    return this.watching;
  }

  /** Where the chat of games played on other nodes goes: their owner, known from the player's seat or the watch. */
  chatElsewhere(): ChatElsewhere {
    return {
      watchedOn: (gameId) => this.watching?.ownerKnown(gameId) ?? null,
      tell: (node, gameId, playerId, line) => this.publish(node, { k: 'chat', g: gameId, p: playerId, l: line }),
    };
  }

  /** The site's live games, every node's: this node's part (`local`) shared, the merged view shown at each beat. */
  listLiveGames(local: () => NodeLiveView, show: (view: SiteLiveView) => void): void {
    this.liveGames = new SiteLiveGames(this.node, this.redis, this.keys, local, show, this.logger.child({ sub: 'live-games' }));
  }

  /** Joins the site once the games, the pool (sitePool), the rounds and the sockets exist. */
  async start(sockets: RemoteSockets, rounds: Rounds): Promise<void> {
    this.sockets = sockets;
    this.rounds = rounds;
    this.hub.remote = { sendText: (node, playerId, text) => this.sendText(node, playerId, text), elsewhereOnline: 0 };
    this.redis.onChange((reachable) => {
      if (!reachable) return;
      // the ends of games that could not be written, then the messages held, in their order
      this.endWrites.now();
      this.bus.flush();
      this.resyncRemoteGames();
      this.watching?.resync();
      void this.watching?.resyncWatchers();
    });
    await this.redis.sub.subscribe(this.keys.channel(this.node), this.lobbyRecords.channel);
    this.redis.sub.on('message', (channel: string, text: string) => (channel === this.lobbyRecords.channel ? this.lobbyRecords.received(text) : this.received(text)));
    await this.membership.start();
    this.logger.info({ node: this.node }, 'node joined the site');
  }

  /** The site's lobby (hooks and challenges), kept in Redis for every node. */
  get lobby(): LobbyStore {
    return this.lobbyRecords;
  }

  /** Redis answers and the lease holds: this node may start and play games. */
  get healthy(): boolean {
    return this.redis.reachable && this.membership.mayPlay;
  }

  get redisReachable(): boolean {
    return this.redis.reachable;
  }

  // ---------------------------------------------------------------------------------------------
  // Messages between nodes

  /** A message to another node; `failed` as for Bus.publish. */
  publish(node: string, msg: BusMessage, failed?: () => void): void {
    if (!node || node === this.node) return;
    this.bus.publish(node, msg, failed);
  }

  /** A frame to a player whose socket is on `node`. */
  sendText(node: string, playerId: string, text: string): void {
    this.publish(node, { k: 'frame', p: playerId, t: text });
  }

  private received(text: string): void {
    this.metrics.crossNodeMessages.inc({ direction: 'received' });
    const msg = readBusMessage(text);
    if (!msg) {
      this.logger.error({ bytes: text.length }, 'unreadable message from another node; ignored');
      return;
    }
    try {
      this.handle(msg);
    } catch (err) {
      this.logger.error({ err, k: msg.k }, 'message from another node failed');
    }
  }

  private handle(msg: BusMessage): void {
    switch (msg.k) {
      case 'frame': {
        const s = this.hub.session(msg.p);
        if (s?.ws) this.hub.sendWs(s.ws, msg.t);
        return;
      }
      case 'seat':
        return this.seated(msg.p, msg.g, msg.o);
      case 'unseat': {
        const s = this.hub.session(msg.p);
        if (s) endedElsewhere(s, msg.g, msg.o);
        return;
      }
      case 'vsai': {
        const s = this.hub.session(msg.p);
        if (s) elsewhereAgainstAi(s, msg.g);
        return;
      }
      case 'cmd':
        return this.rounds.remoteCommand(msg.n, msg.p, this.hub.session(msg.p)?.kind ?? 'guest', msg.c, { lagMs: msg.lag, unansweredPingMs: msg.ping }, (id) => this.hub.session(id));
      case 'here':
        return this.playerHere(msg.p, msg.n);
      case 'gone':
        return this.playerGone(msg.p, msg.n);
      case 'replace':
        return this.sockets.replaced(msg.p, msg.n, msg.o);
      case 'join':
        return this.matchmaking.remoteJoin(msg.n, msg.p, msg.kind, msg.name, msg.tc);
      case 'leave':
        return this.matchmaking.remoteLeave(msg.n, msg.p);
      case 'create':
        return this.createPaired(msg.g, msg.white, msg.black, msg.tc);
      case 'watch':
      case 'unwatch':
      case 'wstart':
      case 'wframe':
      case 'wend':
      case 'warchived':
      case 'wunknown':
        return this.watching?.handle(msg);
      case 'chat':
        return void this.games.chat(msg.g, msg.p, msg.l);
    }
  }

  /** The player (socket here) has a seat in game `gameId` played on `owner`. */
  private seated(playerId: string, gameId: string, owner: string): void {
    const s = this.hub.session(playerId);
    if (!s?.ws) {
      this.publish(owner, { k: 'gone', n: this.node, p: playerId });
      return;
    }
    this.matchmaking.foundElsewhere(s);
    playElsewhere(s, { id: gameId, owner });
    this.publish(owner, { k: 'here', n: this.node, p: playerId });
  }

  /** The socket of a player of one of this node's games is now on node `from`. */
  private playerHere(playerId: string, from: string): void {
    const s = this.hub.session(playerId);
    if (!s || s.ws) return;
    this.rounds.presence.arrived(s, from);
    // the socket's node knows the game by its id only: a search it refuses names the game as one against the AI
    if (s.game && (s.game.white.engine || s.game.black.engine)) this.publish(from, { k: 'vsai', p: playerId, g: s.game.id });
  }

  private playerGone(playerId: string, from: string): void {
    const s = this.hub.session(playerId);
    if (!s || s.node !== from) return;
    // out of the pool while the session still says where the search came from
    if (s.queued) this.matchmaking.remoteLeave(from, playerId);
    this.rounds.presence.left(s, from);
    this.hub.forgetIfIdle(s);
  }

  // ---------------------------------------------------------------------------------------------
  // Sockets of this node

  /**
   * A socket opened here: the previous one elsewhere is closed, a game played elsewhere is found,
   * and the socket learns its place in the site's order (`order`), which keeps a late message to
   * close an older socket from closing it.
   */
  async socketOpened(playerId: string): Promise<{ elsewhere: RemoteGame | null; order: number }> {
    const { previous, game, order } = await this.ownership.socketOpened(playerId);
    if (previous && previous !== this.node) this.publish(previous, { k: 'replace', n: this.node, p: playerId, o: order });
    return { elsewhere: game && game.owner !== this.node ? game : null, order };
  }

  /**
   * Nodes seen dead whose lease holds again (held up past it, by load or by Redis) are live: their
   * players are no longer counted gone at each beat (the node itself tells them here again).
   */
  private nodesBack(live: ReadonlySet<string>): void {
    for (const n of this.deadNodes) {
      if (!live.has(n)) continue;
      this.deadNodes.delete(n);
      this.logger.warn({ node: n }, 'node lease renewed again after it expired: the node is live');
    }
  }

  /**
   * This node's lease had lapsed: another node may have taken its games (they are dropped here),
   * or Redis restarted empty (its games are owned here again, its sockets recorded again); the
   * others may have seen it dead and counted its players gone, from their games and from the
   * pool. Its players are shown here again: each game played elsewhere hears they are here and
   * shows where it stands, each search goes to the pool again, each watched game is asked again.
   */
  private leaseLapsed(): void {
    void this.takeover.checkOwnership();
    void this.ownership.socketsHere([...this.hub.players.values()].filter((s) => s.ws).map((s) => s.id)).catch(() => {});
    this.resyncRemoteGames();
    this.matchmaking?.searchAgain();
    this.watching?.resync();
  }

  /**
   * Players of this node's games (or pool) whose socket was on a node that died have no socket
   * any more: their disconnect grace starts, as if their socket had closed.
   */
  private playersOfDeadNodesGone(): void {
    if (this.deadNodes.size === 0) return;
    // a Map may lose entries while it is iterated (playerGone can forget an idle session)
    for (const s of this.hub.players.values()) {
      if (s.node && this.deadNodes.has(s.node)) this.playerGone(s.id, s.node);
    }
  }

  /**
   * Games of this node's players whose owner died: once another node has taken one over, the
   * player's commands go there, and the new owner hears the player is here (and shows them the
   * game as it stands).
   */
  private async findMovedGames(live: ReadonlySet<string>): Promise<void> {
    const orphans: PlayerSession[] = [];
    for (const s of this.hub.players.values()) if (s.ws && s.remoteGame && !live.has(s.remoteGame.owner)) orphans.push(s);
    if (orphans.length === 0) return;
    const owners = await this.ownership.owners(orphans.map((s) => s.remoteGame!.id));
    orphans.forEach((s, i) => {
      const owner = owners[i];
      if (!s.remoteGame || !owner || owner === s.remoteGame.owner || !live.has(owner)) return;
      if (owner === this.node) return; // taken over here: the takeover seated the player
      this.playingElsewhere(s, { id: s.remoteGame.id, owner });
    });
  }

  /**
   * Redis is back after an outage, during which frames between nodes were lost: each player of
   * this node whose game is played elsewhere asks its owner for the game as it stands.
   */
  private resyncRemoteGames(): void {
    for (const s of this.hub.players.values()) {
      if (!s.ws || !s.remoteGame) continue;
      this.publish(s.remoteGame.owner, { k: 'here', n: this.node, p: s.id });
      this.forward(s, s.remoteGame.owner, { type: 'rejoinGame', payload: { gameId: s.remoteGame.id } }, NO_LAG);
    }
  }

  /**
   * A game neither live nor recently ended here: when it ended a short while ago on another node,
   * that node (where its end is kept) answers the player's rejoinGame; false when there is none.
   */
  async rejoinEndedElsewhere(session: PlayerSession, gameId: string): Promise<boolean> {
    const node = await this.ownership.playedBy(gameId);
    if (!node || node === this.node || !session.ws) return false;
    this.forward(session, node, { type: 'rejoinGame', payload: { gameId } }, NO_LAG);
    return true;
  }

  /**
   * The site records game `gameId` ended: its owner notes where it was played (in Redis) as it
   * clears its seats, before its players' nodes hear. An owner that lost Redis as the game ended
   * can note nothing there until it reaches Redis again, but wrote the end in the game's log
   * first: without a note in Redis, the log is read (only then, so a refusal costs one read of
   * PostgreSQL at most).
   */
  async endRecorded(gameId: string): Promise<boolean> {
    if ((await this.ownership.playedBy(gameId)) !== null) return true;
    const ended = await loggedEnd(this.db, gameId);
    if (ended) this.logger.info({ gameId }, "the game's log holds its end, which its owner has not recorded in Redis yet: its players are free");
    return ended;
  }

  /** The player's game is played elsewhere: its owner hears they are here. */
  playingElsewhere(session: PlayerSession, game: { id: string; owner: string }): void {
    playElsewhere(session, game);
    this.publish(game.owner, { k: 'here', n: this.node, p: session.id });
  }

  /** The player's socket here closed: the owner of their game and the pool hear it. */
  socketClosed(session: PlayerSession): void {
    void this.ownership.socketClosed(session.id).catch(() => {});
    const told = new Set<string>();
    for (const node of [session.remoteGame?.owner, session.lastRemoteGame?.owner, this.membership.matchmaker]) {
      if (!node || node === this.node || told.has(node)) continue;
      told.add(node);
      this.publish(node, { k: 'gone', n: this.node, p: session.id });
    }
    forgetElsewhere(session);
  }

  /** Sends a round command about a game played elsewhere to that game's owner. */
  forward(session: PlayerSession, owner: string, cmd: GameCommandMsg, lag: MoveLag): void {
    this.publish(owner, { k: 'cmd', n: this.node, p: session.id, c: cmd, ...(lag.lagMs === undefined ? {} : { lag: lag.lagMs }), ...(lag.unansweredPingMs === undefined ? {} : { ping: lag.unansweredPingMs }) });
  }

  // ---------------------------------------------------------------------------------------------
  // Games

  /**
   * A pairing of this node's pool: committed in Redis first (server/cluster/pairingCommit.ts),
   * then its game starts, here when a player's socket is here, otherwise on the node of white's
   * socket (so at most one of the two plays across nodes). False when the pairing could not be
   * committed (Redis did not answer) or its game could not start here; a pairing the commit
   * refuses starts nothing, and its free players search on.
   */
  async startPaired(white: PlayerSession, black: PlayerSession, timeControl: TimeControl): Promise<boolean> {
    const gameId = newGameId();
    const term = this.membership.matchmakerTerm;
    let verdict: PairingVerdict;
    try {
      verdict = await this.pairingCommit.commit(gameId, term, white.id, black.id);
    } catch (err) {
      this.metrics.pairings.inc({ outcome: 'store_error' });
      // not searched on: with Redis away the next pairing would fail the same way at once
      this.logger.warn({ gameId, white: white.id, black: black.id, reason: 'store_error', err: (err as Error).message }, 'pairing dropped: it could not be committed; both are asked to search again');
      void this.pairingCommit.release(gameId, [white.id, black.id]).catch(() => {});
      return false;
    }
    this.metrics.pairings.inc({ outcome: verdict.outcome });
    if (verdict.outcome === 'committed') return this.startCommitted(gameId, white, black, timeControl);
    await this.pairingRefused(gameId, term, verdict, white, black, timeControl);
    return true;
  }

  /**
   * A pairing the commit refused starts nothing and nobody hears of it: a player seated already
   * plays on, the others search on (with the role's holder: when the role moved, this node learns
   * where it is first).
   */
  private async pairingRefused(gameId: string, term: string, verdict: Exclude<PairingVerdict, { outcome: 'committed' }>, white: PlayerSession, black: PlayerSession, timeControl: TimeControl): Promise<void> {
    const seated = verdict.outcome === 'player_seated' ? verdict.seated : [false, false];
    const detail = verdict.outcome === 'role_lost' ? { holder: verdict.holder, term: verdict.term, pairedIn: term } : { seated: [white, black].filter((_, i) => seated[i]).map((s) => s.id) };
    this.logger.warn({ gameId, white: white.id, black: black.id, reason: verdict.outcome, ...detail }, 'pairing dropped before its game started');
    if (verdict.outcome === 'role_lost') {
      await this.membership.refreshMatchmaker().catch((err: Error) => this.logger.warn({ err: err.message }, 'could not read the matchmaker role again'));
    }
    for (const [i, s] of [white, black].entries()) {
      if (seated[i]) this.hub.forgetIfIdle(s);
      else this.matchmaking.searchOn(s, timeControl);
    }
  }

  /** A committed pairing's game starts (here, or on the node of white's socket); false when it could not start here. */
  private startCommitted(gameId: string, white: PlayerSession, black: PlayerSession, timeControl: TimeControl): boolean {
    if (white.ws || black.ws || !white.node) {
      if (this.startedOrSearching(gameId, white, black, timeControl)) return true;
      void this.pairingCommit.release(gameId, [white.id, black.id]).catch(() => {});
      return false;
    }
    const info = (s: PlayerSession): SeatInfo => ({ id: s.id, kind: s.kind, name: s.name ?? s.id, rating: s.rating ?? null, node: s.node ?? this.node });
    this.publish(white.node, { k: 'create', g: gameId, white: info(white), black: info(black), tc: timeControl });
    for (const s of [white, black]) this.hub.forgetIfIdle(s);
    return true;
  }

  /**
   * Starts a committed pairing's game here; true when it started, or when a player was seated in
   * another game meanwhile (the pairing's seats are given back and the other player searches on).
   */
  private startedOrSearching(gameId: string, white: PlayerSession, black: PlayerSession, timeControl?: TimeControl): boolean {
    const busy = (s: PlayerSession) => Boolean(s.game || s.remoteGame);
    if (busy(white) || busy(black)) {
      this.logger.warn({ gameId, white: white.id, black: black.id }, 'paired game not started: a player is in another game; the other searches on');
      void this.pairingCommit.release(gameId, [white.id, black.id]).catch(() => {});
      for (const s of [white, black]) if (!busy(s)) this.matchmaking.searchOn(s, timeControl);
      return true;
    }
    return this.games.start(white, black, timeControl, { gameId }) !== null;
  }

  /** A committed pairing of the pool's node: its game starts here. */
  private createPaired(gameId: string, white: SeatInfo, black: SeatInfo, timeControl?: TimeControl): void {
    const w = this.seatFrom(white);
    const b = this.seatFrom(black);
    if (this.startedOrSearching(gameId, w, b, timeControl)) return;
    this.logger.warn({ gameId, white: white.id, black: black.id }, 'paired game not started here');
    void this.pairingCommit.release(gameId, [white.id, black.id]).catch(() => {});
    for (const s of [w, b]) this.hub.sendTo(s, { type: 'matchmakingStatus', status: 'idle', message: 'The game could not be started. Please search again.' });
  }

  /** A player of a game starting here, seated as the node of their socket says. */
  private seatFrom(p: SeatInfo): PlayerSession {
    const s = this.hub.seat(p.id, p.kind);
    s.name = p.name;
    s.rating = p.rating;
    this.matchmaking.foundElsewhere(s);
    if (!s.ws) socketOn(s, p.node === this.node ? null : p.node);
    return s;
  }

  /**
   * A custom game (a hook joined, a challenge accepted) starts here, between the player whose
   * socket is here and `other`, whose socket is on `other.node` (this node or another). False
   * when it could not start (the other is in a game here already, or the game could not begin).
   */
  startCustom(local: PlayerSession, other: SeatInfo, localColor: Color, timeControl: TimeControl, casual: boolean, gameId: string): boolean {
    const them = this.seatFrom(other);
    if (them.game || (them.ws && them.remoteGame)) return false;
    const [white, black] = localColor === 'white' ? [local, them] : [them, local];
    const started = this.games.start(white, black, timeControl, { casual, gameId }) !== null;
    if (!started) this.hub.forgetIfIdle(them);
    return started;
  }

  /** Told by the game manager: a game started here (its players' nodes learn where it is played). */
  gameStarted(game: LiveGame): void {
    void this.ownership.started(game.id, [game.white.id, game.black.id]).catch((err: Error) => this.logger.error({ err: err.message, gameId: game.id }, 'could not record the game\'s owner'));
    this.metrics.gamesOwned.inc();
    // a player's socket elsewhere (the engine's seat has none, anywhere)
    if ((['white', 'black'] as const).some((c) => !game[c].engine && !game.sessions[c].ws)) this.metrics.gamesAcrossNodes.inc();
    this.tellSeats(game);
  }

  private tellSeats(game: LiveGame): void {
    for (const s of [game.sessions.white, game.sessions.black]) {
      if (!s.ws && s.node) this.publish(s.node, { k: 'seat', p: s.id, g: game.id, o: this.node });
    }
  }

  /**
   * Told by the game manager: a game of this node ended. The site hears it once the end is in the
   * game's log, after the players' gameEnd: a node that dies before leaves the game its own, so
   * the node that takes its games over finds the end in the log and tells the players.
   */
  gameEnded(game: LiveGame): void {
    this.metrics.gamesOwned.dec();
    const players = [game.white.id, game.black.id];
    this.log.afterCommit(() => {
      // left in Redis, the owner and seats would hold both players out of the pool: tried until done
      this.endWrites.run(game.id, () => this.ownership.ended(game.id, players));
      for (const s of [game.sessions.white, game.sessions.black]) {
        if (!s.ws && s.node) this.publish(s.node, { k: 'unseat', p: s.id, g: game.id });
      }
    });
  }

  private matchmakerChanged(holder: string, previous: string): void {
    this.logger.info({ matchmaker: holder }, 'matchmaking pool runs on node');
    this.matchmaking?.matchmakerChanged(previous);
  }

  /**
   * Leaves the site (SIGTERM): the games stop here, everything written is committed, and the
   * lease is given up so that the other nodes take the games over at their next beat.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.bus.stop();
    this.endWrites.stop();
    await this.log.drain();
    await this.ownership.releaseMatchmaker().catch(() => {});
    await this.membership.leave();
    await this.redis.close();
    await this.db.close();
  }
}
