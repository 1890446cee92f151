/**
 * The one-ply greedy bot the ladder starts from: it captures the most valuable piece it can
 * (ties and quiet positions: a uniformly random legal move). It never looks at what it hangs.
 */
import type { ChessGame, PieceType } from '../../../machines/chess/index';

const VALUE: Record<PieceType, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

export function greedyMove(game: ChessGame, random: () => number): string {
  const legal = game.legalMoves();
  let best: string[] = [];
  let bestValue = 0;
  for (const uci of legal) {
    const target = game.pieceAt(uci.slice(2, 4));
    let value = target ? VALUE[target.type] : 0;
    // en passant: a pawn moving diagonally to an empty square captures a pawn
    if (!target && game.pieceAt(uci.slice(0, 2))?.type === 'p' && uci[0] !== uci[2]) value = 1;
    if (value > bestValue) {
      bestValue = value;
      best = [uci];
    } else if (value === bestValue && value > 0) {
      best.push(uci);
    }
  }
  const pool = bestValue > 0 ? best : legal;
  return pool[Math.floor(random() * pool.length)];
}
