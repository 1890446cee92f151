import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ChessGame, Position } from '../../machines/chess';
import { parseEpd } from '../../machines/chess/bench/epd';
import { MAX_MOVES, countLegal, generateLegal, hasLegalMove } from '../../machines/chess/movegen';
import { BISHOP, FLAG_EP, KING, KNIGHT, PAWN, QUEEN, ROOK } from '../../machines/chess/types';
import { seeded } from '../../server/seeded';

// hasLegalMove decides checkmate and stalemate after every relayed move; it stops at the first
// piece with a legal move, so each of its early exits is checked here against the full count.

const suite = parseEpd(readFileSync(new URL('../../machines/chess/bench/perft-suite.epd', import.meta.url), 'utf8'));

function agree(pos: Position): number {
  const n = countLegal(pos);
  if (hasLegalMove(pos) !== n > 0) expect.fail(`hasLegalMove is ${!(n > 0)} with ${n} legal moves in ${pos.toFen()}`);
  return n;
}

/** Visits pos and every position up to `depth` plies below it. */
function walk(pos: Position, depth: number, visit: (p: Position) => void): void {
  visit(pos);
  if (depth === 0) return;
  const moves = new Int32Array(MAX_MOVES);
  const n = generateLegal(pos, moves, 0);
  for (let i = 0; i < n; i++) {
    pos.make(moves[i]);
    walk(pos, depth - 1, visit);
    pos.unmake(moves[i]);
  }
}

describe('hasLegalMove', () => {
  it('agrees with the full count on the perft suite three plies deep', () => {
    let positions = 0;
    let withoutMoves = 0;
    let single = 0;
    for (const { fen } of suite) {
      walk(Position.fromFen(fen), 3, (p) => {
        positions++;
        const n = agree(p);
        if (n === 0) withoutMoves++;
        if (n === 1) single++;
      });
    }
    expect(positions).toBeGreaterThan(100_000);
    // the walk reaches positions with no move and with exactly one (the last section's exit)
    expect(withoutMoves).toBeGreaterThan(0);
    expect(single).toBeGreaterThan(0);
  });

  it('finds a legal move whichever kind of piece is the only one that has one', () => {
    // Castling is never the only legal move: the king could step to the square it passes.
    const onlyKind: Array<[string, number, string]> = [
      ['rnbqkbnr/ppppp1pp/5p2/7Q/8/4P3/PPPP1PPP/RNB1KBNR b KQkq - 1 2', PAWN, 'a pawn push'],
      ['8/3qk3/2R4r/4Kr2/p1BpRP1N/b1PP3P/1B3P2/8 w - - 2 61', KNIGHT, 'a knight'],
      ['rnbq1k1r/pp1Pb1pp/2p5/5Q2/2B5/8/PPP1NnPP/RNB1K2R b KQ - 0 9', BISHOP, 'a bishop'],
      ['rnbq1kQr/pp1Pb1pp/2p2p2/8/2B5/8/PPP1NnPP/RNB1K2R b KQ - 1 9', ROOK, 'a rook'],
      ['r4k1r/p1ppqQb1/bn2p1p1/3PN3/1p2P3/2N4p/PPPBBPPP/R3K2R b KQ - 0 2', QUEEN, 'a queen'],
      ['2kr3r/p1ppqpb1/Bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPB1PPP/R2K3R b - - 0 2', KING, 'the king'],
      // the pawn that just gave check can only be taken en passant
      ['5r1k/b7/2p5/3pP3/4K3/r7/8/8 w - d6 0 1', -FLAG_EP, 'en passant'],
    ];
    const moves = new Int32Array(MAX_MOVES);
    for (const [fen, kind, what] of onlyKind) {
      const pos = Position.fromFen(fen);
      const n = generateLegal(pos, moves, 0);
      expect(n, fen).toBeGreaterThan(0);
      for (let i = 0; i < n; i++) {
        const m = moves[i];
        const got = kind < 0 ? -(m >> 12) : pos.board[m & 63] & 7;
        expect(got, `${what} only: ${fen}`).toBe(kind);
      }
      expect(hasLegalMove(pos), what).toBe(true);
      expect(agree(pos)).toBe(n);
    }
  });

  it('sees mate and stalemate, and the game and its SAN say so', () => {
    const mate = Position.fromFen('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    expect(hasLegalMove(mate)).toBe(false);
    const stalemate = Position.fromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
    expect(hasLegalMove(stalemate)).toBe(false);

    const game = new ChessGame();
    for (const m of ['f3', 'e5', 'g4']) game.playSan(m);
    expect(game.playSan('Qh4')?.san).toBe('Qh4#');
    expect(game.status()).toMatchObject({ over: true, checkmate: true, winner: 'black' });
  });

  it('agrees with the full count along 40 random games to their end', () => {
    const rand = seeded(7);
    const moves = new Int32Array(MAX_MOVES);
    let ended = 0;
    for (let g = 0; g < 40; g++) {
      const pos = Position.fromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      for (let ply = 0; ply < 400; ply++) {
        const n = agree(pos);
        if (n === 0) {
          ended++;
          break;
        }
        expect(generateLegal(pos, moves, 0)).toBe(n);
        pos.make(moves[Math.floor(rand() * n)]);
      }
    }
    expect(ended).toBeGreaterThan(0);
  });
});
