import { describe, expect, it } from 'vitest';
import { ChessGame, Position } from '../../machines/chess';
import { MAX_MOVES, findLegalMove, generateLegal } from '../../machines/chess/movegen';
import { seeded } from '../../server/seeded';

const FENS = [
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
  '8/8/8/KPp4r/8/8/8/7k w - c6 0 2',
  '8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1',
  'r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1',
  '4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1',
];

/** Every from/to/promotion combination answered by the direct check equals membership in the generated list. */
function compare(pos: Position): number {
  const buf = new Int32Array(MAX_MOVES);
  const n = generateLegal(pos, buf, 0);
  const legal = new Set<number>();
  for (let i = 0; i < n; i++) legal.add(buf[i]);
  let found = 0;
  for (let from = 0; from < 64; from++) {
    if (pos.board[from] === 0) continue;
    for (let to = 0; to < 64; to++) {
      for (let promo = 0; promo <= 5; promo = promo === 0 ? 2 : promo + 1) {
        const m = findLegalMove(pos, from, to, promo);
        if (m >= 0) {
          if (!legal.has(m)) expect.fail(`findLegalMove accepted ${m} in ${pos.toFen()}`);
          if (promo !== 0 || m >> 12 < 4) found++;
        } else {
          for (const l of legal) {
            const lp = l >> 12 >= 4 ? (l >> 12) - 2 : 0;
            if ((l & 4095) === (from | (to << 6)) && (lp === promo || (promo === 0 && lp === 5))) expect.fail(`findLegalMove rejected ${l} in ${pos.toFen()}`);
          }
        }
      }
    }
  }
  return found;
}

describe('single-move legality check agrees with the move generator', () => {
  it('on tricky positions', () => {
    for (const fen of FENS) {
      const pos = Position.fromFen(fen);
      const buf = new Int32Array(MAX_MOVES);
      expect(compare(pos), fen).toBe(generateLegal(pos, buf, 0));
    }
  });

  it('on 300 positions from random games', () => {
    const rand = seeded(42);
    let checked = 0;
    for (let g = 0; g < 10; g++) {
      const game = new ChessGame();
      for (let ply = 0; ply < 120 && !game.status().over; ply++) {
        if (ply % 4 === 0) {
          compare(game.position());
          checked++;
        }
        const moves = game.legalMoves();
        game.play(moves[Math.floor(rand() * moves.length)]);
      }
    }
    expect(checked).toBeGreaterThan(250);
  });
});
