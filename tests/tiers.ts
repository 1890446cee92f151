/**
 * Which tier each test file belongs to. vite.config.ts builds the vitest projects from this,
 * and tests/repo/tiers.test.ts checks that the unit tier stays what it promises.
 *
 * - unit: rules, machines, protocol and pure server modules; no server process, no browser, no
 *   engine, no database. `npm run test:unit`, well under 30 s on two cores.
 * - integration: the real server on a port with real clients, the accounts API on PGlite or
 *   PostgreSQL, Stockfish, child processes (`npm start` itself, which builds the site: nothing
 *   else in the tier reads dist/), and the k6 scenarios and the load driver at CI scale (their
 *   latency limits allow for sharing the cores; what they assert is that every game ends and
 *   nothing is refused).
 * - background: files that only compute, long: the 2,000-game differential run against chess.js,
 *   in two files (lanes) of 1,000 games. They run beside the unit and integration tiers, each in
 *   a process of its own at the lowest CPU priority (tests/support/lowestPriority.ts), so they use
 *   the CPU those tiers' files leave idle while they wait on sockets, timers and processes, and
 *   slow none of them. First in the queue, they hold two of the group's five workers for as long
 *   as they run, and the unit and integration files share the other three.
 * - browser: Chromium against the built site, one server per file; after the integration tier,
 *   two files at a time (one at a time left a core idle: the six files took about 113 s, two at
 *   a time 76 s). The site is built once for the tier (tests/support/siteBuild.ts).
 * - exclusive: tests that measure CPU cost, the analysis page's longest main-thread task in
 *   Chromium, and the three-node site behind HAProxy whose takeovers are timed; they run last,
 *   one file at a time, so neither their timings nor anyone else's are disturbed.
 *
 * `npm test` runs all five.
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ROOT } from './support/root.ts';

export type Tier = 'unit' | 'integration' | 'background' | 'browser' | 'exclusive';

/** Folders whose tests are all unit tests, unless listed in NOT_UNIT. */
const UNIT_FOLDERS = ['tests/chess/', 'tests/client/', 'tests/machines/', 'tests/protocol/', 'tests/repo/'];
/** Unit tests in folders that hold integration tests too. */
const UNIT_FILES = new Set([
  'tests/archive/ratingRules.test.ts',
  'tests/loadtest/clock-watch.test.ts',
  'tests/loadtest/k6-node-vu.test.ts',
  'tests/ai/machine.test.ts',
  'tests/server/challengeFile.test.ts',
  'tests/server/clientAddress.test.ts',
  'tests/server/config.test.ts',
  'tests/server/endedGames.test.ts',
  'tests/server/frames.test.ts',
  'tests/server/groupCommit.test.ts',
  'tests/server/hub.test.ts',
  'tests/server/identification.test.ts',
  'tests/server/inspectRelay.test.ts',
  'tests/server/journal.test.ts',
  'tests/server/logger.test.ts',
  'tests/server/metricsText.test.ts',
  'tests/server/moveFrame.test.ts',
  'tests/server/refusalLog.test.ts',
  'tests/server/replaceFile.test.ts',
  'tests/server/round.test.ts',
  'tests/server/router.test.ts',
  'tests/server/schemas.test.ts',
  'tests/server/securityHeaders.test.ts',
  'tests/server/siteProtocol.test.ts',
  'tests/server/wakeWheel.test.ts',
  'tests/server/warmUp.test.ts',
]);
/** The 2,000 random games against chess.js, in two files that run side by side. */
const DIFFERENTIAL = /^tests\/chess\/differential-\d+\.test\.ts$/;
/** Long runs that only compute: started nothing, they may run at the lowest CPU priority. */
const BACKGROUND = [DIFFERENTIAL];
/** In a unit folder, but a long CPU-bound run and a child process. */
const NOT_UNIT = [/^tests\/chess\/perft\.test\.ts$/];
/** Chromium against a built site of its own (one server per file). */
const BROWSER = [/^tests\/e2e\//];
const EXCLUSIVE = [
  // no main-thread task over 200 ms while the engine works: beside another Chromium file one took
  // 243 ms in CI (none over 50 ms alone)
  /^tests\/e2e\/analysis\.test\.ts$/,
  /^tests\/loadtest\/k6-init-budget\.test\.ts$/,
  // three server processes, Redis, PostgreSQL and HAProxy at once, timing takeovers
  /^tests\/cluster\/(balanced|k6-balanced)\.test\.ts$/,
];

/**
 * Files that take about 10 s or more (tsc over the project: 8-9 s). vitest starts the files it
 * has no timings for (a fresh clone, as in CI) largest first, and these are small files: started
 * last, they would end their group of tiers alone on one core. tests/sequencer.ts starts them
 * first in their group, in this list's order: the background tier's two lanes of differential
 * games first, so that they hold two workers from the start, then the files that mostly wait on
 * the processes they start, which overlap each other's waiting. Left to vitest's order by size,
 * the differential files came last: on a fresh clone the first group then left the cores partly
 * idle for its first 50 s and ended 35 s later (BENCHMARKS.md at a71349e, the suite on a third
 * host).
 */
export const LONG_FILES = [
  DIFFERENTIAL,
  /^tests\/server\/(npm-start|load-driver|durable|crash|limits|process|memory)\.test\.ts$/,
  /^tests\/accounts\/crash\.test\.ts$/,
  /^tests\/typecheck\.test\.ts$/,
  /^tests\/loadtest\/(k6-ci-scale|k6-scenarios)\.test\.ts$/,
  /^tests\/ai\/engine-pool\.test\.ts$/,
  /^tests\/cluster\/(ai-takeover|pairing|pairing-handover)\.test\.ts$/,
  /^tests\/machines\/gameReplay\.test\.ts$/,
];

/**
 * Where a test file (by its absolute path, or its path from the repository root) stands among the
 * long ones: the index of the first LONG_FILES pattern it matches, or -1 when it is not long.
 */
export function longRank(file: string): number {
  const path = fromRoot(file);
  return LONG_FILES.findIndex((re) => re.test(path));
}

/**
 * `files` (in the order vitest would start them) with the long ones moved to the front, in
 * LONG_FILES's order; within a rank, and among the others, the order given stays.
 */
export function longFirst<T>(files: readonly T[], pathOf: (file: T) => string): T[] {
  const ranked = files.map((file) => ({ file, rank: longRank(pathOf(file)) }));
  // Array.prototype.sort is stable
  const long = ranked.filter((r) => r.rank >= 0).sort((a, b) => a.rank - b.rank);
  return [...long, ...ranked.filter((r) => r.rank < 0)].map((r) => r.file);
}

/** A file's path from the repository root, with forward slashes, as the patterns here have it. */
function fromRoot(file: string): string {
  return relative(ROOT, resolve(ROOT, file)).split('\\').join('/');
}

export function tierOf(file: string): Tier {
  if (EXCLUSIVE.some((re) => re.test(file))) return 'exclusive';
  if (BROWSER.some((re) => re.test(file))) return 'browser';
  if (BACKGROUND.some((re) => re.test(file))) return 'background';
  if (NOT_UNIT.some((re) => re.test(file))) return 'integration';
  if (UNIT_FILES.has(file) || UNIT_FOLDERS.some((dir) => file.startsWith(dir))) return 'unit';
  return 'integration';
}

/** Every test file under tests/, as a path from the repository root. */
export function testFiles(): string[] {
  return readdirSync(join(ROOT, 'tests'), { recursive: true, encoding: 'utf8' })
    .map((f) => fromRoot(join(ROOT, 'tests', f)))
    .filter((f) => /\.test\.tsx?$/.test(f) && !f.includes('node_modules'))
    .sort();
}

export function filesOfTier(tier: Tier): string[] {
  return testFiles().filter((f) => tierOf(f) === tier);
}
