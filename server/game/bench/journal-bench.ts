/**
 * `npm run bench:journal`: what the game journal's group commit costs per move, alone.
 *
 * Moves arrive at a steady rate (RATE per second, default 500: what 1,000 players at one move a
 * second each make) for SECONDS; each is a `cmd` record whose afterCommit callback stands for the
 * players' messages. Printed per commit window (WINDOWS, default "0,1,2,5"): the process's CPU per
 * move (user + system, the thread pool included) less the driver's own (the same run without a
 * journal), moves per fdatasync, and the time from a move's record to its callback (p50/p99: what
 * the journal adds to a move's relay). The journal is in a
 * fresh directory under TMPDIR (put it on the disk the server's DATA_DIR is on).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { FastCounter, FastHistogram } from '../../http/metrics';
import { NO_RECORDER, openGameJournal, type GameRecorder } from '../journal';

const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.SECONDS ?? 5);
const WINDOWS = (process.env.WINDOWS ?? '0,1,2,5').split(',').map(Number);
const out = (s: string) => process.stdout.write(`${s}\n`);

interface Result {
  cpuUsPerMove: number;
  movesPerSync: number;
  waitP50ms: number;
  waitP99ms: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** A journal in a fresh directory, or none (NO_RECORDER: the driver's own cost, subtracted below). */
function openRecorder(commitWindowMs: number | null): { recorder: GameRecorder; syncs: () => number; close: () => Promise<void> } {
  if (commitWindowMs === null) return { recorder: NO_RECORDER, syncs: () => 0, close: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'journal-bench-'));
  const commits = new FastHistogram('commits', 'bench', [Infinity]);
  const metrics = { commitSeconds: commits, bytesWritten: new FastCounter('bytes', 'bench') };
  const noGames = { games: () => [], aiGames: () => [] };
  const { journal } = openGameJournal(dir, metrics, pino({ level: 'silent' }), noGames, { commitWindowMs });
  return {
    recorder: journal,
    syncs: () => commits.count,
    close: async () => {
      await journal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** RATE moves a second for SECONDS, each timer firing at the next move's due time (as a socket message would arrive). */
async function run(commitWindowMs: number | null): Promise<Result> {
  const { recorder, syncs, close } = openRecorder(commitWindowMs);
  const waits: number[] = [];
  const total = RATE * SECONDS;
  const cpu0 = process.cpuUsage();
  const began = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    let told = 0;
    const next = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - began) * RATE) / 1000) + 1);
      for (; sent < due; sent++) {
        const at = performance.now();
        recorder.command('game_bench', { type: 'WAKE', at });
        recorder.afterCommit(() => {
          waits.push(performance.now() - at);
          if (++told === total) resolve();
        });
      }
      if (sent < total) setTimeout(next, Math.max(0, began + (sent * 1000) / RATE - performance.now()));
    };
    next();
  });
  const cpu = process.cpuUsage(cpu0);
  await close();
  waits.sort((a, b) => a - b);
  return { cpuUsPerMove: (cpu.user + cpu.system) / total, movesPerSync: total / syncs(), waitP50ms: percentile(waits, 50), waitP99ms: percentile(waits, 99) };
}

out(`journal group commit: ${RATE} moves/s for ${SECONDS} s per window, in ${tmpdir()}`);
await run(null); // warm-up: the JIT, the timers
const driver = await run(null);
out(`driver alone (no journal): ${driver.cpuUsPerMove.toFixed(1)} µs/move, subtracted below`);
out('| commit window | journal CPU µs/move | moves per fdatasync | wait p50 | wait p99 |');
out('|---|---|---|---|---|');
for (const w of WINDOWS) {
  const r = await run(w);
  out(`| ${w} ms | ${(r.cpuUsPerMove - driver.cpuUsPerMove).toFixed(1)} | ${r.movesPerSync.toFixed(2)} | ${r.waitP50ms.toFixed(2)} ms | ${r.waitP99ms.toFixed(2)} ms |`);
}
