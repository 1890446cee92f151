/**
 * Where the site's list of live games comes from: this node's games once a second on one node,
 * every node's at each cluster beat with several (server/cluster/liveGames.ts).
 */
import type { Heartbeat } from '../heartbeat';
import type { GameManager } from '../game/games';
import { listedGames } from '../game/liveSummaries';
import type { ClusterNode } from '../cluster/node';
import { SPECTATED_MAX, type NodeLiveView } from '../cluster/liveGames';
import type { TemplatedApp } from '../uws';
import type { Hub } from './hub';
import { LiveGamesFeed } from './liveGames';
import type { Spectators } from './spectators';

/** How often one node reads its live games again. */
export const LIVE_GAMES_REFRESH_MS = 1_000;

export function listLiveGames(app: TemplatedApp, hub: Hub, games: GameManager, spectators: Spectators, heartbeat: Heartbeat, cluster: ClusterNode | null): LiveGamesFeed {
  const feed = new LiveGamesFeed(app, {
    toSpectators: (gameId, msg) => spectators.tell(gameId, msg),
    // a game played here tells its players, wherever their sockets are
    toPlayers: (gameId, msg) => {
      const game = games.games.get(gameId);
      if (!game || game.ended) return;
      hub.sendTo(game.sessions.white, msg);
      hub.sendTo(game.sessions.black, msg);
    },
  });
  const local = (): NodeLiveView => {
    const counts = spectators.liveCounts(SPECTATED_MAX);
    return { games: listedGames(games.games.values(), (id) => counts.get(id) ?? 0), spectators: counts };
  };
  if (cluster) {
    cluster.listLiveGames(local, (view) => feed.show(view));
    return feed;
  }
  let last = Number.NEGATIVE_INFINITY;
  heartbeat.onBeat((now) => {
    if (now - last < LIVE_GAMES_REFRESH_MS) return;
    last = now;
    feed.show(local());
  });
  return feed;
}
