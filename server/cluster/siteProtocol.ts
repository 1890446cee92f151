/**
 * What the nodes of one site must agree on, and the check that keeps a node of another release
 * out. The nodes read each other's messages (messages.ts), the lobby's records in Redis and the
 * game commands they forward; none of these is versioned message by message, so a node of one
 * release beside a node of another could strand a pairing or a player's command between them.
 * Each node therefore states the site protocol it speaks with its lease (`protocol:<node>`), and
 * a node refuses to join a site whose live nodes speak another (or none: a release older than
 * this check). docs/operations.md ("Upgrading a site") says how to upgrade.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { challengeSchema, clientPayloadSchemas, hookSchema } from '../../machines/protocol/schemas';
import type { ClusterKeys } from './keys';
import { busMessageSchema } from './messages';
import { readSiteNodes } from './siteNodes';

/**
 * The site protocol of this release. Raise it with any change to what nodes tell each other or
 * keep for each other (the fingerprint below); its test pins the fingerprint this number stands for.
 */
export const SITE_PROTOCOL = 3;

/** A digest of the shapes nodes exchange: the messages between nodes, the lobby's records and the client commands they forward. */
export function siteProtocolFingerprint(): string {
  const shapes = z.object({ bus: busMessageSchema, hook: hookSchema, challenge: challengeSchema, client: z.object(clientPayloadSchemas) });
  const json = JSON.stringify(z.toJSONSchema(shapes, { io: 'input', unrepresentable: 'any' }));
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/** Live nodes of the site (lease held) that speak another site protocol than `protocol`, with what they speak ('none' for a release before this check). */
export async function nodesOfOtherProtocols(cmd: Redis, keys: ClusterKeys, protocol: number): Promise<{ node: string; protocol: string }[]> {
  return (await readSiteNodes(cmd, keys)).filter((n) => n.alive && n.protocol !== String(protocol)).map((n) => ({ node: n.node, protocol: n.protocol ?? 'none' }));
}

/** Rejects, saying why and what to do, when live nodes of the site speak another site protocol. */
export async function refuseMixedSite(cmd: Redis, keys: ClusterKeys, protocol: number = SITE_PROTOCOL): Promise<void> {
  const others = await nodesOfOtherProtocols(cmd, keys, protocol);
  if (others.length === 0) return;
  const list = others.map((o) => `${o.node} (${o.protocol})`).join(', ');
  throw new Error(
    `this node speaks site protocol ${protocol} but live nodes of the site speak another: ${list}. A site runs one release at a time: stop every node (SIGTERM), then start the new release on all of them (docs/operations.md, "Upgrading a site")`,
  );
}
