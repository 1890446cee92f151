/**
 * `npm run bench:analysis` — how deep the in-browser analysis (Stockfish 19 lite, single
 * thread, WASM, in a Web Worker) gets in 10 s in Debian's Chromium, next to the same engine
 * build run by Node on the same position for the same time (the peer: what the engine itself
 * reaches here without a browser), and the main thread's long tasks meanwhile.
 * Options: BENCH_RUNS (default 3), E2E_SKIP_BUILD=1 to reuse dist/.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { launch, startArchiveSite, storedGame } from '../../tests/e2e/harness';
import { buildSite } from '../../tests/support/builds';
import { ROOT } from '../../tests/support/root';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = 10;
const ENGINE = join(ROOT, 'node_modules', 'stockfish', 'bin', 'stockfish-19-lite-single.js');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The depth the engine reports after SECONDS on the start position, run by Node as a UCI process. */
function nodeDepth(): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [ENGINE], { stdio: ['pipe', 'pipe', 'ignore'] });
    let depth = 0;
    let buffer = '';
    p.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^info depth (\d+) .*score/.exec(line);
        if (m) depth = Math.max(depth, Number(m[1]));
        if (line.startsWith('bestmove')) {
          p.kill();
          resolve(depth);
        }
      }
    });
    p.on('error', reject);
    p.stdin.write(`uci\nisready\nposition startpos\ngo movetime ${SECONDS * 1000}\n`);
  });
}

async function main(): Promise<void> {
  console.log(`analysis bench: ${new Date().toISOString()}, ${cpus()[0]?.model} x${cpus().length}, load ${loadavg()[0].toFixed(1)}`);
  buildSite();
  const site = await startArchiveSite();
  const browser = await launch();
  try {
    await site.accounts.archive!.store(storedGame('game_benchanalysis', { name: 'A', accountId: null, guestId: 'guest-bench-a' },
      { name: 'B', accountId: null, guestId: 'guest-bench-b' }, ['e2e4', 'e7e5'], { winner: 'draw', reason: 'agreement' }));
    const browserDepths: number[] = [];
    const nodeDepths: number[] = [];
    const longTasks: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const page = await (await browser.newContext()).newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { longest: number };
        w.longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(`${site.server.url}/game/game_benchanalysis`);
      await page.getByRole('button', { name: 'Analyse' }).click();
      await page.locator('[data-testid="analysis"][data-graph="done"]').waitFor({ timeout: 120_000 });
      await page.keyboard.press('Home');
      await page.waitForTimeout(SECONDS * 1000);
      const depth = Number(await page.getByTestId('analysis').getAttribute('data-depth'));
      const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
      await page.context().close();
      const peer = await nodeDepth();
      browserDepths.push(depth);
      nodeDepths.push(peer);
      longTasks.push(longest);
      console.log(`run ${run}: Chromium depth ${depth} in ${SECONDS} s, Node (same engine build) depth ${peer}; longest main-thread task ${Math.round(longest)} ms`);
    }
    console.log(
      `median: Chromium depth ${median(browserDepths)}, Node depth ${median(nodeDepths)} (ratio ${(median(browserDepths) / median(nodeDepths)).toFixed(2)}); longest task ${Math.round(Math.max(...longTasks))} ms`,
    );
  } finally {
    await browser.close();
    await site.stop();
  }
}

await main();
