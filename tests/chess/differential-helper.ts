/**
 * Differential testing against chess.js (the reference): random games from a seeded PRNG,
 * comparing at every ply the legal move set (with SAN), FEN (all six fields), check, checkmate,
 * stalemate, insufficient material, threefold repetition and game over; the SAN we write for the
 * chosen move must parse back to the same move in our parser and in chess.js (strict mode).
 */
import { Chess } from 'chess.js';
import { expect } from 'vitest';
import { ChessGame } from '../../machines/chess';

/** mulberry32: small seeded PRNG so every run plays the same games. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GameStats {
  games: number;
  plies: number;
  endings: Record<string, number>;
  /** SANs checked with chess.js's parser. */
  refParsed?: number;
}

/**
 * chess.js 1.4 internals used for speed: its public moves()/move() build SAN and FEN strings
 * for every legal move and cost ~0.5 ms per ply, which would make 2,000 games take many minutes.
 * These are the same functions the public API calls (legal generation, SAN writer, SAN parser,
 * make move + repetition bookkeeping), so the reference answers are unchanged.
 */
interface RefMove { from: number; to: number; promotion?: string }
interface RefInternals {
  _moves(opts: { legal: boolean }): RefMove[];
  _moveToSan(move: RefMove, moves: RefMove[]): string;
  _moveFromSan(san: string, strict: boolean): RefMove | null;
  _makeMove(move: RefMove): void;
  _incPositionCount(): void;
}

/** chess.js 0x88 square (a8 = 0, h1 = 119) to a name. */
const sq88 = (s: number): string => 'abcdefgh'[s & 15] + String(8 - (s >> 4));
const refUci = (m: RefMove): string => sq88(m.from) + sq88(m.to) + (m.promotion ?? '');

/**
 * Plays one random game in both implementations, asserting agreement at every ply.
 * mode 'public' drives chess.js only through its public API (slow); 'fast' uses the internals above.
 */
export function playRandomGame(rand: () => number, maxPlies: number, stats: GameStats, mode: 'public' | 'fast' = 'fast'): void {
  const ours = new ChessGame();
  const ref = new Chess();
  const refIn = ref as unknown as RefInternals;
  if (mode === 'fast' && typeof refIn._moves !== 'function') throw new Error('chess.js internals changed: use mode public');
  for (let ply = 0; ; ply++) {
    const where = () => `ply ${ply}, position ${ref.fen()}`;
    const fen = ours.fen();
    if (fen !== ref.fen()) expect(fen, where()).toBe(ref.fen());

    // legal moves: the same set (as UCI); every 8th ply also the same SAN for every move
    // (public mode: the same SAN list; the played move's UCI is compared below)
    const ourUcis = ours.legalMoves().sort();
    const withSan = mode === 'public' || ply % 8 === 0;
    let refList: string[];
    let refMoves: RefMove[] = [];
    if (mode === 'public') {
      // moves({ verbose: true }) builds two FENs per move (~6 ms a ply): compare SAN lists instead
      refList = ref.moves();
    } else {
      refMoves = refIn._moves({ legal: true });
      refList = refMoves.map((m) => (withSan ? `${refUci(m)} ${refIn._moveToSan(m, refMoves)}` : refUci(m)));
    }
    const a = (mode === 'public' ? ourUcis.map((u) => ours.san(u) as string) : withSan ? ourUcis.map((u) => `${u} ${ours.san(u)}`) : ourUcis).sort().join(', ');
    const b = refList.sort().join(', ');
    if (a !== b) expect(a, where()).toBe(b);

    const st = ours.status();
    const refCheck = ref.inCheck();
    const refMate = ref.isCheckmate();
    // chess.js defines stalemate as "not in check and no legal moves": only ask it when that can be true
    const refStale = refList.length === 0 ? ref.isStalemate() : false;
    const refInsufficient = ref.isInsufficientMaterial();
    const refThreefold = ref.isThreefoldRepetition();
    const refFifty = ref.isDrawByFiftyMoves();
    // isGameOver() = checkmate or isDraw() (fifty, stalemate, insufficient, threefold); ask it in public mode
    const refOver = mode === 'public' ? ref.isGameOver() : refMate || refStale || refInsufficient || refThreefold || refFifty;
    const got = [st.inCheck, st.checkmate, st.stalemate, st.insufficientMaterial, st.threefold, st.fiftyMove, st.over];
    const want = [refCheck, refMate, refStale, refInsufficient, refThreefold, refFifty, refOver];
    if (got.join() !== want.join()) expect(got, `check, mate, stalemate, insufficient, threefold, fifty, over at ${where()}`).toEqual(want);
    const kingSq = ours.checkedKingSquare();
    if ((kingSq !== null) !== st.inCheck || (kingSq !== null && ours.pieceAt(kingSq)?.type !== 'k')) expect.fail(`checkedKingSquare ${kingSq} at ${where()}`);

    if (st.over || ply >= maxPlies) {
      const reason = st.reason ?? 'ply limit';
      stats.endings[reason] = (stats.endings[reason] ?? 0) + 1;
      stats.plies += ply;
      stats.games++;
      return;
    }
    const uci = ourUcis[Math.floor(rand() * ourUcis.length)];
    const san = ours.san(uci) as string;
    // our SAN parses back to the same move, in our parser ...
    const played = ours.playSan(san);
    if (!played || played.uci !== uci) return void expect(played?.uci, `our SAN ${san} at ${where()}`).toBe(uci);
    // ... and in chess.js's strict SAN parser
    if (mode === 'public') {
      const refMove = ref.move(san, { strict: true });
      const u = refMove.from + refMove.to + (refMove.promotion ?? '');
      if (u !== uci || refMove.after !== played.fenAfter) expect([u, refMove.after], where()).toEqual([uci, played.fenAfter]);
    } else {
      // chess.js's strict SAN parser costs ~0.1-0.4 ms: ask it for every SAN with a mate,
      // promotion, castling or disambiguation, and for every 4th ply
      const special = /[#=O]/.test(san) || /^[NBRQ][a-h1-8]x?[a-h][1-8]/.test(san);
      let refMove: RefMove | null | undefined;
      if (special || ply % 4 === 0) {
        refMove = refIn._moveFromSan(san, true);
        if (!refMove || refUci(refMove) !== uci) return void expect(refMove && refUci(refMove), `chess.js parse of ${san} at ${where()}`).toBe(uci);
        stats.refParsed = (stats.refParsed ?? 0) + 1;
      } else {
        refMove = refMoves.find((m) => refUci(m) === uci);
        if (!refMove) return void expect.fail(`chess.js lacks ${uci} at ${where()}`);
      }
      refIn._makeMove(refMove);
      refIn._incPositionCount();
    }
  }
}
