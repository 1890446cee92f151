/**
 * `npm run bench:static`: what a start costs to load the built client (dist/client, built first
 * with `npm run build`): with the encodings the build keeps beside each file, against the same
 * files without them (compressed at start), in the same run. Prints medians of 5 and the ratio.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIBLING_SUFFIX } from '../compression';
import { StaticFiles } from '../static';

const BUILT = 'dist/client';
const RUNS = 5;

/** A copy of the build without the kept encodings. */
function bareCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'static-bench-'));
  cpSync(BUILT, dir, { recursive: true });
  const strip = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) strip(path);
      else if (Object.values(SIBLING_SUFFIX).some((suffix) => e.name.endsWith(suffix))) rmSync(path);
    }
  };
  strip(dir);
  return dir;
}

function loadMs(dir: string): { ms: number; files: number } {
  const began = performance.now();
  const files = new StaticFiles(dir).size;
  return { ms: performance.now() - began, files };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!existsSync(join(BUILT, 'index.html'))) {
  console.error('bench:static: no client build; run `npm run build` first');
  process.exit(2);
}
const bare = bareCopy();
const kept: number[] = [];
const compressed: number[] = [];
let files = 0;
for (let i = 0; i < RUNS; i++) {
  kept.push(loadMs(BUILT).ms);
  const c = loadMs(bare);
  compressed.push(c.ms);
  files = c.files;
}
rmSync(bare, { recursive: true });
console.log(`client files loaded at start: ${files}`);
console.log(`with the build's encodings: ${median(kept).toFixed(0)} ms (${Math.min(...kept).toFixed(0)}-${Math.max(...kept).toFixed(0)})`);
console.log(`compressing at start:       ${median(compressed).toFixed(0)} ms (${Math.min(...compressed).toFixed(0)}-${Math.max(...compressed).toFixed(0)})`);
console.log(`ratio: ${(median(compressed) / median(kept)).toFixed(1)}x`);
