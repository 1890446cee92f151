/**
 * Who plays which game, and where each player's socket is, in Redis. A game has one owner node
 * (`owner:<game>`, and the node's `owned:<node>` set); a player has a seat (`seat:<player>`,
 * their live game) and a socket node (`socket:<player>`). A dead node's games are claimed with one
 * script that checks, in one step, that its lease is really gone and that it still owns each
 * game, so two nodes can never both take one game, and a node whose lease came back keeps the
 * games nobody took yet. (The scripts build key names from a prefix: one Redis, not a
 * Redis Cluster.)
 */
import { execOrThrow, type RedisLink } from './redis';
import { ENDED_KEEP_MS } from '../game/endedGames';
import type { ClusterKeys } from './keys';

/**
 * Claims every game of a dead node still owned by it, in one step: nothing if its lease is back
 * (-1), else the ids taken (games another node took meanwhile are dropped from its set).
 */
const CLAIM_ALL = `
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local taken = {}
for _, game in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local owner = KEYS[4] .. game
  if redis.call('GET', owner) == ARGV[1] then
    redis.call('SET', owner, ARGV[2])
    redis.call('SMOVE', KEYS[2], KEYS[3], game)
    taken[#taken + 1] = game
  else
    redis.call('SREM', KEYS[2], game)
  end
end
return taken`;

/**
 * A game of this node whose owner Redis no longer knows (it restarted empty): this node's again
 * unless another node claimed it first (0); its players' seats come back unless newer ones exist.
 * KEYS: owner, the node's owned set, then the players' seats.
 */
const RECLAIM = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
redis.call('SADD', KEYS[2], ARGV[2])
for i = 3, #KEYS do redis.call('SET', KEYS[i], ARGV[2], 'EX', ARGV[3], 'NX') end
return 1`;

/** Deletes a key only while it still holds the given value. */
export const DELETE_IF = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** How long a seat is kept without its game ending (a game lasts at most a few hours). */
const SEAT_TTL_S = 6 * 3600;
/** How long a socket's node is kept (renewed while the node lives: a socket lasts hours at most). */
const SOCKET_TTL_S = 24 * 3600;

/** A live game of this node and its players (one for a game against the AI). */
export interface OwnedGame {
  id: string;
  players: string[];
}

export class Ownership {
  constructor(
    private readonly node: string,
    private readonly redis: RedisLink,
    private readonly keys: ClusterKeys,
  ) {}

  /** A game started here: this node owns it; its players have their seats. */
  async started(gameId: string, players: string[]): Promise<void> {
    const pipe = this.redis.cmd.multi();
    pipe.set(this.keys.owner(gameId), this.node);
    pipe.sadd(this.keys.owned(this.node), gameId);
    for (const p of players) pipe.set(this.keys.seat(p), gameId, 'EX', SEAT_TTL_S);
    execOrThrow(await pipe.exec());
  }

  /**
   * A game ended here: no owner, no seats (a seat already in a newer game is left alone); the
   * site remembers for a while that it was played here, where its end is kept.
   */
  async ended(gameId: string, players: string[]): Promise<void> {
    const pipe = this.redis.cmd.pipeline();
    pipe.eval(DELETE_IF, 1, this.keys.owner(gameId), this.node);
    pipe.set(this.keys.played(gameId), this.node, 'PX', ENDED_KEEP_MS);
    pipe.srem(this.keys.owned(this.node), gameId);
    for (const p of players) pipe.eval(DELETE_IF, 1, this.keys.seat(p), gameId);
    execOrThrow(await pipe.exec());
  }

  /** Every game of `dead` it still owns, now this node's; null when its lease is back. */
  async claimAll(dead: string): Promise<string[] | null> {
    const r = (await this.redis.cmd.eval(
      CLAIM_ALL,
      4,
      this.keys.alive(dead),
      this.keys.owned(dead),
      this.keys.owned(this.node),
      this.keys.owner(''),
      dead,
      this.node,
    )) as string[] | number;
    return r === -1 ? null : (r as string[]);
  }

  /** When node `dead` was last seen (wall-clock ms), or null. */
  async lastSeen(dead: string): Promise<number | null> {
    const v = await this.redis.cmd.hget(this.keys.seen, dead);
    return v === null ? null : Number(v);
  }

  /** A dead node with no games left is forgotten. */
  async forgetIfEmpty(dead: string): Promise<boolean> {
    if ((await this.redis.cmd.scard(this.keys.owned(dead))) > 0) return false;
    await this.redis.cmd.multi().srem(this.keys.nodes, dead).hdel(this.keys.seen, dead).del(this.keys.count(dead), this.keys.protocol(dead)).exec();
    return true;
  }

  /**
   * Games of this node whose owner key is gone (Redis lost it), owned here again with their
   * seats, each unless another node claimed it meanwhile; returns the ids owned again.
   */
  async reclaim(games: OwnedGame[]): Promise<Set<string>> {
    if (games.length === 0) return new Set();
    const pipe = this.redis.cmd.pipeline();
    for (const g of games) {
      const keys = [this.keys.owner(g.id), this.keys.owned(this.node), ...g.players.map((p) => this.keys.seat(p))];
      pipe.eval(RECLAIM, keys.length, ...keys, this.node, g.id, SEAT_TTL_S);
    }
    const replies = (await pipe.exec()) ?? [];
    return new Set(games.filter((_, i) => replies[i]?.[1] === 1).map((g) => g.id));
  }

  /** The players' sockets here, recorded again where Redis lost them (a newer socket elsewhere is left alone). */
  async socketsHere(players: string[]): Promise<void> {
    if (players.length === 0) return;
    const pipe = this.redis.cmd.pipeline();
    for (const p of players) pipe.set(this.keys.socket(p), this.node, 'EX', SOCKET_TTL_S, 'NX');
    await pipe.exec();
  }

  /** Which of `gameIds` this node still owns. */
  async stillOwned(gameIds: string[]): Promise<Set<string>> {
    if (gameIds.length === 0) return new Set();
    const owners = await this.redis.cmd.mget(...gameIds.map((g) => this.keys.owner(g)));
    return new Set(gameIds.filter((_, i) => owners[i] === this.node));
  }

  /** The node of each player's socket (null: none, or a node whose lease is gone). */
  async socketNodes(players: string[]): Promise<(string | null)[]> {
    if (players.length === 0) return [];
    const nodes = await this.redis.cmd.mget(...players.map((p) => this.keys.socket(p)));
    const named = [...new Set(nodes.filter((n): n is string => n !== null))];
    if (named.length === 0) return nodes;
    const pipe = this.redis.cmd.pipeline();
    for (const n of named) pipe.exists(this.keys.alive(n));
    const replies = (await pipe.exec()) ?? [];
    const alive = new Set(named.filter((_, i) => replies[i]?.[1] === 1));
    return nodes.map((n) => (n !== null && alive.has(n) ? n : null));
  }

  /** The node that played a game which ended a short while ago (null: none, or long ago). */
  playedBy(gameId: string): Promise<string | null> {
    return this.redis.cmd.get(this.keys.played(gameId));
  }

  /** The owner of a game (null: none). */
  ownerOf(gameId: string): Promise<string | null> {
    return this.redis.cmd.get(this.keys.owner(gameId));
  }

  /** The owner of each game (null: none). */
  owners(gameIds: string[]): Promise<(string | null)[]> {
    return this.redis.cmd.mget(...gameIds.map((g) => this.keys.owner(g)));
  }

  /**
   * A socket of `playerId` opened here: records it and returns the node of the player's previous
   * socket (to be closed there), the live game they have a seat in, with its owner, and the
   * socket's place in the site's order of sockets (`order`: a later socket has a larger one).
   */
  async socketOpened(playerId: string): Promise<{ previous: string | null; game: { id: string; owner: string } | null; order: number }> {
    const pipe = this.redis.cmd.pipeline();
    pipe.incr(this.keys.socketOrder);
    pipe.set(this.keys.socket(playerId), this.node, 'EX', SOCKET_TTL_S, 'GET');
    pipe.get(this.keys.seat(playerId));
    const replies = ((await pipe.exec()) ?? []) as [[unknown, number], [unknown, string | null], [unknown, string | null]];
    const [[, order], [, previous], [, gameId]] = replies;
    if (!gameId) return { previous, game: null, order };
    const owner = await this.redis.cmd.get(this.keys.owner(gameId));
    return { previous, game: owner ? { id: gameId, owner } : null, order };
  }

  /** The player's socket here closed (a newer one elsewhere is left alone). */
  async socketClosed(playerId: string): Promise<void> {
    await this.redis.cmd.eval(DELETE_IF, 1, this.keys.socket(playerId), this.node);
  }

  /** Gives the matchmaker role up if this node holds it. */
  async releaseMatchmaker(): Promise<void> {
    await this.redis.cmd.eval(DELETE_IF, 1, this.keys.matchmaker, this.node);
  }
}
