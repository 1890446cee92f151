/** The real process (server/main.ts): graceful shutdown, persisted guest key, config errors. */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../server/nodeFlags';
import { TestClient, pairPlayers, playMoves } from './helpers';
import { startProcess } from './serverProcess';

describe('server process', () => {
  it('shuts down gracefully on SIGTERM: tells players, closes sockets, exits 0 within seconds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srv-data-'));
    const proc = await startProcess({ DATA_DIR: dataDir });
    const p = await pairPlayers(proc.url);
    await playMoves(p, ['e2e4', 'e7e5']);
    const t0 = Date.now();
    proc.child.kill('SIGTERM');
    const [notice, closed, code] = await Promise.all([p.white.next('serverShutdown'), p.white.closed, proc.exit]);
    expect(notice.message).toBeTruthy();
    expect(closed.code).toBe(1001);
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await p.black.closed).code).toBe(1001);
  });

  it('keeps the guest key in the data dir, so a guest keeps its id across restarts (SIGINT too)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srv-data-'));
    const first = await startProcess({ DATA_DIR: dataDir });
    const c = await TestClient.connect(first.url);
    expect(existsSync(join(dataDir, 'server-secret'))).toBe(true);
    first.child.kill('SIGINT');
    expect(await first.exit).toBe(0);
    await c.closed;
    const second = await startProcess({ DATA_DIR: dataDir });
    const again = await TestClient.connect(second.url, { playerId: c.playerId, secret: c.secret });
    expect(again.playerId).toBe(c.playerId);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  });

  it("warns, naming the flags, when node was started without the server's V8 flags, and is quiet when it was", async () => {
    const flagWarning = (lines: string[]) => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((j) => /without the server's flags/.test(j.msg));
    const bare = await startProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'srv-data-')) }, []);
    const withFlags = await startProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'srv-data-')) });
    for (const p of [bare, withFlags]) p.child.kill('SIGTERM');
    await Promise.all([bare.exit, withFlags.exit]);
    const warning = flagWarning(bare.lines);
    expect(warning?.level).toBe(40);
    expect(warning?.missing).toEqual([...SERVER_NODE_FLAGS]);
    expect(warning?.msg).toContain(`node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js`);
    expect(flagWarning(withFlags.lines)).toBeUndefined();
  });

  it('refuses bad configuration with a clear message', async () => {
    await expect(startProcess({ PORT: 'abc', CLOCK_SECONDS: '-5' })).rejects.toThrow(/PORT must be a whole number.*\n.*CLOCK_SECONDS/s);
  });

  it('stops with a message naming the binary when the native uWebSockets.js cannot load, rather than fall back', async () => {
    // uWebSockets.js's binary fails to load, as on a platform or Node version the build has none for
    // (the loader of .node files replaced through require.extensions, Node's documented, if deprecated, hook)
    const preload = join(mkdtempSync(join(tmpdir(), 'no-uws-')), 'no-uws.cjs');
    writeFileSync(
      preload,
      [
        'const exts = require.extensions;',
        "const load = exts['.node'];",
        "exts['.node'] = (m, file) => { if (/uws_[^/]*\\.node$/.test(file)) throw new Error('no binary here'); return load(m, file); };",
      ].join('\n'),
    );
    const started = startProcess({}, [...SERVER_NODE_FLAGS, '--require', preload]);
    await expect(started).rejects.toThrow(/server exited with 1: Cannot load the native uWebSockets\.js binary .*uws_linux_x64_\d+\.node.*no binary here.*refuses to start/s);
  });
});
