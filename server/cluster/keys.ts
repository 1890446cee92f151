/**
 * The names of everything the nodes of one site share in Redis, under one prefix (REDIS_PREFIX),
 * so that several sites, or several test runs, can share one Redis without meeting.
 * docs/operations.md ("Several nodes on Redis") describes what each one holds.
 */
export class ClusterKeys {
  constructor(private readonly prefix: string) {}

  /** a node's sign of life (expires unless renewed): `<node>` while it may play its games */
  alive(node: string): string {
    return `${this.prefix}:alive:${node}`;
  }
  /** every node that may still own games (a dead one leaves once its games are taken over) */
  get nodes(): string {
    return `${this.prefix}:nodes`;
  }
  /** hash node -> wall-clock ms of its last renewal (how long a dead node was away) */
  get seen(): string {
    return `${this.prefix}:seen`;
  }
  /** the site protocol a node speaks (server/cluster/siteProtocol.ts; expires with the node) */
  protocol(node: string): string {
    return `${this.prefix}:protocol:${node}`;
  }
  /** a node's count of players with an open socket (expires with the node) */
  count(node: string): string {
    return `${this.prefix}:count:${node}`;
  }
  /** the games a node owns */
  owned(node: string): string {
    return `${this.prefix}:owned:${node}`;
  }
  /** the node that owns (plays) a live game */
  owner(gameId: string): string {
    return `${this.prefix}:owner:${gameId}`;
  }
  /**
   * the node that played a game which ended a short while ago: its end is kept there for players
   * who come back late (expires with it)
   */
  played(gameId: string): string {
    return `${this.prefix}:played:${gameId}`;
  }
  /** the live game a player has a seat in */
  seat(playerId: string): string {
    return `${this.prefix}:seat:${playerId}`;
  }
  /** the node a player's socket is on */
  socket(playerId: string): string {
    return `${this.prefix}:socket:${playerId}`;
  }
  /**
   * a counter: every socket opened on the site takes the next number, so a node told to close a
   * player's older socket can tell it from a newer one
   */
  get socketOrder(): string {
    return `${this.prefix}:socket-order`;
  }
  /**
   * set by the first node to renew its lease on a Redis without it: a Redis that no longer has
   * it lost every key (it restarted empty), and the nodes look for games nobody owns any more
   */
  get epoch(): string {
    return `${this.prefix}:epoch`;
  }
  /** the node that runs the matchmaking pool (expires unless renewed) */
  get matchmaker(): string {
    return `${this.prefix}:matchmaker`;
  }
  /**
   * a counter: the matchmaker role's term, taken up by one each time a node takes the role; a
   * pairing commits only under the term it was made in (server/cluster/pairingCommit.ts)
   */
  get matchmakerTerm(): string {
    return `${this.prefix}:matchmaker-term`;
  }
  /** a node's live games as the site's list shows them, and its spectators per game (expires with the node) */
  liveGames(node: string): string {
    return `${this.prefix}:live-games:${node}`;
  }
  /** a node's channel: what other nodes tell it (server/cluster/messages.ts) */
  channel(node: string): string {
    return `${this.prefix}:node:${node}`;
  }
  /** the lobby's records of one kind (hooks, challenges): a hash of JSON by id (server/cluster/lobbyRecords.ts) */
  records(kind: 'hooks' | 'challenges'): string {
    return `${this.prefix}:${kind}`;
  }
  /** when each such record's creator was last seen, and on which node */
  recordsSeen(kind: 'hooks' | 'challenges'): string {
    return `${this.prefix}:${kind}:seen`;
  }
  /** the channel every node follows: the lobby's hooks or a challenge changed */
  get lobby(): string {
    return `${this.prefix}:lobby`;
  }
  /** a token bucket of a rate limit shared by every node */
  bucket(name: string, key: string): string {
    return `${this.prefix}:bucket:${name}:${key}`;
  }
}
