/**
 * A setup file of the background tier (tests/tiers.ts): the worker process runs at the lowest CPU
 * priority, so its games use only the CPU the files beside it leave idle and slow none of them.
 * Linux keeps a priority per thread, so every thread of the process gets it, V8's helper threads
 * (garbage collection, compilation) too; threads started later inherit it. The tier's files run
 * in processes of their own (isolate: true), which end with the file.
 */
import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/** The process's threads (Linux), or the process itself where there is no /proc. */
function threads(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [0];
  }
}

for (const thread of threads()) setPriority(thread, constants.priority.PRIORITY_LOW);
