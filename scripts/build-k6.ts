/**
 * `npm run build:k6`: the k6 bundles in loadtest/k6/dist.
 *
 * - chess.js: the chess core for k6 (what loadtest/k6/lib/chess.ts imports when k6 runs the
 *   TypeScript sources directly), with its declarations next to it (chess.d.ts).
 * - one file per scenario, importing nothing but k6's own modules.
 *
 * Both use the light chess core (lightChessCore below): the core's own rules with the
 * magic-bitboard slider tables swapped for a ray walk, so that initialising a virtual user
 * builds no large tables (loadtest/k6/README.md explains the choice).
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const K6_DIR = join(ROOT, 'loadtest/k6');
export const K6_DIST = join(K6_DIR, 'dist');
export const CORE_ENTRY = join(ROOT, 'machines/chess/index.ts');
const CORE_SLIDERS_IMPORTER = join(ROOT, 'machines/chess/attacks.ts');
export const CORE_SLIDERS = join(ROOT, 'machines/chess/sliders.ts');
const RAY_SLIDERS = join(K6_DIR, 'chess/ray-sliders.ts');

/**
 * The language level of the bundles. k6's interpreter has learnt newer syntax over its
 * versions; ES2017 (esbuild lowers `?.`, `??`, class fields and the like) keeps the bundles
 * within what the oldest k6 the scripts support parses, at no cost here.
 */
export const K6_TARGET = 'es2017';

/**
 * Resolves the scripts' import of the chess bundle (`../dist/chess.js`) to the core's source;
 * with `light`, also replaces the core's magic slider module (sliders.ts) with the ray walk.
 */
export function chessCore(light: boolean): Plugin {
  return {
    name: light ? 'light-chess-core' : 'chess-core',
    setup(b) {
      b.onResolve({ filter: /\/dist\/chess\.js$/ }, () => ({ path: CORE_ENTRY }));
      if (!light) return;
      b.onResolve({ filter: /^\.\/sliders(\.ts)?$/ }, (args) =>
        resolve(args.importer) === CORE_SLIDERS_IMPORTER ? { path: RAY_SLIDERS } : undefined,
      );
    },
  };
}

/** What the k6 bundles use. */
export const lightChessCore = chessCore(true);

export async function buildK6(): Promise<void> {
  mkdirSync(K6_DIST, { recursive: true });
  copyFileSync(join(K6_DIR, 'types/dist/chess.d.ts'), join(K6_DIST, 'chess.d.ts'));
  const common = {
    bundle: true,
    format: 'esm' as const,
    platform: 'neutral' as const,
    target: K6_TARGET,
    legalComments: 'none' as const,
    plugins: [lightChessCore],
    logLevel: 'warning' as const,
  };
  await build({ ...common, entryPoints: [CORE_ENTRY], outfile: join(K6_DIST, 'chess.js') });
  await build({ ...common, entryPoints: k6Scenarios(), outdir: K6_DIST, external: ['k6', 'k6/*'] });
}

/** The scenario scripts (loadtest/k6/scenarios/*.ts), as absolute paths. */
export function k6Scenarios(): string[] {
  const dir = join(K6_DIR, 'scenarios');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await buildK6();
  console.log(`build:k6: ${K6_DIST} written`);
}
