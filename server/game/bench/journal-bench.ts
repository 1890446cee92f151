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
 * Then the synced write itself, as the journal makes it (over zeros written ahead of the records,
 * PREALLOCATE_BYTES) against its peer, a synced append of the same bytes: wall and system time
 * per write, for the batch sizes of 1,000 and 10,000 players (about 2 and 17 moves).
 */
import { closeSync, constants, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { FastCounter, FastHistogram } from '../../http/metrics';
import { NO_RECORDER, PREALLOCATE_BYTES, openGameJournal, type GameRecorder } from '../journal';

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
  const metrics = { commitSeconds: commits, bytesWritten: new FastCounter('bytes', 'bench'), syncSeconds: new FastHistogram('syncs', 'bench', [Infinity]) };
  const noGames = { games: () => [], aiGames: () => [] };
  const { journal } = openGameJournal(dir, metrics, pino({ level: 'silent' }), noGames, { sync: 'always', commitWindowMs });
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
        recorder.command('game_bench', { type: 'WAKE', at }, sent + 1);
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

/** Synced writes of `bytes` each until PREALLOCATE_BYTES are written: appended, or over zeros already on disk. */
function syncedWrites(bytes: number, overZeros: boolean): { wallUs: number; systemUs: number } {
  const dir = mkdtempSync(join(tmpdir(), 'journal-bench-'));
  const file = join(dir, 'journal');
  const count = Math.floor(PREALLOCATE_BYTES / bytes);
  try {
    if (overZeros) {
      const fd = openSync(file, 'w');
      writeSync(fd, Buffer.alloc(PREALLOCATE_BYTES));
      fsyncSync(fd);
      closeSync(fd);
    }
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_DSYNC | (overZeros ? 0 : constants.O_APPEND);
    const fd = openSync(file, flags, 0o666);
    const batch = Buffer.alloc(bytes, 'x');
    const cpu0 = process.cpuUsage();
    const began = performance.now();
    for (let i = 0; i < count; i++) writeSync(fd, batch, 0, bytes, overZeros ? i * bytes : null);
    const wallUs = ((performance.now() - began) * 1000) / count;
    const systemUs = process.cpuUsage(cpu0).system / count;
    closeSync(fd);
    return { wallUs, systemUs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

out('');
out('one synced write (O_DSYNC), median of 3 rounds of 1 MiB each:');
out('| batch | append: wall / system µs | over zeros made ahead: wall / system µs | ratio (wall, system) |');
out('|---|---|---|---|');
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
for (const bytes of [400, 3000]) {
  const rounds = [0, 1, 2].map(() => ({ append: syncedWrites(bytes, false), over: syncedWrites(bytes, true) }));
  const [aw, as] = [median(rounds.map((r) => r.append.wallUs)), median(rounds.map((r) => r.append.systemUs))];
  const [ow, os] = [median(rounds.map((r) => r.over.wallUs)), median(rounds.map((r) => r.over.systemUs))];
  out(`| ${bytes} B | ${aw.toFixed(0)} / ${as.toFixed(0)} | ${ow.toFixed(0)} / ${os.toFixed(0)} | ${(ow / aw).toFixed(2)}, ${(os / as).toFixed(2)} |`);
}
