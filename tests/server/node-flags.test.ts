/**
 * The server's V8 flags (server/nodeFlags.ts) are given wherever the server is started, and this
 * node accepts them. The Dockerfile's CMD is checked in tests/loadtest/dockerfile.test.ts; the
 * e2e harness and the load bench take the list itself.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, mallocEnvAssignments } from '../../server/nodeFlags';
import { ROOT } from '../support/root';

describe("the server's node flags", () => {
  it('are on the command line of npm start, before the entry point', () => {
    const start: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;
    expect(start).toContain(`node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js`);
  });

  it("come with the allocator settings in npm start's environment, which the exec'd node inherits", () => {
    const start: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;
    expect(start).toContain(`${mallocEnvAssignments()} exec node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js`);
    const r = spawnSync('sh', ['-c', `${mallocEnvAssignments()} exec node -e "console.log(process.env.MALLOC_ARENA_MAX)"`], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('2');
  });

  it('are known to this node: it starts with them and says nothing', () => {
    const r = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('an unknown flag is not accepted silently (what the test above would catch after a node upgrade)', () => {
    const r = spawnSync(process.execPath, ['--no-such-v8-flag-at-all', '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(r.status !== 0 || r.stderr !== '').toBe(true);
  });
});
