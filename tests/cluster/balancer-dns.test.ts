/**
 * deploy/haproxy.cfg names its nodes (node1:3000 in the compose file) and looks the names up
 * again while it runs: a node that comes back with another address, as a restarted container
 * does, gets players again without HAProxy being touched. Here a small DNS server of the test's
 * stands in for the machine's resolver (the config's resolvers section is pointed at it; the rest
 * is the repository's file), and the node comes back on 127.0.0.2.
 */
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killProcess, startProcess, type Proc } from '../server/serverProcess';
import { HAPROXY_CONFIG, freePort, spawnBalancer } from './balancedSite';

const NAME = 'node1.chess.test';

/** A DNS server for one name (A records only): answers with `address`, or NXDOMAIN for other names. */
class NameServer {
  address = '127.0.0.1';
  private readonly socket: Socket = createSocket('udp4');

  async start(): Promise<number> {
    this.socket.on('message', (query, peer) => this.socket.send(this.answer(query), peer.port, peer.address));
    await new Promise<void>((r) => this.socket.bind(0, '127.0.0.1', r));
    return this.socket.address().port;
  }

  stop(): void {
    this.socket.close();
  }

  /** The answer to a standard query of one question. */
  private answer(query: Buffer): Buffer {
    let end = 12;
    const labels: string[] = [];
    while (query[end] !== 0) {
      labels.push(query.subarray(end + 1, end + 1 + query[end]).toString());
      end += query[end] + 1;
    }
    const question = query.subarray(12, end + 5); // the name, its 0, its type and class
    const type = query.readUInt16BE(end + 1);
    const known = labels.join('.').toLowerCase() === NAME;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the query's id
    header.writeUInt16BE(known ? 0x8400 : 0x8403, 2); // an authoritative answer; NXDOMAIN for other names
    header.writeUInt16BE(1, 4);
    if (!known || type !== 1) return Buffer.concat([header, question]); // no AAAA record: no answer
    header.writeUInt16BE(1, 6);
    const record = Buffer.alloc(16);
    record.writeUInt16BE(0xc00c, 0); // the name, as in the question
    record.writeUInt16BE(1, 2); // A
    record.writeUInt16BE(1, 4); // IN
    record.writeUInt32BE(1, 6); // a TTL of one second
    record.writeUInt16BE(4, 10);
    this.address.split('.').forEach((n, i) => (record[12 + i] = Number(n)));
    return Buffer.concat([header, question, record]);
  }
}

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('HAProxy in front of a node that comes back with another address', () => {
  it('looks the node up again and sends it requests at its new address', async () => {
    const dns = new NameServer();
    const dnsPort = await dns.start();
    cleanups.push(() => dns.stop());

    // the repository's config, its resolvers pointed at the test's name server
    const config = readFileSync(HAPROXY_CONFIG, 'utf8');
    expect(config).toContain('    parse-resolv-conf\n');
    const dir = mkdtempSync(join(tmpdir(), 'balancer-dns-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const configFile = join(dir, 'haproxy.cfg');
    writeFileSync(configFile, config.replace('    parse-resolv-conf\n', `    nameserver test 127.0.0.1:${dnsPort}\n`));

    const port = await freePort();
    const node = async (host: string): Promise<Proc> => {
      const p = await startProcess({ HOST: host, PORT: String(port), DATA_DIR: join(dir, host) });
      cleanups.push(() => killProcess(p));
      return p;
    };
    const first = await node('127.0.0.1');

    const sitePort = await freePort();
    const log = { text: '' };
    const balancer = spawnBalancer(configFile, { SITE_BIND: `127.0.0.1:${sitePort}`, NODE1: `${NAME}:${port}`, NODE2: `node2.chess.test:${port}`, NODE3: `node3.chess.test:${port}` }, log);
    cleanups.push(() => void balancer.kill('SIGKILL'));
    const site = `http://127.0.0.1:${sitePort}`;
    const served = async () => (await fetch(site + '/healthz').catch(() => null))?.status === 200;
    // waits until requests through the balancer are `served` or not; a failure shows HAProxy's log
    const servedBecomes = async (want: boolean, what: string) => {
      try {
        await expect.poll(served, { timeout: 15_000, interval: 100, message: what }).toBe(want);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${log.text}`);
      }
    };

    await servedBecomes(true, 'the first address serving through the balancer');
    // the node goes and comes back on another address, which the name now resolves to
    await killProcess(first);
    await servedBecomes(false, 'the balancer noticing the node is gone');
    dns.address = '127.0.0.2';
    const second = await node('127.0.0.2');
    expect(second.port).toBe(port);
    const began = performance.now();
    await servedBecomes(true, 'the new address serving through the balancer');
    // within the resolver's hold (2 s) and two health checks (500 ms apart), with room for a loaded machine
    expect(performance.now() - began).toBeLessThan(10_000);
    // only node1's name resolves and its first process is gone: the node at the new address served it
    expect(log.text).toContain('nodes/node1');
  }, 60_000);
});
