/**
 * docs/operations.md describes what exists: the server's /metrics, the server's settings, and
 * the k6 scripts' settings and metrics. These checks fail when the code and the document drift.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app';
import { testSite } from '../cluster/site';
import { ROOT } from '../support/root';

// Code blocks blanked out, so a shell comment is not taken for a heading.
const DOC = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8').replace(/```[\s\S]*?```/g, (m) => m.replace(/[^\n]/g, ' '));

/** The part of the document from a heading to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = DOC.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(heading)![0].length;
  const rest = DOC.slice(start + heading.length);
  const next = rest.search(new RegExp(`\\n#{1,${level}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

/** Names in backticks at the start of table cells: | `NAME` | or | `A`, `B` | */
function tableNames(text: string, pattern: RegExp): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) continue;
    const firstCell = line.split('|')[1] ?? '';
    for (const m of firstCell.matchAll(/`([^`]+)`/g)) if (pattern.test(m[1])) names.add(m[1].replace(/\{.*$/, ''));
  }
  return names;
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('docs/operations.md matches the server', () => {
  let server: RunningServer;
  // a node of a site of several nodes exposes every metric (the cluster's as well)
  const site = testSite();
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', staticDir: join(ROOT, 'node_modules/.cache/no-client'), cluster: site.options, serverSecret: 'x'.repeat(32) });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await site.destroy();
  });

  it('lists only chess_* metrics GET /metrics exposes (and reports new undocumented ones)', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const exposed = new Set([...text.matchAll(/^# TYPE (chess_\w+) /gm)].map((m) => m[1]));
    expect(exposed.size).toBeGreaterThan(5);
    const documented = tableNames(section('### Metrics (`GET /metrics`)'), /^chess_/);
    expect([...documented].filter((n) => !exposed.has(n)), 'documented but not exposed').toEqual([]);
    // A metric the server adds is reported rather than failed (it must not stop the whole suite).
    const undocumented = [...exposed].filter((n) => !documented.has(n));
    if (undocumented.length > 0) console.warn(`docs/operations.md: metrics not documented yet: ${undocumented.join(', ')}`);
    expect(documented.size).toBeGreaterThan(5);
    // and the Node/process metrics the document points at for alerts exist
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  it('its settings table names only real server/config settings (and reports missing ones)', () => {
    const src = readFileSync(join(ROOT, 'server/config/index.ts'), 'utf8');
    const schema = src.slice(src.indexOf('const envSchema'), src.indexOf('export interface ServerConfig'));
    const read = new Set([...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
    expect(read.size).toBeGreaterThan(10);
    const table = section('### Configuration');
    const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    // Each name in the table's first column is a real server/config setting.
    for (const name of tableNames(table, /^[A-Z][A-Z0-9_]+$/)) expect(read, `${name} is a server setting`).toContain(name);
    const undocumented = [...read].filter((n) => !documented.has(n));
    if (undocumented.length > 0) console.warn(`docs/operations.md: server settings not documented yet: ${undocumented.join(', ')}`);
  });
});

describe('docs/operations.md matches the k6 scripts', () => {
  const k6Files = [...filesUnder('loadtest/k6/lib'), ...filesUnder('loadtest/k6/scenarios')];
  const k6Source = k6Files.map((f) => readFileSync(f, 'utf8')).join('\n');

  it('documents every setting the scripts read, and none they do not', () => {
    const read = new Set([...k6Source.matchAll(/env(?:Int|Float|String|Duration|TimeControl)\('([A-Z0-9_]+)'/g)].map((m) => m[1]));
    expect(read.size).toBeGreaterThan(20);
    const table = section('### Running');
    const documented = tableNames(table, /^[A-Z][A-Z0-9_]+$/);
    expect([...read].filter((n) => !documented.has(n)), 'read but not documented').toEqual([]);
    expect([...documented].filter((n) => !read.has(n)), 'documented but not read').toEqual([]);
  });

  it('documents every custom metric the scripts record', () => {
    const defined = new Set([...k6Source.matchAll(/new (?:Trend|Counter|Rate|Gauge)\('([a-z_]+)'/g)].map((m) => m[1]));
    expect(defined.size).toBeGreaterThan(10);
    const documented = tableNames(section('### Metrics and thresholds'), /^[a-z_]+$/);
    for (const name of defined) expect(documented, `${name} documented`).toContain(name);
  });
});
