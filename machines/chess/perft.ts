/** Perft (move path enumeration) over the low-level position, allocation-free per move. */
import { Position } from './position';
import { MAX_MOVES, countLegal as countLegal_, generateLegal as generateLegal_ } from './movegen';

// local bindings: stays fast if a tool compiles this file to CommonJS (see movegen.ts)
const countLegal = countLegal_;
const generateLegal = generateLegal_;

/** One move buffer for the whole search; ply p uses [p * MAX_MOVES, (p + 1) * MAX_MOVES). */
let buffer = new Int32Array(MAX_MOVES * 16);

function search(pos: Position, depth: number, ply: number): number {
  if (depth === 1) return countLegal(pos);
  const start = ply * MAX_MOVES;
  const end = generateLegal(pos, buffer, start);
  let nodes = 0;
  for (let i = start; i < end; i++) {
    const m = buffer[i];
    pos.make(m);
    nodes += search(pos, depth - 1, ply + 1);
    pos.unmake(m);
  }
  return nodes;
}

/** Leaf count of the legal move tree of pos to the given depth (bulk-counted at depth 1). */
export function perftPosition(pos: Position, depth: number): number {
  if (depth <= 0) return 1;
  if (buffer.length < MAX_MOVES * (depth + 1)) buffer = new Int32Array(MAX_MOVES * (depth + 1));
  return search(pos, depth, 0);
}

/** perft from a FEN string (throws FenError for a bad FEN). */
export function perft(fen: string, depth: number): number {
  return perftPosition(Position.fromFen(fen), depth);
}
