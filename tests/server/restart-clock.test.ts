/**
 * A restart's own start-up (compressing the static files, starting the AI's engine: seconds) is
 * charged to nobody: the clocks of the resumed games and the grace of their absent players run
 * again only once the server accepts sockets. The real server process, with the AI on and a
 * client build to compress, restarted on its data directory.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentState } from '../../machines/protocol/messages';
import { TestClient, pairPlayers, playMoves } from './helpers';
import { killProcess, startProcess, type Proc } from './serverProcess';
import { seeded } from '../../server/seeded';

/** Grace of an absent guest: shorter than the start-up, so a start-up that counts ends the game. */
const GRACE_SECONDS = 2;
/** What may be charged beyond the old server's last moments and the time since the new one listened (the moments between its resume of the games and its listening). */
const SLACK_MS = 250;

const procs: Proc[] = [];
afterEach(async () => {
  await Promise.all(procs.splice(0).map(killProcess));
});

/** A client build of about 3 MB of script to compress at start-up (seconds, as the real one). */
function clientBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'restart-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Chess</title><script src="/assets/app.js"></script>');
  const random = seeded(43);
  const words = Array.from({ length: 4000 }, (_, i) => `name${i.toString(36)}${Math.floor(random() * 1e6).toString(36)}`);
  const parts: string[] = [];
  for (let size = 0; size < 3_000_000; ) {
    const line = `const ${words[Math.floor(random() * words.length)]} = ${words[Math.floor(random() * words.length)]}(${Math.floor(random() * 1e9)});\n`;
    parts.push(line);
    size += line.length;
  }
  writeFileSync(join(dir, 'assets', 'app.js'), parts.join(''));
  return dir;
}

/** When the server logged that it listens (epoch ms, the log's time). */
function listeningAt(p: Proc): number {
  const line = p.lines.map((l) => JSON.parse(l) as { msg?: string; time?: number }).find((l) => l.msg === 'server listening');
  return line!.time!;
}

describe('a restart', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`after ${signal}, charges neither the clock nor the grace of the side to move for the server's start-up`, async () => {
      const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'restart-clock-')), STATIC_DIR: clientBuild(), AI_ENABLED: '1', GRACE_GUEST_SECONDS: String(GRACE_SECONDS) };
      const first = await startProcess(env);
      procs.push(first);
      const p = await pairPlayers(first.url);
      const moved = await playMoves(p, ['e2e4', 'e7e5']);
      const before = moved.at(-1)!.clocks as { white: number; black: number };
      const movedAt = Date.now();
      first.child.kill(signal);
      await first.exit;
      // white's clock ran until the old server stopped: at most this long
      const upAfterMove = Date.now() - movedAt;

      const second = await startProcess(env);
      procs.push(second);
      const listened = listeningAt(second);
      // black comes back first: from then on white's absence, on its turn, counts down its grace
      const black = await TestClient.connect(second.url, { playerId: p.black.playerId, secret: p.black.secret });
      black.send('rejoinGame', { gameId: p.gameId });
      await black.next('gameStart', () => true, 10_000);
      // white, to move, comes back within its grace counted from the server's listening
      const white = await TestClient.connect(second.url, { playerId: p.white.playerId, secret: p.white.secret });
      white.send('rejoinGame', { gameId: p.gameId });
      const start = await white.next('gameStart', () => true, 10_000);
      const answered = Date.now();
      const state = start.currentState as CurrentState;
      expect(state.moves.map((m) => m.from + m.to)).toEqual(['e2e4', 'e7e5']);
      // (a clock carries whole milliseconds)
      const charged = before.white - state.clocks!.white;
      expect(charged).toBeGreaterThan(-1);
      expect(charged).toBeLessThan(upAfterMove + (answered - listened) + SLACK_MS);

      // the log says how long the game was away: a time between nothing and all of the restart
      const resumed = second.lines.map((l) => JSON.parse(l) as { msg?: string; awayMs?: number }).find((l) => l.msg === 'game resumed');
      expect(resumed?.awayMs).toBeGreaterThanOrEqual(0);
      expect(resumed?.awayMs).toBeLessThanOrEqual(answered - movedAt);

      // each line names its part once (the AI's engine pool is a `sub` of the `ai` part)
      for (const line of [...first.lines, ...second.lines]) expect(line.match(/"part":/g)?.length ?? 0, line).toBeLessThanOrEqual(1);
      expect(second.lines.some((l) => l.includes('"part":"ai","sub":"engine-pool"'))).toBe(true);

      // the game goes on
      white.send('gameMove', { gameId: p.gameId, move: { from: 'g1', to: 'f3' } });
      expect((await black.next('gameMove')).move).toMatchObject({ from: 'g1', to: 'f3' });
    }, 120_000);
  }
});
