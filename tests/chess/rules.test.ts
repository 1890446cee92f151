import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { ChessGame, type PlayedMove } from '../../machines/chess';
import { seeded } from '../../server/seeded';

const sorted = (g: ChessGame) => g.legalMoves().sort();

describe('castling', () => {
  it('needs empty squares between king and rook', () => {
    const g = new ChessGame('r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1');
    expect(g.isLegal('e1g1')).toBe(false);
    expect(g.isLegal('e1c1')).toBe(false);
    const h = new ChessGame('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    expect(h.isLegal('e1g1')).toBe(true);
    expect(h.isLegal('e1c1')).toBe(true);
  });
  it('is not allowed out of, through or into check; b1 being attacked does not matter', () => {
    expect(new ChessGame('4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1'.replace('4k3', '4r1k1')).legalMoves()).not.toContain('e1g1'); // in check
    const through = new ChessGame('4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1');
    expect(through.isLegal('e1g1')).toBe(false);
    expect(through.isLegal('e1c1')).toBe(true);
    const into = new ChessGame('4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1');
    expect(into.isLegal('e1g1')).toBe(false);
    const b1 = new ChessGame('1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1');
    expect(b1.isLegal('e1c1')).toBe(true);
    const d1 = new ChessGame('3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1');
    expect(d1.isLegal('e1c1')).toBe(false);
  });
  it('loses the right when the rook is captured, and cannot castle with a missing rook', () => {
    const g = new ChessGame('r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1');
    const m = g.play('g2h1');
    expect(m?.captured).toBe('r');
    expect(g.fen()).toBe('r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2');
    expect(g.isLegal('e1g1')).toBe(false);
    expect(g.isLegal('e1c1')).toBe(true);
  });
  it('loses the right when the king or that rook moves, even after moving back', () => {
    const g = new ChessGame('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    for (const m of ['h1h2', 'a8a7', 'h2h1', 'a7a8']) expect(g.play(m)).not.toBeNull();
    expect(g.fen().split(' ')[2]).toBe('Qk');
    for (const m of ['e1d1', 'e8d8', 'd1e1', 'd8e8']) g.play(m);
    expect(g.fen().split(' ')[2]).toBe('-');
  });
  it('moves the rook, reports flags and SAN', () => {
    const g = new ChessGame('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    const m = g.play({ from: 'e1', to: 'c1' });
    expect(m).toMatchObject({ san: 'O-O-O', flags: 'q', uci: 'e1c1', piece: 'k' });
    expect(g.pieceAt('d1')).toEqual({ type: 'r', color: 'w' });
    expect(g.pieceAt('a1')).toBeNull();
    expect(g.playSan('O-O')).toMatchObject({ uci: 'e8g8', flags: 'k' });
    expect(g.fen()).toBe('r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2');
  });
});

describe('en passant', () => {
  it('is not allowed when it would expose the king along the rank', () => {
    const g = new ChessGame('8/8/8/KPp4r/8/8/8/7k w - c6 0 2');
    expect(sorted(g)).toEqual(['a5a4', 'a5a6', 'a5b6', 'b5b6']);
  });
  it('removes the captured pawn and is only possible right away', () => {
    const g = new ChessGame('4k3/8/8/1P6/8/8/8/4K3 b - - 0 1'.replace('4k3/8', '4k3/2p5'));
    g.play('c7c5');
    const m = g.play('b5c6');
    expect(m).toMatchObject({ san: 'bxc6', flags: 'e', captured: 'p' });
    expect(g.pieceAt('c5')).toBeNull();
    const h = new ChessGame('4k3/2p5/8/1P6/8/8/8/4K3 b - - 0 1');
    h.play('c7c5');
    h.play('e1e2');
    h.play('e8e7');
    expect(h.isLegal('b5c6')).toBe(false);
  });
});

describe('promotion', () => {
  it('offers all four pieces and defaults to a queen', () => {
    const g = new ChessGame('8/4P1k1/8/8/8/8/8/4K3 w - - 0 1');
    expect(g.legalMoves().filter((m) => m.startsWith('e7'))).toEqual(expect.arrayContaining(['e7e8q', 'e7e8r', 'e7e8b', 'e7e8n']));
    expect(g.dests().get('e7')).toEqual(['e8']);
    expect(g.clone().play({ from: 'e7', to: 'e8' })).toMatchObject({ promotion: 'q', san: 'e8=Q', flags: 'np' });
    expect(g.clone().play('e7e8')).toMatchObject({ promotion: 'q' });
    expect(g.clone().play({ from: 'e7', to: 'e8', promotion: 'n' })).toMatchObject({ promotion: 'n', san: 'e8=N+' });
    expect(g.clone().playSan('e8=R')).toMatchObject({ uci: 'e7e8r' });
    expect(g.clone().playSan('e8Q')).toMatchObject({ uci: 'e7e8q' });
    const c = new ChessGame('3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1');
    expect(c.play('e7d8q')).toMatchObject({ san: 'exd8=Q+', flags: 'cp', captured: 'r' });
  });
});

describe('SAN', () => {
  it('disambiguates by file, rank, or both', () => {
    const g = new ChessGame('7k/8/8/8/8/8/8/KN3N2 w - - 0 1');
    expect(g.san('b1d2')).toBe('Nbd2');
    const r = new ChessGame('7k/8/8/R7/8/8/8/R3K3 w - - 0 1');
    expect(r.san('a1a3')).toBe('R1a3');
    const q = new ChessGame('7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1');
    expect(q.san('a4b3')).toBe('Qa4b3');
    expect(q.clone().playSan('Qa4b3')?.uci).toBe('a4b3');
    expect(q.clone().playSan('Qb3')).toBeNull(); // ambiguous
  });
  it('does not disambiguate from a twin that is pinned or blocked', () => {
    // the f3 knight also reaches d2, but the e4 bishop pins it to the h1 king
    const pinned = new ChessGame('7k/8/8/8/4b3/5N2/8/1N5K w - - 0 1');
    expect(pinned.san('b1d2')).toBe('Nd2');
    expect(pinned.play('b1d2')?.san).toBe('Nd2');
    // the a1 rook's way to a5 goes through the rook that moves
    const blocked = new ChessGame('7k/8/8/8/8/8/R7/R3K3 w - - 0 1');
    expect(blocked.san('a2a5')).toBe('Ra5');
    expect(blocked.san('a2a2')).toBeNull();
    expect(blocked.san('a1b1')).toBe('Rb1');
  });
  it('marks check and mate; rejects nonsense', () => {
    const g = new ChessGame();
    for (const s of ['f3', 'e5', 'g4']) g.playSan(s);
    expect(g.san('d8h4')).toBe('Qh4#');
    expect(g.playSan('Qh4')?.san).toBe('Qh4#');
    const h = new ChessGame();
    for (const s of ['', 'Ke2', 'e5', 'Nf6', 'xx', 'O-O', 'Z']) expect(h.playSan(s)).toBeNull();
    expect(h.fen()).toBe(new ChessGame().fen());
  });
});

describe('played moves', () => {
  it('report piece, colour, capture and flags', () => {
    const g = new ChessGame();
    expect(g.play('g1f3')).toMatchObject({ piece: 'n', color: 'white', flags: 'n', san: 'Nf3', from: 'g1', to: 'f3' });
    expect(g.play('d7d5')).toMatchObject({ piece: 'p', color: 'black', flags: 'b' });
    g.play('e2e4');
    const c = g.play('d5e4');
    expect(c).toMatchObject({ flags: 'c', captured: 'p', san: 'dxe4' });
    expect(c).not.toHaveProperty('promotion');
    expect(g.playSan('Nd4!?')?.uci).toBe('f3d4');
    expect(g.playSan('0-0')).toBeNull();
  });
});

describe('status', () => {
  it('checkmate ends the game with a winner', () => {
    const g = new ChessGame();
    for (const s of ['f3', 'e5', 'g4', 'Qh4#']) g.playSan(s);
    expect(g.status()).toMatchObject({ checkmate: true, inCheck: true, over: true, winner: 'black', reason: 'checkmate', turn: 'white' });
    expect(g.checkedKingSquare()).toBe('e1');
    expect(g.legalMoves()).toEqual([]);
  });
  it('stalemate', () => {
    const g = new ChessGame('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
    expect(g.status()).toMatchObject({ stalemate: true, checkmate: false, over: true, winner: 'draw', reason: 'stalemate' });
    expect(g.checkedKingSquare()).toBeNull();
  });
  it('insufficient material', () => {
    const ins = (fen: string) => new ChessGame(fen).status().insufficientMaterial;
    expect(ins('4k3/8/8/8/8/8/8/4K3 w - - 0 1')).toBe(true);
    expect(ins('4k3/8/8/8/8/8/8/2B1K3 w - - 0 1')).toBe(true);
    expect(ins('4k3/8/8/8/8/8/8/1N2K3 w - - 0 1')).toBe(true);
    expect(ins('2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1')).toBe(false); // c8 light, c1 dark
    expect(ins('1b2k3/8/8/8/8/8/8/2B1K3 w - - 0 1')).toBe(true); // b8 and c1 both dark
    expect(ins('4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1')).toBe(false);
    expect(ins('4k3/8/8/8/8/8/4P3/4K3 w - - 0 1')).toBe(false);
    const g = new ChessGame('4k3/8/8/8/8/8/3r4/4K3 w - - 0 1');
    g.play('e1d2');
    expect(g.status()).toMatchObject({ insufficientMaterial: true, over: true, winner: 'draw', reason: 'insufficient material' });
  });
  it('fifty-move rule after 100 plies without capture or pawn move, but mate comes first', () => {
    const g = new ChessGame('4k3/8/8/8/8/8/R7/4K3 w - - 99 80');
    expect(g.status().fiftyMove).toBe(false);
    g.play('a2a3');
    expect(g.status()).toMatchObject({ fiftyMove: true, over: true, reason: 'fifty-move rule', winner: 'draw' });
    const m = new ChessGame('6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80');
    m.play('a1a8');
    expect(m.status()).toMatchObject({ checkmate: true, fiftyMove: true, reason: 'checkmate', winner: 'white' });
  });
  it('threefold and fivefold repetition by position, and undo rolls the count back', () => {
    const g = new ChessGame();
    const cycle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
    for (const m of cycle) g.play(m);
    expect(g.status().repetitionCount).toBe(2);
    for (const m of cycle) g.play(m);
    expect(g.status()).toMatchObject({ repetitionCount: 3, threefold: true, fivefold: false, over: true, reason: 'threefold repetition' });
    for (const m of [...cycle, ...cycle]) g.play(m);
    expect(g.status()).toMatchObject({ repetitionCount: 5, fivefold: true, reason: 'fivefold repetition' });
    g.undo();
    expect(g.status()).toMatchObject({ repetitionCount: 4, reason: 'threefold repetition' });
    for (let i = 0; i < 8; i++) g.undo(); // back to 7 plies: the position after ply 3 and 7
    expect(g.status()).toMatchObject({ repetitionCount: 2, threefold: false, over: false });
  });
  it('castling rights are part of the repeated position', () => {
    const g = new ChessGame('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    for (const m of ['e1e2', 'e8e7', 'e2e1', 'e7e8', 'e1e2', 'e8e7', 'e2e1', 'e7e8']) g.play(m);
    expect(g.status().repetitionCount).toBe(2); // the start (with rights) never recurs
  });
  it('outcome() is status() winner and reason: null while the game goes on, each ending otherwise', () => {
    const outcomeOf = (g: ChessGame) => {
      const st = g.status();
      return st.over ? { winner: st.winner, reason: st.reason } : null;
    };
    const mate = new ChessGame();
    for (const s of ['f3', 'e5', 'g4', 'Qh4#']) mate.playSan(s);
    expect(mate.outcome()).toEqual({ winner: 'black', reason: 'checkmate' });
    expect(new ChessGame('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1').outcome()).toEqual({ winner: 'draw', reason: 'stalemate' });
    expect(new ChessGame('4k3/8/8/8/8/8/8/2B1K3 w - - 0 1').outcome()).toEqual({ winner: 'draw', reason: 'insufficient material' });
    const fifty = new ChessGame('4k3/8/8/8/8/8/R7/4K3 w - - 99 80');
    expect(fifty.outcome()).toBeNull();
    fifty.play('a2a3');
    expect(fifty.outcome()).toEqual({ winner: 'draw', reason: 'fifty-move rule' });
    const mateOnFifty = new ChessGame('6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80');
    mateOnFifty.play('a1a8');
    expect(mateOnFifty.outcome()).toEqual({ winner: 'white', reason: 'checkmate' });
    const rep = new ChessGame();
    const cycle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
    for (const m of [...cycle, ...cycle]) rep.play(m);
    expect(rep.outcome()).toEqual({ winner: 'draw', reason: 'threefold repetition' });
    for (const m of [...cycle, ...cycle]) rep.play(m);
    expect(rep.outcome()).toEqual({ winner: 'draw', reason: 'fivefold repetition' });
    // and along random games, asked before and after the legal moves are listed
    const rnd = seeded(7);
    let ended = 0;
    for (let game = 0; game < 60; game++) {
      const g = new ChessGame();
      for (let ply = 0; ply < 500 && !g.status().over; ply++) {
        expect(g.outcome()).toBeNull();
        const legal = g.legalMoves();
        g.play(legal[Math.floor(rnd() * legal.length)]);
        expect(g.outcome()).toEqual(outcomeOf(g));
      }
      if (g.status().over) ended++;
    }
    expect(ended).toBeGreaterThan(20); // most random games end (mate, repetition, fifty moves, bare kings)
  });
  it('hasMatingMaterial', () => {
    const g = new ChessGame('4k3/8/8/8/8/8/8/1NB1K2n w - - 0 1');
    expect(g.hasMatingMaterial('white')).toBe(true);
    expect(g.hasMatingMaterial('black')).toBe(false);
    expect(new ChessGame('4k3/8/8/8/8/8/8/4K3 w - - 0 1').hasMatingMaterial('white')).toBe(false);
    expect(new ChessGame('4k3/8/8/8/8/8/7p/4K3 w - - 0 1').hasMatingMaterial('black')).toBe(true);
  });
});

describe('game API', () => {
  it('rejects illegal and malformed moves without changing anything', () => {
    const g = new ChessGame();
    const bad: unknown[] = ['e2e5', 'e7e5', 'zz', '', 'e2e4q', 'e2e4qq', null, undefined, 42, {}, { from: 'e2' },
      { from: 'e2', to: 'e4', promotion: 'x' }, { from: 'i2', to: 'e4' }, ['e2', 'e4']];
    for (const b of bad) {
      expect(g.isLegal(b as string)).toBe(false);
      expect(g.play(b as string)).toBeNull();
    }
    expect(g.fen()).toBe(new ChessGame().fen());
    expect(g.history()).toEqual([]);
    expect(g.undo()).toBeNull();
  });
  it('gives destinations per square for the board', () => {
    const d = new ChessGame().dests();
    expect(d.size).toBe(10);
    expect(d.get('g1')?.sort()).toEqual(['f3', 'h3']);
    expect(d.get('e2')?.sort()).toEqual(['e3', 'e4']);
  });
  it('exposes the board with rank 8 first', () => {
    const g = new ChessGame();
    const b = g.board();
    expect(b[0][0]).toEqual({ type: 'r', color: 'b' });
    expect(b[7][4]).toEqual({ type: 'k', color: 'w' });
    expect(b[4].every((s) => s === null)).toBe(true);
    expect(g.pieceAt('d8')).toEqual({ type: 'q', color: 'b' });
    expect(g.pieceAt('nope')).toBeNull();
  });
  it('undo restores position and history; clone is independent', () => {
    const g = new ChessGame();
    const before = g.fen();
    const m = g.play('e2e4');
    expect(g.history()).toEqual([m]);
    const c = g.clone();
    expect(g.undo()).toEqual(m);
    expect(g.fen()).toBe(before);
    expect(c.fen()).toBe(m?.fenAfter);
    expect(c.undo()?.uci).toBe('e2e4');
    expect(c.fen()).toBe(before);
  });
});

describe('history', () => {
  it('is rebuilt move for move as play() described each move, and undo() gives them back in reverse', () => {
    // the game keeps only the moves' codes; every description is made again when asked
    const random = seeded(7);
    const promotions = 'r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1';
    const castlings = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1';
    const kinds = new Set<string>();
    for (const start of [undefined, promotions, castlings]) {
      for (let game = 0; game < 20; game++) {
        const g = new ChessGame(start);
        const played: PlayedMove[] = [];
        if (start === promotions && game === 0) played.push(g.play('e5d6')!); // en passant
        while (!g.status().over && played.length < 120) {
          const legal = g.legalMoves();
          // castlings and promotions are favoured, so that every kind of move is rebuilt
          const special = legal.filter((u) => u.length === 5 || /^e1[gc]1|^e8[gc]8/.test(u));
          const from = special.length && random() < 0.5 ? special : legal;
          played.push(g.play(from[Math.floor(random() * from.length)])!);
        }
        expect(g.plies()).toBe(played.length);
        expect(g.history()).toEqual(played);
        if (start) for (const m of played) for (const k of [...m.flags, m.san.at(-1)!]) kinds.add(k);
        const fenAt = played.map((m) => m.fenAfter);
        for (let i = played.length - 1; i >= 0; i--) {
          expect(g.fen()).toBe(fenAt[i]);
          expect(g.undo()).toEqual(played[i]);
        }
        expect(g.plies()).toBe(0);
        expect(g.undo()).toBeNull();
      }
    }
    // captures, promotions, en passant, both castlings, checks and mates were among them
    for (const k of ['c', 'p', 'e', 'k', 'q', '+', '#']) expect(kinds, k).toContain(k);
  });
});

describe('PGN export', () => {
  it('has the seven tags, numbered moves and the result; chess.js reads it back', () => {
    const g = new ChessGame();
    for (const s of ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#']) g.playSan(s);
    const pgn = g.pgn({ White: 'Alice', Black: 'Bob', Date: '2026.11.22', Event: 'Casual game' });
    expect(pgn).toBe([
      '[Event "Casual game"]', '[Site "?"]', '[Date "2026.11.22"]', '[Round "?"]', '[White "Alice"]', '[Black "Bob"]', '[Result "1-0"]',
      '', '1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0', '',
    ].join('\n'));
    const ref = new Chess();
    ref.loadPgn(pgn);
    expect(ref.fen()).toBe(g.fen());
  });
  it('uses a given Result (resignation, timeout) and * for an unfinished game', () => {
    const g = new ChessGame();
    g.play('e2e4');
    expect(g.pgn()).toContain('1. e4 *');
    expect(g.pgn({ Result: '0-1' })).toMatch(/\[Result "0-1"\][\s\S]*1\. e4 0-1\n$/);
  });
  it('records a non-standard start with SetUp/FEN and black to move first', () => {
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 4 30';
    const g = new ChessGame(fen);
    for (const m of ['e8g8', 'e1c1', 'f8f1']) g.play(m);
    const pgn = g.pgn();
    expect(pgn).toContain(`[SetUp "1"]\n[FEN "${fen}"]`);
    expect(pgn).toContain('\n\n30... O-O 31. O-O-O Rf1 *\n');
    const ref = new Chess();
    ref.loadPgn(pgn);
    expect(ref.fen()).toBe(g.fen());
  });
  it('escapes quotes in tag values', () => {
    expect(new ChessGame().pgn({ White: 'Bob "B" \\ Jr' })).toContain('[White "Bob \\"B\\" \\\\ Jr"]');
  });
  it('wraps long games under 80 columns', () => {
    const g = new ChessGame();
    const cycle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
    for (let i = 0; i < 10; i++) for (const m of cycle) g.play(m);
    const lines = g.pgn().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(80);
  });
});
