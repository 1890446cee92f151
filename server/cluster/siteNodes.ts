/**
 * The site's nodes as Redis holds them, read in one round trip: every node that may still own
 * games, whether its lease holds, its count of players and the site protocol it states. Read at
 * each beat (membership.ts) and before a node joins (siteProtocol.ts).
 */
import type { Redis } from 'ioredis';
import type { ClusterKeys } from './keys';

export interface SiteNode {
  node: string;
  /** its lease holds (or Redis did not say it lapsed) */
  alive: boolean;
  /** its players with an open socket, as it last reported them */
  players: number;
  /** the site protocol it states; null for a release before site protocols (or a lapsed node) */
  protocol: string | null;
}

export async function readSiteNodes(cmd: Redis, keys: ClusterKeys): Promise<SiteNode[]> {
  const nodes = await cmd.smembers(keys.nodes);
  if (nodes.length === 0) return [];
  const pipe = cmd.pipeline();
  for (const n of nodes) pipe.exists(keys.alive(n));
  pipe.mget(...nodes.map((n) => keys.count(n)));
  pipe.mget(...nodes.map((n) => keys.protocol(n)));
  const replies = (await pipe.exec()) ?? [];
  const counts = (replies[nodes.length]?.[1] ?? []) as (string | null)[];
  const protocols = (replies[nodes.length + 1]?.[1] ?? []) as (string | null)[];
  return nodes.map((node, i) => ({ node, alive: replies[i]?.[1] !== 0, players: Number(counts[i]) || 0, protocol: protocols[i] ?? null }));
}
