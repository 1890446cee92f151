/**
 * JIT warm-up at start-up. The chess core's hot functions (move lookup, make, SAN, FEN, status)
 * have branches that ordinary positions rarely reach: castling either way, en passant,
 * promotions and under-promotions, SAN disambiguation, check, mate, stalemate. If V8 optimizes
 * them before a game has met such a move, the first game that does throws the optimized code
 * away ("insufficient type feedback") and it is compiled again, over and over as each rare branch
 * is met for the first time, on a live server. Playing every legal move of positions chosen to
 * reach those branches, through the same calls a game makes, gives V8 feedback for all of them
 * first.
 *
 * What counts is that every path runs a few times, not how often: V8 records feedback for a
 * function only once it has been called a handful of times (eight, in Node 20's V8), so each
 * scripted game runs eight times and each position's moves four times (every castling and
 * promotion move at least eight). More rounds only optimize the code sooner, which the first
 * live games do anyway: in the server bench, 4/8/20 rounds and the former 40/30/2,000 left the
 * same number of deoptimizations in a run (31 and 28; none at all: 58) for a warm-up of about
 * 0.1 s instead of 0.2-0.5 s, before the server listens.
 */
import { ChessGame } from '../../machines/chess';
import { timedCommand, type GameCommand } from '../../machines/game';
import { createGameActor } from './machines';
import { readMoveFrame } from '../realtime/moveFrame';

const POSITIONS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  // castling both ways for both sides, pins, en passant after b2b4/a7a5-style pushes
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1',
  // en passant that would expose the king, rook endings
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  '8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1',
  // promotions with capture, under-promotion, checks
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1',
  'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
  '8/1P4k1/8/8/8/8/6Kp/8 w - - 0 1',
  // SAN disambiguation by file, by rank and by both
  '1k6/8/8/8/R6R/8/Q1Q5/K1Q5 w - - 0 1',
  '7k/8/2N1N3/8/2N1N3/8/8/K7 w - - 0 1',
  // mate, stalemate and insufficient material one move away
  '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1',
  'k7/8/1Q6/8/8/8/8/7K w - - 0 1',
  '8/8/8/8/2n5/2k5/P7/K7 b - - 0 1',
];

/** Plays every legal move of each warm-up position `rounds` times; returns the moves played. */
export function warmUpChessCore(rounds = 4): number {
  let played = 0;
  const games = POSITIONS.map((fen) => new ChessGame(fen));
  for (let r = 0; r < rounds; r++) {
    for (const game of games) {
      for (const uci of game.legalMoves()) {
        const move = { from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: (uci[4] as 'q' | 'r' | 'b' | 'n' | undefined) ?? undefined };
        if (!game.isLegal(move)) throw new Error(`warm-up: ${uci} should be legal in ${game.fen()}`);
        const done = game.play(move);
        if (!done) throw new Error(`warm-up: ${uci} was refused in ${game.fen()}`);
        game.status();
        game.hasMatingMaterial('white');
        game.undo();
        played++;
      }
    }
  }
  return played;
}

/**
 * The same for the game actor: short scripted games through the actor the server runs, each
 * command stamped with a simulated time, covering the paths live games reach only now and then (game start and end,
 * each kind of rejection, draw offers, presence changes, WAKE on a flag and on the grace,
 * promotions while the clocks run).
 */
export function warmUpGameMachine(rounds = 8): { games: number; endings: string[]; promotions: string[] } {
  let games = 0;
  const endings = new Set<string>();
  const promotions = new Set<string>();
  for (let r = 0; r < rounds; r++) {
    for (const { startFen, steps } of SCRIPTS) {
      let now = 1_000;
      const actor = createGameActor({
        gameId: 'warm-up',
        white: { id: 'w', name: 'W' },
        black: { id: 'b', name: 'B' },
        clockMs: 60_000,
        graceMs: 10_000,
        startedAt: now,
        ...(startFen ? { startFen } : {}),
      });
      actor.on('ended', (e) => endings.add(e.reason));
      actor.on('moved', (e) => {
        if (e.move.promotion) promotions.add(e.san);
      });
      actor.start();
      for (const step of steps) {
        if (typeof step === 'number') now += step;
        else if (step.type === 'MOVE') actor.send(timedCommand({ ...step, lagMs: r % 2 ? 25.5 : undefined, unansweredPingMs: r % 3 ? undefined : 12.5 }, now));
        else actor.send(timedCommand(step, now));
      }
      actor.stop();
      games++;
    }
  }
  return { games, endings: [...endings].sort(), promotions: [...promotions].sort() };
}

/**
 * The same for the reader of move frames: a move as clients write it, with the piece, with a
 * promotion, and with both (each makes an object of another shape).
 */
export function warmUpMoveFrames(rounds = 20): number {
  const frames = [
    '{"type":"gameMove","payload":{"gameId":"game_warm-up","move":{"from":"e2","to":"e4"}}}',
    '{"type":"gameMove","payload":{"gameId":"game_warm-up","move":{"from":"g1","to":"f3","piece":"n"}}}',
    '{"type":"gameMove","payload":{"gameId":"game_warm-up","move":{"from":"b7","to":"a8","promotion":"q"}}}',
    '{"type":"gameMove","payload":{"gameId":"game_warm-up","move":{"from":"g2","to":"g1","piece":"p","promotion":"n"}}}',
  ].map((text) => new TextEncoder().encode(text).buffer as ArrayBuffer);
  let read = 0;
  for (let r = 0; r < rounds; r++) for (const frame of frames) if (readMoveFrame(frame)) read++;
  return read;
}

/** Everything above, as the server runs it before it listens; what was played, for the log. */
export function warmUp(): { moves: number; games: number; frames: number } {
  return { moves: warmUpChessCore(), games: warmUpGameMachine().games, frames: warmUpMoveFrames() };
}

type Step = number | GameCommand;
const mv = (playerId: string, uci: string): GameCommand => ({
  type: 'MOVE',
  playerId,
  move: { from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] as 'q' | 'r' | 'b' | 'n' | undefined },
});
const opening: Step[] = [mv('w', 'e2e4'), 500, mv('b', 'e7e5'), 700, mv('w', 'g1f3'), 300, mv('b', 'b8c6')];
const SCRIPTS: { startFen?: string; steps: Step[] }[] = [
  // fool's mate, with an out-of-turn, an illegal and a stranger's move on the way
  { steps: [mv('w', 'f2f3'), mv('w', 'e7e5'), mv('b', 'e7e6'), mv('x', 'e7e5'), mv('b', 'e7e5'), 400, mv('w', 'g2g4'), 900, mv('b', 'd8h4')] },
  // draw offered, declined, offered again too early, then offered back (agreement)
  { steps: [...opening, { type: 'OFFER_DRAW', playerId: 'w' }, { type: 'DECLINE_DRAW', playerId: 'b' }, { type: 'OFFER_DRAW', playerId: 'w' }, { type: 'ACCEPT_DRAW', playerId: 'w' }, { type: 'OFFER_DRAW', playerId: 'b' }, { type: 'ACCEPT_DRAW', playerId: 'w' }] },
  // an offer that lapses when its receiver moves, then resignation
  { steps: [...opening, { type: 'OFFER_DRAW', playerId: 'b' }, mv('w', 'f1c4'), { type: 'RESIGN', playerId: 'b' }] },
  // abort before the clocks run
  { steps: [mv('w', 'd2d4'), 31_000, { type: 'WAKE' }] },
  // disconnect, reconnect, disconnect again and lose on the grace
  { steps: [...opening, { type: 'PLAYER_DISCONNECTED', playerId: 'w' }, 2_000, { type: 'WAKE' }, { type: 'PLAYER_RECONNECTED', playerId: 'w' }, mv('w', 'f1b5'), { type: 'PLAYER_DISCONNECTED', playerId: 'b' }, 11_000, { type: 'WAKE' }] },
  // flag
  { steps: [...opening, 30_000, { type: 'WAKE' }, 32_000, { type: 'WAKE' }] },
  // promotions with the clocks running (a capture promoting to a queen, an under-promotion), then
  // a check: the move path's promotion branches get feedback before a live game needs them
  {
    startFen: 'r3k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1',
    steps: [mv('w', 'e1d2'), 400, mv('b', 'e8f7'), 600, mv('w', 'b7a8q'), 300, mv('b', 'g2g1n'), 500, mv('w', 'a8a7'), { type: 'RESIGN', playerId: 'b' }],
  },
];
