import { describe, expect, it, vi } from 'vitest';
import { ChessGame, FenError, Position, START_FEN } from '../../machines/chess';
import { fenFields } from '../../machines/chess/fenText';
import { seeded } from '../../server/seeded';

function fenError(fen: string): string {
  try {
    new ChessGame(fen);
  } catch (e) {
    expect(e).toBeInstanceOf(FenError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${fen}`);
}

describe('FEN import errors say what is wrong', () => {
  it('fewer than 4 fields', () => {
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq')).toMatch(/at least 4 .*fields.*got 3/);
    expect(fenError('')).toMatch(/at least 4 .*fields.*got 0/);
  });
  it('not 8 ranks', () => {
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatch(/8 ranks.*got 7/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatch(/8 ranks.*got 9/);
  });
  it('bad piece letter', () => {
    expect(fenError('rnbqkbnr/pppXpppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatch(/bad piece letter 'X' in rank 7/);
    expect(fenError('rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatch(/bad piece letter '9'/);
  });
  it('rank not 8 squares', () => {
    expect(fenError('rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatch(/rank 7 \('ppppppp'\) does not describe exactly 8 squares/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/44P/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatch(/rank 4 .*8 squares/);
  });
  it('missing or extra king', () => {
    expect(fenError('rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1')).toMatch(/missing black king/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1')).toMatch(/missing white king/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatch(/2 white kings/);
  });
  it('pawn on the first or last rank', () => {
    expect(fenError('rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1')).toMatch(/pawn on h8/);
    expect(fenError('rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNp w KQkq - 0 1')).toMatch(/pawn on h1/);
  });
  it('side not to move in check', () => {
    expect(fenError('4k3/8/8/8/8/8/8/r3K3 b - - 0 1')).toMatch(/side not to move \(white\) is in check/);
    expect(fenError('4k3/8/8/8/8/8/8/4K2R w - - 0 1'.replace('4K2R', '4KR2').replace('4k3', '5k2'))).toMatch(/side not to move \(black\) is in check/);
  });
  it('castling right without king and rook in place', () => {
    expect(fenError('r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1')).toMatch(/castling right 'K' needs the white king on e1 and white rook on h1/);
    expect(fenError('r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1')).toMatch(/castling right 'K' needs/);
    expect(fenError('1r2k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1')).toMatch(/castling right 'q' needs the black king on e8 and black rook on a8/);
    expect(fenError('r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1')).toMatch(/castling field/);
  });
  it('impossible en passant square', () => {
    expect(fenError('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1')).toMatch(/impossible en passant square e4 \(must be on rank 3 when black is to move\)/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1')).toMatch(/impossible en passant square e3 \(no pawn just made a double step/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1')).toMatch(/en passant field/);
  });
  it('other bad fields', () => {
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1')).toMatch(/side to move must be 'w' or 'b'/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1')).toMatch(/halfmove clock/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0')).toMatch(/fullmove number/);
    expect(fenError(`${START_FEN} extra`)).toMatch(/at most 6 fields/);
  });
  it('only ASCII piece letters', () => {
    // the Kelvin sign lower-cases to 'k'; a FEN's letters are ASCII
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ\u212ABNR w - - 0 1')).toMatch(/bad piece letter '\u212A' in rank 1/);
    expect(fenError('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ\u{1F451}BNR w - - 0 1')).toMatch(/bad piece letter '\u{1F451}' in rank 1/u);
  });
  it('fields may be separated by any run of whitespace, before and after too', () => {
    const normal = new ChessGame(START_FEN).fen();
    for (const spaced of [
      `  ${START_FEN}  `,
      START_FEN.replaceAll(' ', '   '),
      START_FEN.replaceAll(' ', '\t'),
      START_FEN.replace(' ', '\u00a0').replace(' ', '\n '),
      START_FEN.replaceAll(' ', '\u2003'),
    ]) {
      expect(new ChessGame(spaced).fen()).toBe(normal);
    }
  });
  it('splits fields exactly as trimming and splitting on whitespace would (2,000 random texts)', () => {
    const alphabet = ['a', '/', '1', ' ', ' ', '  ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '\u1680', '\u3000', 'K', '-'];
    const random = seeded(20261126);
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const length = Math.floor(random() * 12);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(fenFields(text), JSON.stringify(text)).toEqual(text.trim().split(/\s+/));
    }
  });
  it('a failed load leaves the position unchanged', () => {
    const p = Position.fromFen(START_FEN);
    expect(() => p.loadFen('4k3/8/8/8/8/8/8/r3K3 b - - 0 1')).toThrow(FenError);
    expect(p.toFen()).toBe(START_FEN);
  });
});

describe('FEN export', () => {
  it('round-trips with the real counters', () => {
    const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 7 23';
    expect(new ChessGame(fen).fen()).toBe(fen);
    const g = new ChessGame();
    for (const m of ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5']) g.play(m);
    expect(g.fen()).toBe('r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3');
  });
  it('defaults the counters to 0 1 when only four fields are given', () => {
    expect(new ChessGame('4k3/8/8/8/8/8/8/4K3 w - -').fen()).toBe('4k3/8/8/8/8/8/8/4K3 w - - 0 1');
  });
  it('a game loaded from a loosely written FEN writes its start normalised in the PGN and replays from it', () => {
    const game = new ChessGame().load('  4k3/8/8/8/8/8/8/4K2R  w   K  - ');
    expect(game.play('e1g1')?.san).toBe('O-O');
    expect(game.pgn()).toContain('[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]');
    expect(game.history().map((m) => m.san)).toEqual(['O-O']);
    expect(game.clone().fen()).toBe(game.fen());
  });
  it('writes the en passant square only when the capture is legal', () => {
    const g = new ChessGame();
    g.play('e2e4');
    expect(g.fen().split(' ')[3]).toBe('-'); // no black pawn can take
    for (const m of ['d7d5', 'e4e5', 'f7f5']) g.play(m);
    expect(g.fen().split(' ')[3]).toBe('f6');
    expect(g.isLegal('e5f6')).toBe(true);
    // pinned capturer: the ep square is dropped
    expect(new ChessGame('4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1').fen()).toBe('4k3/8/8/r2pP2K/8/8/8/8 w - - 0 1');
  });
  it('writes counters of any size, and the same FENs in a runtime without TextDecoder (k6)', async () => {
    const fens = [
      'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 7 23',
      'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w Kq e6 0 2',
      '8/8/8/8/8/8/8/k6K b - - 99 1234567',
      '4k3/8/8/8/8/8/8/4K3 w - - 100 10',
    ];
    const withDecoder = fens.map((f) => new ChessGame(f).fen());
    expect(withDecoder).toEqual(fens.map((f) => f.replace(' e6 ', ' - ')));
    vi.stubGlobal('TextDecoder', undefined);
    vi.resetModules();
    try {
      const bare = await import('../../machines/chess');
      expect(fens.map((f) => new bare.ChessGame(f).fen())).toEqual(withDecoder);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
