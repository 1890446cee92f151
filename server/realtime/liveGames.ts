/**
 * The site's list of live games, followed by sockets (`watchLiveGames`; docs/protocol.md, "Live
 * games"), and the spectator count of each watched game. Once a second the site's view (this
 * node's games alone, or every node's through Redis: server/cluster/liveGames.ts) is shown here:
 * the list's followers get what changed, one publish to their topic however many they are, and
 * a game whose spectator count changed tells its spectators and its players.
 */
import type { LiveGameSummary, ServerMessage } from '../../machines/protocol/messages';
import { listChange } from '../../machines/game/liveList';
import { isNoChange } from '../../machines/protocol/listChange';
import type { TemplatedApp } from '../uws';
import type { WS } from './hub';

const TOPIC = 'live-games';

/** The live games of the site as one reading found them. */
export interface SiteLiveView {
  /** the listed games, in the list's order */
  games: LiveGameSummary[];
  /** spectators per watched game, on every node */
  spectators: ReadonlyMap<string, number>;
}

/** Where a game's spectator count goes: its spectators here, and (played here) its players. */
export interface CrowdSink {
  toSpectators(gameId: string, msg: ServerMessage): void;
  toPlayers(gameId: string, msg: ServerMessage): void;
}

export class LiveGamesFeed {
  private list: LiveGameSummary[] = [];
  private counts: ReadonlyMap<string, number> = new Map();

  constructor(
    private readonly app: TemplatedApp,
    private readonly crowd: CrowdSink,
  ) {}

  /** watchLiveGames: the list now; what changes follows. */
  watch(ws: WS): void {
    ws.subscribe(TOPIC);
    send(ws, { type: 'liveGames', games: this.list });
  }

  /** unwatchLiveGames (and a closed socket, which uWS takes off its topics itself). */
  unwatch(ws: WS): void {
    ws.unsubscribe(TOPIC);
  }

  /** The spectators of game `gameId` on the whole site, as last read. */
  spectatorsOf(gameId: string): number {
    return this.counts.get(gameId) ?? 0;
  }

  /** The socket is told game `gameId`'s spectators, when it has any. */
  tellSpectators(ws: WS, gameId: string): void {
    const count = this.spectatorsOf(gameId);
    if (count > 0) send(ws, { type: 'spectators', gameId, count });
  }

  /** A new reading of the site's live games. */
  show(view: SiteLiveView): void {
    const change = listChange(this.list, view.games);
    this.list = view.games;
    if (!isNoChange(change) && this.app.numSubscribers(TOPIC) > 0) {
      this.app.publish(TOPIC, JSON.stringify({ type: 'liveGamesChanged', ...change } satisfies ServerMessage), false);
    }
    for (const [gameId, count] of view.spectators) if (this.counts.get(gameId) !== count) this.tellCount(gameId, count);
    for (const gameId of this.counts.keys()) if (!view.spectators.has(gameId)) this.tellCount(gameId, 0);
    this.counts = view.spectators;
  }

  private tellCount(gameId: string, count: number): void {
    const msg: ServerMessage = { type: 'spectators', gameId, count };
    this.crowd.toSpectators(gameId, msg);
    this.crowd.toPlayers(gameId, msg);
  }
}

function send(ws: WS, msg: ServerMessage): void {
  if (!ws.getUserData().closing) ws.send(JSON.stringify(msg), false);
}
