/**
 * The site's list of live games across its nodes (docs/operations.md, "Several nodes on Redis"):
 * at each beat every node writes its own best-rated games and its spectators per watched game
 * to `live-games:<node>` (expiring with its lease, so a dead node's games leave the list), and
 * reads every live node's: the merged list (the best-rated of them all) and the summed counts
 * are what its sockets see. Bounded: each node writes at most LIVE_GAMES_LISTED games and
 * SPECTATED_MAX counts, whatever the number of games it plays.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { liveGameSummarySchema } from '../../machines/protocol/schemas';
import type { LiveGameSummary } from '../../machines/protocol/messages';
import { topGames } from '../../machines/game/liveList';
import type { SiteLiveView } from '../realtime/liveGames';
import type { ClusterKeys } from './keys';
import { LEASE_MS } from './membership';
import type { RedisLink } from './redis';

/** How many watched games' spectator counts a node shares at most (the most watched). */
export const SPECTATED_MAX = 1_000;

const entrySchema = z.object({ g: z.array(liveGameSummarySchema), w: z.array(z.tuple([z.string(), z.number().int().min(0)])) });
type Entry = z.infer<typeof entrySchema>;

/** This node's part: its listed games and its spectators per game (of any node's games). */
export interface NodeLiveView {
  games: LiveGameSummary[];
  spectators: ReadonlyMap<string, number>;
}

/** Every node's entries merged: the best-rated games of all, each with its spectators on all nodes. */
export function mergeViews(entries: readonly Entry[]): SiteLiveView {
  const spectators = new Map<string, number>();
  for (const e of entries) for (const [gameId, n] of e.w) spectators.set(gameId, (spectators.get(gameId) ?? 0) + n);
  // a game taken over between two readings may be listed by two nodes: the further one is the newer
  const games = new Map<string, LiveGameSummary>();
  for (const e of entries) {
    for (const g of e.g) {
      const seen = games.get(g.gameId);
      if (!seen || g.moves > seen.moves) games.set(g.gameId, g);
    }
  }
  const withCounts = [...games.values()].map((g) => ({ ...g, spectators: spectators.get(g.gameId) ?? 0 }));
  return { games: topGames(withCounts), spectators };
}

export class SiteLiveGames {
  private busy = false;

  constructor(
    private readonly node: string,
    private readonly redis: RedisLink,
    private readonly keys: ClusterKeys,
    private readonly local: () => NodeLiveView,
    private readonly show: (view: SiteLiveView) => void,
    private readonly log: Logger,
  ) {}

  /** One beat: this node's part written, every live node's read and shown. */
  async beat(live: ReadonlySet<string>): Promise<void> {
    if (this.busy) return; // Redis is slow: the next beat reads again
    this.busy = true;
    try {
      const mine = this.local();
      const entry: Entry = { g: mine.games, w: [...mine.spectators] };
      const nodes = [...new Set([...live, this.node])];
      const replies = await this.redis.cmd
        .pipeline()
        .set(this.keys.liveGames(this.node), JSON.stringify(entry), 'PX', LEASE_MS)
        .mget(...nodes.map((n) => this.keys.liveGames(n)))
        .exec();
      const texts = (replies?.[1]?.[1] ?? []) as (string | null)[];
      this.show(mergeViews(texts.flatMap((t) => readEntry(t) ?? [])));
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not read the site’s live games');
    } finally {
      this.busy = false;
    }
  }
}

function readEntry(text: string | null): Entry | null {
  if (!text) return null;
  try {
    const parsed = entrySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
