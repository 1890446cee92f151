/**
 * Games that change owner: a dead node's games taken over here from the shared game log, the games
 * a node without an owner left when Redis lost its keys adopted, and, after this node's own lease
 * lapsed, the games another node took dropped here (or reclaimed when nobody did). Each game is
 * claimed in Redis first (one node wins it), read from the log, moved into this node's time (the
 * time its owner was away is given back to both clocks) and resumed; its players' nodes learn
 * where it is played now. A game whose log is damaged ends as aborted. docs/operations.md
 * ("Several nodes on Redis") describes the whole.
 */
import type { Logger } from 'pino';
import type { Hub } from '../realtime/hub';
import type { GameManager, LiveGame } from '../game/games';
import type { ClusterMetrics } from '../http/metrics';
import type { Db } from '../accounts/db';
import { shiftLog, type GameLog, type GameResult } from '../../machines/game';
import { BEAT_MS, LEASE_MS } from './membership';
import type { Ownership, OwnedGame } from './ownership';
import { DamagedLogError, loadGameLogs, loggedRows, unfinishedGames, type LoadedLog, type SharedGameLog } from './sharedLog';
import type { BusMessage } from './messages';
import type { SiteWatching } from './watching';
import { playedHere, socketOn } from '../round/seats';

/** What taking games over needs of its node. */
export interface TakeoverDeps {
  node: string;
  /** the shared PostgreSQL database (the game log's rows) */
  db: Db;
  log: SharedGameLog;
  ownership: Ownership;
  hub: Hub;
  metrics: ClusterMetrics;
  logger: Logger;
  /** the node's game manager (it exists once the node plays) */
  games(): GameManager;
  /** spectators across the site, when the node has any */
  watching(): SiteWatching | undefined;
  /** the node may take games now: its lease holds and it is not leaving */
  mayTake(): boolean;
  publish(node: string, msg: BusMessage): void;
  /** a game's players' nodes learn it is played here */
  tellSeats(game: LiveGame): void;
}

export class GameTakeover {
  /** dead nodes whose games are being taken over now */
  private readonly takingOver = new Set<string>();

  constructor(private readonly deps: TakeoverDeps) {}

  /** Games this node lost (lease lapsed and taken, or rows refused): dropped without a result. */
  dropGames(gameIds: string[], why: 'fenced' | 'lease_lost'): void {
    for (const id of gameIds) {
      if (this.deps.games().drop(id)) {
        this.deps.metrics.gamesOwned.dec();
        this.deps.log.forget(id);
        this.deps.logger.error({ gameId: id, why }, 'game dropped: another node plays it now');
      }
    }
  }

  /**
   * After a lapsed lease: the games another node took meanwhile are dropped here. A game whose
   * owner Redis no longer knows (it restarted empty) is this node's again when the shared log
   * holds no row beyond the ones this node wrote (no other node played it since, nor ended it);
   * the claim is fenced in Redis (a node that claimed it first keeps it) and, for what comes
   * after, by the log's rows (a row another node wrote refuses this node's).
   */
  async checkOwnership(): Promise<void> {
    const mine = [...this.deps.games().games.values()].map((g): OwnedGame => ({ id: g.id, players: [g.white.id, g.black.id] }));
    if (mine.length === 0) return;
    try {
      const owners = await this.deps.ownership.owners(mine.map((g) => g.id));
      const unowned = mine.filter((_, i) => owners[i] === null);
      const reclaimed = await this.deps.ownership.reclaim(await this.playedOnlyHere(unowned));
      this.dropGames(mine.filter((g, i) => owners[i] !== this.deps.node && !reclaimed.has(g.id)).map((g) => g.id), 'lease_lost');
      if (reclaimed.size > 0) this.deps.logger.warn({ games: reclaimed.size }, 'games owned here again: Redis had lost their owner');
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'could not check which games are still ours');
    }
  }

  /** Of these games, those whose shared log holds no row beyond what this node wrote. */
  private async playedOnlyHere(games: OwnedGame[]): Promise<OwnedGame[]> {
    if (games.length === 0) return [];
    const logged = await loggedRows(this.deps.db, games.map((g) => g.id));
    return games.filter((g) => {
      const written = this.deps.log.writtenOf(g.id);
      return written !== undefined && (logged.get(g.id) ?? 0) <= written;
    });
  }

  /**
   * Redis is new, or lost every key: the live nodes own their games again at their next beat
   * (checkOwnership); a lease later, the games still without an owner were a node's that died
   * meanwhile (with Redis's list of nodes, nobody would ever see it dead): they are taken over.
   */
  storeEmptied(): void {
    const timer = setTimeout(() => void this.adoptOrphans(), LEASE_MS + BEAT_MS);
    timer.unref();
  }

  /** Games in the shared log with no end and no owner: claimed (one node wins each) and resumed here. */
  private async adoptOrphans(): Promise<void> {
    if (!this.deps.mayTake()) return;
    try {
      const mine = new Set(this.deps.games().games.keys());
      const unfinished = (await unfinishedGames(this.deps.db)).filter((g) => !mine.has(g.gameId));
      if (unfinished.length === 0) return;
      const owners = await this.deps.ownership.owners(unfinished.map((g) => g.gameId));
      const orphans = unfinished.filter((_, i) => owners[i] === null);
      const claimed = await this.deps.ownership.reclaim(orphans.map((g) => ({ id: g.gameId, players: [] })));
      for (const g of orphans) {
        if (!claimed.has(g.gameId)) continue;
        this.deps.logger.warn({ gameId: g.gameId }, 'game without an owner since Redis lost its keys: taken over here from its log');
        // the time since its last move is given back to both clocks, as for a dead node's games
        await this.resumeWatched('(unknown)', [g.gameId], g.lastAt);
        // its players' seats went with Redis's keys: a player who comes back finds the game
        const game = this.deps.games().games.get(g.gameId);
        const players = game ? [game.white.id, game.black.id] : [];
        if (players.length > 0) await this.deps.ownership.started(g.gameId, players);
      }
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'could not look for games without an owner');
    }
  }

  /**
   * Takes over the games of a dead node: each is claimed (one node wins each game), its log is
   * read from the shared game log, moved into this node's time (the time the node was gone is
   * given back to both clocks), and resumed; its players' nodes are told where it is played now.
   */
  async takeOver(dead: string): Promise<void> {
    if (this.takingOver.has(dead) || !this.deps.mayTake()) return;
    this.takingOver.add(dead);
    try {
      const seen = await this.deps.ownership.lastSeen(dead);
      // every game at once: one script claims them, one query reads their logs, one lookup
      // finds their players' sockets
      const taken = await this.deps.ownership.claimAll(dead);
      if (taken && taken.length > 0) await this.resumeWatched(dead, taken, seen);
      await this.deps.ownership.forgetIfEmpty(dead);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, dead }, 'taking over a dead node\'s games failed; trying again');
    } finally {
      this.takingOver.delete(dead);
    }
  }

  /** Resumes the claimed games; spectators who ask for one meanwhile are answered once it plays. */
  private async resumeWatched(dead: string, gameIds: string[], seen: number | null): Promise<void> {
    for (const id of gameIds) this.deps.watching()?.takingOver(id);
    try {
      await this.resumeClaimed(dead, gameIds, seen);
    } finally {
      for (const id of gameIds) this.deps.watching()?.tookOver(id);
    }
  }

  private async resumeClaimed(dead: string, gameIds: string[], seen: number | null): Promise<void> {
    const began = performance.now();
    const awayMs = seen === null ? 0 : Math.max(0, Date.now() - seen);
    const loaded = await loadGameLogs(this.deps.db, gameIds, awayMs);
    const players = loaded.flatMap((l) => (l && !(l instanceof Error) ? playersOf(l) : []));
    const nodes = await this.deps.ownership.socketNodes(players);
    const socketNode = new Map(players.map((p, i) => [p, nodes[i]]));
    for (const [i, gameId] of gameIds.entries()) {
      const game = loaded[i];
      if (game instanceof DamagedLogError) await this.abortDamaged(gameId, game.message, game.players);
      else if (!game) await this.deps.ownership.ended(gameId, []);
      else if (game.result) await this.endedThere(dead, game, game.result, socketNode, awayMs);
      else await this.resumeTaken(dead, game.log, socketNode, awayMs, began);
    }
  }

  /**
   * A taken-over game that had ended on its node (the end is in its log) before that node could
   * tell its players: a node cut off from Redis held their frames, at most a while, or it died
   * first. Its players are told the end its owner sent them, and it is kept here, where the site
   * now records it was played, for their rejoinGame. Then it goes to the archive from here, as if
   * it had ended here (a rated game's ratingChange follows its end, as from its node).
   */
  private async endedThere(dead: string, game: LoadedLog, result: GameResult, socketNode: ReadonlyMap<string, string | null>, awayMs: number): Promise<void> {
    const gameId = game.log.input.gameId;
    const end = this.deps.games().loggedEnd(game.log, result);
    await this.endAndTell(gameId, playersOf(game), end, socketNode);
    // at the times it was played: the log was moved on by the time its node was away
    const endedAt = game.endedAt === undefined ? performance.now() : game.endedAt - awayMs;
    this.deps.games().handOnLogged(shiftLog(game.log, -awayMs), result, endedAt);
    this.deps.logger.info({ gameId, from: dead, reason: result.reason }, "taken-over game had ended on its node: its players are told its end");
  }

  /** One game taken over: resumed here, its players' nodes told, its connected players shown it. */
  private async resumeTaken(dead: string, log: GameLog, socketNode: Map<string, string | null>, awayMs: number, began: number): Promise<void> {
    const gameId = log.input.gameId;
    this.deps.log.adopt(gameId, log.entries.length);
    const game = this.deps.games().resume(log, (id, kind) => {
      const s = this.deps.hub.seat(id, kind);
      const at = socketNode.get(id);
      if (!s.ws) socketOn(s, at && at !== this.deps.node ? at : null);
      // a socket that came here before the takeover: the game is no longer played elsewhere
      playedHere(s, gameId);
      return s;
    }, awayMs);
    if (!game) {
      this.deps.log.forget(gameId);
      await this.abortDamaged(gameId, 'the log does not replay', { white: log.input.white, black: log.input.black });
      return;
    }
    this.deps.metrics.gamesOwned.inc();
    this.deps.metrics.gamesTakenOver.inc();
    this.deps.tellSeats(game);
    // players still connected (on another live node) see the game go on from where it stands
    for (const s of [game.sessions.white, game.sessions.black]) if (s.ws || s.node) this.deps.games().sendPosition(game, s);
    this.deps.logger.info({ gameId, from: dead, awayMs: Math.round(awayMs), moves: log.entries.length, ms: Math.round(performance.now() - began) }, 'game taken over');
  }

  /**
   * A taken-over game whose log is damaged ends as aborted, the others go on: its players are
   * told (now, on the node of their socket; also when they come back here).
   */
  private async abortDamaged(gameId: string, reason: string, players?: { white: { id: string }; black: { id: string } }): Promise<void> {
    this.deps.logger.error({ gameId, reason }, 'game log damaged; the game is aborted');
    const end = this.deps.games().abortDamaged({ gameId, reason, ...(players ? { white: { id: players.white.id, name: '' }, black: { id: players.black.id, name: '' } } : {}) });
    const ids = players ? [players.white.id, players.black.id] : [];
    const nodes = await this.deps.ownership.socketNodes(ids);
    await this.endAndTell(gameId, ids, end, new Map(ids.map((id, i) => [id, nodes[i]])));
  }

  /**
   * A game over, its end kept here: its owner and seats are cleared (the site records it was
   * played here), and its players told `end` on their socket's node (`socketNode`), which
   * forgets the game and asks this node for it from now on.
   */
  private async endAndTell(gameId: string, ids: string[], end: Uint8Array, socketNode: ReadonlyMap<string, string | null>): Promise<void> {
    await this.deps.ownership.ended(gameId, ids);
    const text = Buffer.from(end).toString();
    for (const id of ids) {
      const node = socketNode.get(id);
      if (!node) continue;
      if (node === this.deps.node) {
        const s = this.deps.hub.session(id);
        if (!s?.ws) continue;
        playedHere(s, gameId);
        this.deps.hub.sendWs(s.ws, text);
        continue;
      }
      this.deps.publish(node, { k: 'unseat', p: id, g: gameId, o: this.deps.node });
      this.deps.publish(node, { k: 'frame', p: id, t: text });
    }
  }
}

/** The players of a game read from the log. */
function playersOf(loaded: LoadedLog): string[] {
  return [loaded.log.input.white.id, loaded.log.input.black.id];
}
