/**
 * deploy/compose.yaml without a container engine: what can be checked here is checked with the
 * real parts. A node started with the compose file's environment over the image's (the
 * Dockerfile's ENV) passes the server's own configuration check as a node of one site; the
 * balancer's environment makes deploy/haproxy.cfg valid for the real HAProxy, even before the
 * nodes' names resolve; the services wait for what they need and stop in time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, SERVER_DEFAULTS } from '../../server/config';
import { HAPROXY_CONFIG } from './balancedSite';
import { ROOT } from '../support/root';

const DEPLOY = join(ROOT, 'deploy');

interface Service {
  build?: string;
  image?: string;
  depends_on?: Record<string, { condition: string }> | string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  command?: string[];
  ports?: string[];
  volumes?: string[];
  init?: boolean;
  stop_grace_period?: string;
}

const compose = parse(readFileSync(join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const NODES = ['node1', 'node2', 'node3'];

/** What an operator sets before `docker compose up` (the file refuses to start without the secrets). */
const OPERATOR_ENV: Record<string, string> = {
  SERVER_SECRET: 'a-site-secret-of-at-least-32-characters-long',
  JWT_PRIVATE_KEY: JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI' }),
};

/** Compose's variable substitution: ${NAME}, ${NAME:-default}, ${NAME:?error}. */
function substitute(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (op === '-') return arg ?? '';
    if (op === '?') throw new Error(`${name}: ${arg}`);
    return '';
  });
}

function environmentOf(service: Service, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, substitute(String(v), env)]));
}

/** The image's own environment: the ENV lines of the Dockerfile's last stage. */
function imageEnvironment(): Record<string, string> {
  const stages = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ').split(/^FROM /m);
  const out: Record<string, string> = {};
  for (const line of stages[stages.length - 1].split('\n')) {
    const env = /^ENV\s+(.*)$/.exec(line.trim());
    if (!env) continue;
    for (const [, k, v] of env[1].matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) out[k] = v;
  }
  return out;
}

function dependencies(service: Service): Record<string, string> {
  const d = service.depends_on ?? {};
  return Array.isArray(d) ? Object.fromEntries(d.map((n) => [n, 'service_started'])) : Object.fromEntries(Object.entries(d).map(([n, c]) => [n, c.condition]));
}

describe('deploy/compose.yaml', () => {
  it('starts Redis, PostgreSQL, three nodes built from the repository and the balancer', () => {
    expect(Object.keys(services).sort()).toEqual(['balancer', 'node1', 'node2', 'node3', 'postgres', 'redis']);
    for (const n of NODES) {
      expect(existsSync(join(resolve(DEPLOY, services[n].build ?? ''), 'Dockerfile')), n).toBe(true);
      expect(dependencies(services[n])).toEqual({ redis: 'service_healthy', postgres: 'service_healthy' });
    }
    expect(services.redis.healthcheck?.test).toContain('ping');
    // Redis keeps its data through a restart (its append-only file, on a volume)
    expect(services.redis.command?.join(' ')).toMatch(/--appendonly yes/);
    expect(services.redis.volumes).toContain('redis-data:/data');
    expect(services.postgres.healthcheck?.test).toContain('pg_isready');
    expect(Object.keys(dependencies(services.balancer)).sort()).toEqual(NODES);
  });

  it('refuses to start a node without the site secrets the nodes must share', () => {
    expect(() => environmentOf(services.node1, {})).toThrow(/SERVER_SECRET/);
    expect(() => environmentOf(services.node1, { SERVER_SECRET: OPERATOR_ENV.SERVER_SECRET })).toThrow(/JWT_PRIVATE_KEY/);
  });

  it("gives each node a configuration the server accepts as one node of a site on the compose file's Redis and PostgreSQL", () => {
    for (const n of NODES) {
      const env = { ...imageEnvironment(), ...environmentOf(services[n], OPERATOR_ENV) };
      const config = loadConfig(env);
      expect(config.redis?.url).toBe('redis://redis:6379');
      expect(new URL(config.databaseUrl ?? '').host).toBe('postgres:5432');
      expect(new URL(config.databaseUrl ?? '').password).toBe(substitute(services.postgres.environment?.POSTGRES_PASSWORD ?? '', OPERATOR_ENV));
      expect(config.host).toBe('0.0.0.0');
      expect(config.nodeEnv).toBe('production');
      // the players' addresses come from the balancer, on the compose network
      expect(config.trustProxy.length).toBeGreaterThan(0);
      // every node the same: guest identities and tokens made on one hold on the others
      expect(config.serverSecret).toBe(OPERATOR_ENV.SERVER_SECRET);
    }
  });

  it('stops each node only after its drain: SIGTERM first (init forwards it), then the grace period', () => {
    for (const n of NODES) {
      expect(services[n].init).toBe(true);
      const grace = /^(\d+)s$/.exec(services[n].stop_grace_period ?? '');
      expect(Number(grace?.[1] ?? 0) * 1000).toBeGreaterThan(SERVER_DEFAULTS.shutdownTimeoutMs);
    }
  });

  it("the balancer's environment makes deploy/haproxy.cfg valid for HAProxy, before the nodes' names resolve, and publishes its bind port", () => {
    const env = environmentOf(services.balancer, OPERATOR_ENV);
    expect(services.balancer.volumes).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(resolve(DEPLOY, 'haproxy.cfg')).toBe(HAPROXY_CONFIG);
    const check = spawnSync('haproxy', ['-c', '-f', HAPROXY_CONFIG], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const bindPort = env.SITE_BIND.split(':').pop();
    expect(services.balancer.ports?.some((p) => p.endsWith(`:${bindPort}`))).toBe(true);
    for (const [i, n] of NODES.entries()) expect(env[`NODE${i + 1}`]).toBe(`${n}:${imageEnvironment().PORT}`);
  });
});
