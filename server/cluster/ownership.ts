/**
 * Who plays which game, and where each player's socket is, in Redis. A game has one owner node
 * (`owner:<game>`, and the node's `owned:<node>` set); a player has a seat (`seat:<player>`,
 * their live game) and a socket node (`socket:<player>`). A dead node's games are claimed one by
 * one with a script that checks, in one step, that its lease is really gone and that it still
 * owns the game, so two nodes can never both take one game, and a node whose lease came back
 * keeps the games nobody took yet.
 */
import type { RedisLink } from './redis';
import type { ClusterKeys } from './keys';

/** Claims a game of a dead node: 1 taken, 0 not (owned by someone else, or the node is alive). */
const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
if redis.call('GET', KEYS[2]) ~= ARGV[1] then redis.call('SREM', KEYS[3], ARGV[3]) return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SMOVE', KEYS[3], KEYS[4], ARGV[3])
return 1`;

/** Deletes a key only while it still holds the given value. */
const DELETE_IF = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** How long a seat is kept without its game ending (a game lasts at most a few hours). */
const SEAT_TTL_S = 6 * 3600;
/** How long a socket's node is kept (renewed while the node lives: a socket lasts hours at most). */
const SOCKET_TTL_S = 24 * 3600;

export type Claim = 'taken' | 'not_ours' | 'owner_alive';

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
    await pipe.exec();
  }

  /** A game ended here: no owner, no seats (a seat already in a newer game is left alone). */
  async ended(gameId: string, players: string[]): Promise<void> {
    const pipe = this.redis.cmd.pipeline();
    pipe.eval(DELETE_IF, 1, this.keys.owner(gameId), this.node);
    pipe.srem(this.keys.owned(this.node), gameId);
    for (const p of players) pipe.eval(DELETE_IF, 1, this.keys.seat(p), gameId);
    await pipe.exec();
  }

  /** The games of node `dead`, to claim one by one. */
  gamesOf(dead: string): Promise<string[]> {
    return this.redis.cmd.smembers(this.keys.owned(dead));
  }

  async claim(dead: string, gameId: string): Promise<Claim> {
    const r = (await this.redis.cmd.eval(
      CLAIM,
      4,
      this.keys.alive(dead),
      this.keys.owner(gameId),
      this.keys.owned(dead),
      this.keys.owned(this.node),
      dead,
      this.node,
      gameId,
    )) as number;
    return r === 1 ? 'taken' : r === -1 ? 'owner_alive' : 'not_ours';
  }

  /** When node `dead` was last seen (wall-clock ms), or null. */
  async lastSeen(dead: string): Promise<number | null> {
    const v = await this.redis.cmd.hget(this.keys.seen, dead);
    return v === null ? null : Number(v);
  }

  /** A dead node with no games left is forgotten. */
  async forgetIfEmpty(dead: string): Promise<boolean> {
    if ((await this.redis.cmd.scard(this.keys.owned(dead))) > 0) return false;
    await this.redis.cmd.multi().srem(this.keys.nodes, dead).hdel(this.keys.seen, dead).del(this.keys.count(dead)).exec();
    return true;
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

  /** The owner of each game (null: none). */
  owners(gameIds: string[]): Promise<(string | null)[]> {
    return this.redis.cmd.mget(...gameIds.map((g) => this.keys.owner(g)));
  }

  /**
   * A socket of `playerId` opened here: records it and returns the node of the player's previous
   * socket (to be closed there) and the live game they have a seat in, with its owner.
   */
  async socketOpened(playerId: string): Promise<{ previous: string | null; game: { id: string; owner: string } | null }> {
    const pipe = this.redis.cmd.pipeline();
    pipe.set(this.keys.socket(playerId), this.node, 'EX', SOCKET_TTL_S, 'GET');
    pipe.get(this.keys.seat(playerId));
    const [[, previous], [, gameId]] = ((await pipe.exec()) ?? []) as [[unknown, string | null], [unknown, string | null]];
    if (!gameId) return { previous, game: null };
    const owner = await this.redis.cmd.get(this.keys.owner(gameId));
    return { previous, game: owner ? { id: gameId, owner } : null };
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
