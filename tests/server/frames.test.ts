/**
 * The gameMove and timerUpdate frames are written by hand; a client must receive exactly what
 * JSON.stringify would have sent, for every move a game can make and every clock value.
 */
import { describe, expect, it } from 'vitest';
import { ChessGame } from '../../machines/chess';
import { gameMoveFrame, timerUpdateFrame } from '../../server/game/frames';
import { toTimers } from '../../machines/game';
import { seeded } from '../../server/seeded';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('gameMove frame', () => {
  it('is byte for byte the JSON of the message, over random games with every kind of move', () => {
    const rnd = seeded(7);
    const kinds = new Set<string>();
    let frames = 0;
    // start positions that reach castling and (under-)promotion quickly; random play seldom
    // comes upon an en passant capture (about half of all seeds never do in these games), so the
    // last start is a check by a pawn that just moved two squares that only cxd6 e.p. answers
    const starts = [
      undefined,
      'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
      'r3k3/1P6/8/8/8/8/6p1/4K3 w q - 0 1',
      '7k/8/8/2Pp2q1/4K3/1n5r/8/8 w - d6 0 1',
    ];
    for (let g = 0; g < 80; g++) {
      const chess = new ChessGame(starts[g % starts.length]);
      for (let ply = 0; ply < 120; ply++) {
        const moves = chess.legalMoves();
        if (moves.length === 0) break;
        const played = chess.play(moves[Math.floor(rnd() * moves.length)])!;
        kinds.add(played.flags);
        if (played.san.endsWith('+') || played.san.endsWith('#')) kinds.add('check');
        const msg = {
          type: 'gameMove' as const,
          gameId: 'game_' + Math.floor(rnd() * 1e9).toString(36) + '-_Z',
          move: played.promotion ? { from: played.from, to: played.to, promotion: played.promotion } : { from: played.from, to: played.to },
          nextTurn: chess.turn(),
          san: played.san,
          fen: played.fenAfter,
          clocks: { white: rnd() * 600_000, black: 600_000 - rnd() * 1000 },
          seq: ply + 1,
        };
        const expected = JSON.stringify({ ...msg, clocks: { white: Math.round(msg.clocks.white), black: Math.round(msg.clocks.black) } });
        expect(text(gameMoveFrame(msg))).toBe(expected);
        frames++;
      }
    }
    expect(frames).toBeGreaterThan(1000);
    // the games reached castling, en passant, promotions and checks
    for (const k of ['k', 'e', 'np', 'cp', 'check']) expect(kinds, k).toContain(k);
  });

  it('falls back to JSON for values it cannot write as they are', () => {
    const base = { type: 'gameMove' as const, gameId: 'game_x', move: { from: 'e2', to: 'e4' }, nextTurn: 'black' as const, san: 'e4', fen: 'f', clocks: { white: 1, black: 2 }, seq: 1 };
    for (const msg of [
      { ...base, gameId: 'game_"quoted"\\é' },
      { ...base, clocks: { white: Number.POSITIVE_INFINITY, black: -0.4 } },
      { ...base, san: 'é' },
      { ...base, gameId: 'game_' + 'x'.repeat(4000) }, // longer than the scratch buffer
      { ...base, fen: 'y'.repeat(3990) }, // fits, but leaves no room for the rest of the frame
      { ...base, seq: 1.5 },
    ]) {
      const expected = JSON.stringify({ ...msg, clocks: { white: Math.round(msg.clocks.white), black: Math.round(msg.clocks.black) } });
      expect(text(gameMoveFrame(msg))).toBe(expected);
      expect(JSON.parse(text(gameMoveFrame(msg))).gameId).toBe(msg.gameId);
    }
  });

  it('each frame is complete on its own: a later frame does not show through a shorter one', () => {
    const long = text(gameMoveFrame({ type: 'gameMove', gameId: 'game_' + 'x'.repeat(40), move: { from: 'a7', to: 'a8', promotion: 'q' }, nextTurn: 'black', san: 'a8=Q+', fen: 'Q7/8/8/8/8/8/8/k6K b - - 0 1', clocks: { white: 1, black: 2 }, seq: 99 }));
    const short = text(timerUpdateFrame('g', { white: 5, black: 6 }));
    expect(JSON.parse(long).seq).toBe(99);
    expect(short).toBe('{"type":"timerUpdate","gameId":"g","timers":{"white":1,"black":1},"clocks":{"white":5,"black":6}}');
  });
});

describe('timerUpdate frame', () => {
  it('is byte for byte the JSON of the message, whole seconds rounded up, milliseconds rounded', () => {
    const rnd = seeded(11);
    const values = [0, 0.4, 999.5, 1000, 1000.2, 599_999.5, 600_000, -3, 59_000.49];
    for (let i = 0; i < 500; i++) values.push(rnd() * 600_000);
    for (const white of values) {
      const clocks = { white, black: values[Math.floor(rnd() * values.length)] };
      const expected = JSON.stringify({
        type: 'timerUpdate',
        gameId: 'game_abc',
        timers: toTimers(clocks),
        clocks: { white: Math.round(clocks.white), black: Math.round(clocks.black) },
      });
      expect(text(timerUpdateFrame('game_abc', clocks))).toBe(expected);
    }
  });

  it('falls back to JSON for a game id it cannot write as it is, and for clocks that are not finite', () => {
    for (const [gameId, clocks] of [
      ['game_"x"', { white: 1000, black: 2000 }],
      ['g'.repeat(3950), { white: 1000, black: 2000 }],
      ['game_abc', { white: Number.NaN, black: 2000 }],
    ] as const) {
      const expected = JSON.stringify({ type: 'timerUpdate', gameId, timers: toTimers(clocks), clocks: { white: Math.round(clocks.white), black: Math.round(clocks.black) } });
      expect(text(timerUpdateFrame(gameId, clocks))).toBe(expected);
    }
  });
});
