import { describe, expect, it } from 'vitest';
import {
  barFill, centipawnLoss, cappedCp, EVAL_CAP_CP, formatScore, graphPath, graphPoints, judge, judgeGame,
  lineToSan, parseInfo, terminalScore, terminalVerdict, whiteScore, type Score,
} from '../../machines/client/analysis';
import { START_FEN } from '../../machines/chess';

const cp = (value: number): Score => ({ kind: 'cp', value });
const mate = (value: number): Score => ({ kind: 'mate', value });

describe('UCI info lines', () => {
  it('reads depth, score and line', () => {
    expect(parseInfo('info depth 14 seldepth 20 multipv 1 score cp 31 nodes 123 nps 5000 time 40 pv e2e4 e7e5 g1f3'))
      .toEqual({ depth: 14, score: cp(31), pv: ['e2e4', 'e7e5', 'g1f3'] });
    expect(parseInfo('info depth 9 score mate -3 pv h7h8q')).toEqual({ depth: 9, score: mate(-3), pv: ['h7h8q'] });
  });
  it('ignores bound scores, lines without a pv and other output', () => {
    expect(parseInfo('info depth 10 score cp 20 lowerbound nodes 5 pv e2e4')).toBeNull();
    expect(parseInfo('info depth 0 score mate 0')).toBeNull();
    expect(parseInfo('info string NNUE evaluation enabled')).toBeNull();
    expect(parseInfo('bestmove e2e4 ponder e7e5')).toBeNull();
    expect(parseInfo('info depth x score cp 1 pv e2e4')).toBeNull();
  });
});

describe('scores', () => {
  it('turns a side-to-move score into White\'s and formats it', () => {
    expect(whiteScore(cp(50), 'black')).toEqual(cp(-50));
    expect(formatScore(cp(35))).toBe('+0.35');
    expect(formatScore(cp(-120))).toBe('-1.20');
    expect(formatScore(whiteScore(mate(2), 'black'))).toBe('#-2');
  });
  it('caps evaluations and counts a mate as the cap', () => {
    expect(cappedCp(cp(5000))).toBe(EVAL_CAP_CP);
    expect(cappedCp(mate(3))).toBe(EVAL_CAP_CP);
    expect(cappedCp(mate(-1))).toBe(-EVAL_CAP_CP);
  });
  it('scores checkmate and stalemate, and nothing while moves remain', () => {
    expect(terminalScore('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3')).toEqual(cp(-EVAL_CAP_CP));
    expect(terminalScore('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1')).toEqual(cp(0));
    // and reads as such, not as a number
    expect(terminalVerdict('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3')).toEqual({ score: '#', text: 'Checkmate · 0-1' });
    expect(terminalVerdict('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1')).toEqual({ score: '½-½', text: 'Stalemate · ½-½' });
    expect(terminalVerdict('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toBeNull();
    expect(terminalScore(START_FEN)).toBeNull();
  });
});

describe('judging moves by centipawn loss (50 / 100 / 300)', () => {
  it('uses the stated thresholds', () => {
    expect([49, 50, 99, 100, 299, 300].map(judge)).toEqual([null, 'inaccuracy', 'inaccuracy', 'mistake', 'mistake', 'blunder']);
  });
  it('measures the loss from the mover\'s side', () => {
    expect(centipawnLoss(cp(30), cp(-90), 'white')).toBe(120);
    expect(centipawnLoss(cp(30), cp(-90), 'black')).toBe(0);
    expect(centipawnLoss(cp(-20), cp(400), 'black')).toBe(420);
  });
  it('does not call a move in a won position a blunder, but does walking into mate', () => {
    expect(centipawnLoss(cp(1500), cp(800), 'white')).toBe(200);
    expect(centipawnLoss(mate(4), cp(1200), 'white')).toBe(0);
    expect(centipawnLoss(cp(0), mate(-2), 'white')).toBe(EVAL_CAP_CP);
  });
  it('judges a whole game, skipping positions not yet evaluated', () => {
    const evals = [cp(20), cp(30), cp(300), cp(-50), null, cp(280)];
    expect(judgeGame(evals)).toEqual([
      { ply: 2, mover: 'black', loss: 270, judgement: 'mistake' },
      { ply: 3, mover: 'white', loss: 350, judgement: 'blunder' },
    ]);
  });
});

describe('graph geometry', () => {
  it('puts equal in the middle, White winning at the top, and spreads plies over the width', () => {
    const pts = graphPoints([cp(0), mate(1), null, cp(-EVAL_CAP_CP * 3)], 300, 100);
    expect(pts.map((p) => p.ply)).toEqual([0, 1, 3]);
    expect(pts[0]).toEqual({ ply: 0, x: 0, y: 50 });
    expect(pts[1]!.x).toBe(100);
    expect(pts[1]!.y).toBeLessThan(5);
    expect(pts[2]!.x).toBe(300);
    expect(pts[2]!.y).toBeGreaterThan(95);
    expect(graphPath(pts)).toMatch(/^M0 50 L100 [\d.]+ L300 [\d.]+$/);
    expect(graphPath([])).toBe('');
  });
  it('fills half the bar when equal', () => {
    expect(barFill(cp(0))).toBe(0.5);
    expect(barFill(cp(300))).toBeGreaterThan(0.6);
  });
});

describe('best line as SAN', () => {
  it('converts UCI moves and stops at an illegal one', () => {
    expect(lineToSan(START_FEN, ['e2e4', 'e7e5', 'g1f3', 'a1a8'])).toEqual(['e4', 'e5', 'Nf3']);
    expect(lineToSan('8/P6k/8/8/8/8/8/K7 w - - 0 1', ['a7a8q'])).toEqual(['a8=Q']);
  });
});
