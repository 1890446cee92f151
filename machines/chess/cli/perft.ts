/**
 * Perft command line.
 *   npm run perft -- --fen "<FEN>" --depth N [--divide]
 *   npm run perft -- --epd FILE [--max-nodes N]
 * EPD lines: `<FEN> ;D1 20 ;D2 400 ...`. Prints each mismatch and `N passed, M failed`; exits 1 on any mismatch.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FenError, Position, START_FEN, perftPosition } from '../index';
import { MAX_MOVES, generateLegal } from '../movegen';
import { moveToUci } from '../uci';
import { parseEpd } from '../bench/epd';

function usage(msg?: string): never {
  if (msg) process.stderr.write(`perft: ${msg}\n`);
  process.stderr.write('usage: npm run perft -- --fen "<FEN>" --depth N [--divide]\n       npm run perft -- --epd FILE [--max-nodes N]\n');
  process.exit(2);
}

function main(): void {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        fen: { type: 'string' },
        depth: { type: 'string' },
        divide: { type: 'boolean', default: false },
        epd: { type: 'string' },
        'max-nodes': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    usage((e as Error).message);
  }
  if (values.help) usage();
  if (values.epd !== undefined) return runEpd(values.epd, values['max-nodes']);
  const depth = Number(values.depth ?? '');
  if (!Number.isInteger(depth) || depth < 0) usage('--depth must be a non-negative integer');
  let pos: Position;
  try {
    pos = Position.fromFen(values.fen ?? START_FEN);
  } catch (e) {
    if (e instanceof FenError) usage(e.message);
    throw e;
  }
  const t0 = performance.now();
  let total = 0;
  if (values.divide && depth >= 1) {
    const moves = new Int32Array(MAX_MOVES);
    const n = generateLegal(pos, moves, 0);
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      pos.make(moves[i]);
      const c = perftPosition(pos, depth - 1);
      pos.unmake(moves[i]);
      lines.push(`${moveToUci(moves[i])}: ${c}`);
      total += c;
    }
    lines.sort();
    process.stdout.write(lines.join('\n') + '\n\n');
  } else {
    total = perftPosition(pos, depth);
  }
  const ms = performance.now() - t0;
  process.stdout.write(`Nodes: ${total}\n`);
  process.stderr.write(`${ms.toFixed(0)} ms, ${(total / ms / 1000).toFixed(1)} M nodes/s\n`);
}

function runEpd(file: string, maxNodesText: string | undefined): void {
  const maxNodes = maxNodesText === undefined ? Infinity : Number(maxNodesText);
  if (!(maxNodes > 0)) usage('--max-nodes must be a positive number');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    usage(`cannot read ${file}: ${(e as Error).message}`);
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const entry of parseEpd(text)) {
    if (entry.error) {
      process.stdout.write(`line ${entry.line}: ${entry.error}\n`);
      failed++;
      continue;
    }
    let pos: Position;
    try {
      pos = Position.fromFen(entry.fen);
    } catch (e) {
      process.stdout.write(`line ${entry.line}: ${(e as Error).message}\n`);
      failed++;
      continue;
    }
    for (const [depth, expected] of entry.depths) {
      if (expected > maxNodes) {
        skipped++;
        continue;
      }
      const got = perftPosition(pos, depth);
      if (got === expected) passed++;
      else {
        failed++;
        process.stdout.write(`MISMATCH line ${entry.line} depth ${depth}: expected ${expected}, got ${got} (${entry.fen})\n`);
      }
    }
  }
  if (skipped) process.stderr.write(`${skipped} skipped above --max-nodes\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main();
