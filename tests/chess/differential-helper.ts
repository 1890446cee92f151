/**
 * Differential testing against chess.js (the reference), through its public API only: random games
 * from the seeded random source (server/seeded.ts), so every run plays the same games. At every
 * ply both must agree on the FEN (all six fields), check, checkmate, stalemate, insufficient
 * material, threefold repetition, the fifty-move rule and game over; the SAN we write for the
 * chosen move must parse back to the same move in our parser and in chess.js's strict parser, and
 * be the SAN chess.js writes for it. The whole legal move list (as SAN) is compared at every ply
 * where the side to move is in check or has no legal move, and at every LIST_EVERY-th ply besides
 * (chess.js builds a SAN, with its check test, for each legal move: asking at every ply would
 * double the run's time).
 */
import { getPriority, constants } from 'node:os';
import { Chess, type Move } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { seeded } from '../../server/seeded';
import { ChessGame } from '../../machines/chess';

export interface GameStats {
  games: number;
  plies: number;
  endings: Record<string, number>;
}

/** At a ply not in check, how often the whole legal move list is compared. */
const LIST_EVERY = 4;

/** Plays one random game in both implementations, asserting agreement at every ply. */
export function playRandomGame(rand: () => number, maxPlies: number, stats: GameStats): void {
  const ours = new ChessGame();
  const ref = new Chess();
  let refFen = ref.fen();
  for (let ply = 0; ; ply++) {
    const where = () => `ply ${ply}, position ${refFen}`;
    const fen = ours.fen();
    if (fen !== refFen) expect(fen, where()).toBe(refFen);

    const ucis = ours.legalMoves();
    const refCheck = ref.inCheck();
    // the legal moves: the same list, each with the same SAN
    const listed = refCheck || ucis.length === 0 || ply % LIST_EVERY === 0;
    let refList: string[] = [];
    if (listed) {
      refList = ref.moves().sort();
      const a = ucis.map((u) => ours.san(u) as string).sort().join(', ');
      if (a !== refList.join(', ')) expect(a, `legal moves at ${where()}`).toBe(refList.join(', '));
    }

    const st = ours.status();
    // Checkmate and stalemate need no legal move: chess.js is asked where its list was compared and
    // came out empty (each question generates the moves again). Elsewhere both sides have a legal
    // move: ours by our list, chess.js's by playing one of ours below.
    const refMate = listed && refCheck && refList.length === 0 && ref.isCheckmate();
    const refStale = listed && !refCheck && refList.length === 0 && ref.isStalemate();
    const refInsufficient = ref.isInsufficientMaterial();
    const refThreefold = ref.isThreefoldRepetition();
    const refFifty = ref.isDrawByFiftyMoves();
    const refOver = refMate || refStale || refInsufficient || refThreefold || refFifty;
    const got = [st.inCheck, st.checkmate, st.stalemate, st.insufficientMaterial, st.threefold, st.fiftyMove, st.over];
    const want = [refCheck, refMate, refStale, refInsufficient, refThreefold, refFifty, refOver];
    if (got.join() !== want.join()) expect(got, `check, mate, stalemate, insufficient, threefold, fifty, over at ${where()}`).toEqual(want);
    // chess.js's own summary agrees with its parts (asked now and then: it generates the moves again)
    if ((refOver || ply % 16 === 0) && ref.isGameOver() !== refOver) expect.fail(`chess.js isGameOver() disagrees with its parts at ${where()}`);
    const kingSq = ours.checkedKingSquare();
    if ((kingSq !== null) !== st.inCheck || (kingSq !== null && ours.pieceAt(kingSq)?.type !== 'k')) expect.fail(`checkedKingSquare ${kingSq} at ${where()}`);

    if (st.over || ply >= maxPlies) {
      const reason = st.reason ?? 'ply limit';
      stats.endings[reason] = (stats.endings[reason] ?? 0) + 1;
      stats.plies += ply;
      stats.games++;
      return;
    }
    const uci = ucis[Math.floor(rand() * ucis.length)];
    const san = ours.san(uci) as string;
    // our SAN parses back to the same move, in our parser ...
    const played = ours.playSan(san);
    if (!played || played.uci !== uci) return void expect(played?.uci, `our SAN ${san} at ${where()}`).toBe(uci);
    // ... and in chess.js's strict parser, which writes the same SAN and reaches the same position
    let refMove: Move;
    try {
      refMove = ref.move(san, { strict: true });
    } catch (err) {
      return void expect.fail(`chess.js refuses our SAN ${san} (${uci}) at ${where()}: ${(err as Error).message}`);
    }
    const refUci = refMove.from + refMove.to + (refMove.promotion ?? '');
    if (refUci !== uci || refMove.san !== san) expect([refUci, refMove.san], `the move ${san} at ${where()}`).toEqual([uci, san]);
    refFen = refMove.after;
  }
}

/** Games a part holds: the 2,000 are eight parts, each five batches of 50 from a seed of its own. */
const PART_GAMES = 250;
const BATCH_GAMES = 50;
/**
 * A batch is about 2.5 s of CPU, but at the lowest priority it gets only what the files beside it
 * leave: while they keep both cores busy it barely runs. Its wall time says nothing of the games,
 * so it may wait long; a batch that never ends still fails.
 */
const BATCH_TIMEOUT_MS = 600_000;

/**
 * The tests of the given parts of the 2,000 games, a test per batch. Two files of four parts each
 * hold them: the background tier's two lanes (tests/tiers.ts).
 */
export function describeRandomGames(parts: readonly number[]): void {
  describe(`random games agree with chess.js (parts ${parts.join(', ')} of 8)`, () => {
    it('run at the lowest CPU priority, beside the integration tier', () => {
      expect(getPriority()).toBe(constants.priority.PRIORITY_LOW);
    });
    for (const part of parts) {
      for (let batch = 0; batch < PART_GAMES / BATCH_GAMES; batch++) {
        const first = (part - 1) * PART_GAMES + batch * BATCH_GAMES + 1;
        it(`games ${first}-${first + BATCH_GAMES - 1}`, () => {
          const rand = seeded(0x5eed0000 + part * 1000 + batch);
          const stats: GameStats = { games: 0, plies: 0, endings: {} };
          for (let g = 0; g < BATCH_GAMES; g++) playRandomGame(rand, 300, stats);
          expect(stats.games).toBe(BATCH_GAMES);
        }, BATCH_TIMEOUT_MS);
      }
    }
  });
}
