/**
 * A site runs one release at a time: a node states the site protocol it speaks with its lease,
 * and a node refuses to join a site whose live nodes speak another (or none: a release older than
 * the check), with a start error that says what to do. Stopping every node and starting the new
 * release, the upgrade docs/operations.md describes, is not refused. Real Redis and PostgreSQL,
 * real servers.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterKeys } from '../../server/cluster/keys';
import { LEASE_MS } from '../../server/cluster/membership';
import { nodesOfOtherProtocols, SITE_PROTOCOL } from '../../server/cluster/siteProtocol';
import { startTestServer } from '../server/helpers';
import { nodeName, REDIS_URL, testSite, type TestSite } from './site';
import type { RunningServer } from '../../server/app';

let site: TestSite | undefined;
let redis: Redis | undefined;
const servers: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  redis?.disconnect();
  await site?.destroy();
});

function newSite(): { keys: ClusterKeys; cmd: Redis } {
  site = testSite();
  redis = new Redis(REDIS_URL);
  return { keys: new ClusterKeys(site.options.prefix), cmd: redis };
}

const startNode = async () => {
  const server = await startTestServer({ cluster: site!.options, serverSecret: 'x'.repeat(32) });
  servers.push(server);
  return server;
};

/** A live node of the site as another release leaves it in Redis: its lease, and the protocol it states (none before the check existed). */
async function liveNodeOfOtherRelease(cmd: Redis, keys: ClusterKeys, node: string, protocol?: string): Promise<void> {
  await cmd.set(keys.alive(node), node, 'PX', LEASE_MS);
  await cmd.sadd(keys.nodes, node);
  if (protocol !== undefined) await cmd.set(keys.protocol(node), protocol, 'PX', LEASE_MS);
}

describe('a site of one release', () => {
  it('refuses to start a node beside a live node of a release before site protocols, naming it and the way to upgrade', async () => {
    const { keys, cmd } = newSite();
    await liveNodeOfOtherRelease(cmd, keys, 'nold');
    await expect(startNode()).rejects.toThrow(new RegExp(`site protocol ${SITE_PROTOCOL} but live nodes of the site speak another: nold \\(none\\)\\. A site runs one release at a time: stop every node`));
  });

  it('refuses a node beside a live node that speaks another protocol, and joins once that node is a live one of its own', async () => {
    const { keys, cmd } = newSite();
    await liveNodeOfOtherRelease(cmd, keys, 'nnext', String(SITE_PROTOCOL + 1));
    await expect(startNode()).rejects.toThrow(`nnext (${SITE_PROTOCOL + 1})`);
    await cmd.set(keys.protocol('nnext'), String(SITE_PROTOCOL), 'PX', LEASE_MS);
    const server = await startNode();
    expect((await fetch(server.url + '/healthz')).status).toBe(200);
  });

  it('a running node states its protocol, so a node of the next release is refused until every node has stopped', async () => {
    const { keys, cmd } = newSite();
    const server = await startNode();
    const name = await nodeName(server);
    expect(await nodesOfOtherProtocols(cmd, keys, SITE_PROTOCOL)).toEqual([]);
    expect(await nodesOfOtherProtocols(cmd, keys, SITE_PROTOCOL + 1)).toEqual([{ node: name, protocol: String(SITE_PROTOCOL) }]);
    // SIGTERM-style: the node gives its lease up, and the next release may start
    await servers.splice(0)[0]!.close();
    expect(await nodesOfOtherProtocols(cmd, keys, SITE_PROTOCOL + 1)).toEqual([]);
  });
});
