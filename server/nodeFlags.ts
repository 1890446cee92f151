/**
 * The V8 flags the server process runs with. They can only be given on node's command line
 * (V8 reads them when it sets up the heap; `v8.setFlagsFromString` later has no effect on them),
 * so every place that starts the server names them: `npm start` (package.json), the Dockerfile's
 * CMD, the e2e harness and the load bench. tests/server/node-flags.test.ts keeps those in step
 * with this list.
 *
 * --no-memory-reducer: V8's memory reducer takes a process that allocates less than about
 * 1 MB/s for an idle one and runs up to three full, memory-reducing collections in a row to
 * shrink its heap. A game server relaying 500 moves a second allocates less than that, so the
 * reducer fired about 32 s after start and again a minute later (BENCHMARKS.md at a71349e, seventh pass).
 * Each round paused the event loop two or three times for 7-21 ms, and was followed by 15-19
 * deoptimizations and 13-18 recompilations of the move path, the code V8 had just optimized.
 * A game server's heap is steady; giving a few MB back is not worth that. Without the reducer
 * the heap is still collected, and sized, by the ordinary allocation-driven collections.
 *
 * --max-semi-space-size=64: lets V8's young generation grow to 64 MB semi-spaces (Node 20's
 * default cap is 16 MB). Every game's newest context, snapshot and move list is young, and a
 * game moves about once a second; with 16 MB semi-spaces a scavenge came every 0.4 s at 10,000
 * players, so most games' current state was copied once or twice (and then promoted, to die in
 * the old generation). With 64 MB a scavenge comes every ~2 s: at 10,000 players 24 scavenges
 * (397 ms of pauses) against 97 (1,265 ms) over the same 45 s, and the relay p99 fell from
 * 50-70 ms to 23-29 ms (BENCHMARKS.md at a71349e, tenth pass). The young generation only grows that far
 * under such an allocation rate; the price at 10,000 players was ~85 MB more resident memory.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-memory-reducer', '--max-semi-space-size=64'];

/**
 * The C library's allocator settings the server runs with (glibc reads them once, when the process
 * starts, so they are given in its environment: `npm start`, the Dockerfile's ENV, the e2e harness
 * and the benches; elsewhere, e.g. with musl, they do nothing).
 *
 * MALLOC_ARENA_MAX=2: glibc gives threads their own 64 MB arenas, up to 8 per core. The thread
 * pool (signature checks) and V8's helper threads allocated in 13 of them during the floods of
 * issue 24 and kept the freed memory: after 3,000 sockets and the identification floods the
 * server stayed about 45-55 MB above its resting RSS for good (BENCHMARKS.md, "Floods and memory at rest").
 * MALLOC_TRIM_THRESHOLD_=131072: a fixed threshold (glibc otherwise raises it, and the mmap
 * threshold, after a large block is freed), so freed memory at the top of an arena goes back to
 * the system and blocks over 128 KB are mapped apart and unmapped when freed. Together: about
 * +10 MB after the floods instead of +55, and some 25 MB less at rest.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' };

/** SERVER_MALLOC_ENV as shell assignments ("MALLOC_ARENA_MAX=2 …"), as npm start writes them. */
export function mallocEnvAssignments(): string {
  return Object.entries(SERVER_MALLOC_ENV)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

/** The flags of SERVER_NODE_FLAGS this process was started without. */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
