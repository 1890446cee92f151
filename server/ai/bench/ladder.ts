/**
 * Strength ladder: matches between neighbouring AI levels (and level 1 against the greedy
 * bot), played with the product's own move policy (move-chooser.ts) on a real engine pool,
 * refereed by machines/chess. Colours alternate between games.
 */
import { ChessGame } from '../../../machines/chess/index';
import { MAX_PLIES } from '../../../machines/game/defaults';
import { automaticResult } from '../../../machines/ai/position';
import type { EnginePool } from '../engine/pool';
import { levelSettings } from '../levels';
import { chooseAiMove } from '../move-chooser';
import { greedyMove } from './greedy-bot';
import { matchScore, type MatchScore } from './stats';

/** A player in a ladder game: an AI level or the greedy bot (0). */
export type Contestant = number;

export interface LadderOptions {
  pool: EnginePool;
  gamesPerPair: number;
  /** movetime multiplier applied to every level (1 = the product's values) */
  movetimeScale: number;
  /** games played at once (normally the pool size) */
  concurrency: number;
  random: () => number;
  onGame?: (pair: [Contestant, Contestant], gameNo: number, result: 1 | 0.5 | 0, plies: number, reason: string) => void;
}

export interface PairResult {
  upper: Contestant;
  lower: Contestant;
  score: MatchScore;
  avgPlies: number;
  reasons: Record<string, number>;
  seconds: number;
}

async function moveFor(who: Contestant, game: ChessGame, moves: string[], opts: LadderOptions): Promise<string> {
  if (who === 0) return greedyMove(game, opts.random);
  const level = levelSettings(who);
  const cap = Math.max(10, Math.round(level.movetimeMs * opts.movetimeScale));
  return (await chooseAiMove(opts.pool, who, moves, { maxMovetimeMs: cap, random: opts.random })).uci;
}

/** Plays one game; returns the score of `white`. */
export async function playGame(white: Contestant, black: Contestant, opts: LadderOptions) {
  const game = new ChessGame();
  const moves: string[] = [];
  for (;;) {
    const result = automaticResult(game, MAX_PLIES);
    if (result) {
      const score: 1 | 0.5 | 0 = result.winner === 'white' ? 1 : result.winner === 'black' ? 0 : 0.5;
      return { score, plies: moves.length, reason: result.reason };
    }
    const who = game.turn() === 'white' ? white : black;
    const uci = await moveFor(who, game, moves, opts);
    if (!game.play(uci)) throw new Error(`contestant ${who} produced illegal move ${uci} in ${game.fen()}`);
    moves.push(uci);
  }
}

export async function runPair(upper: Contestant, lower: Contestant, opts: LadderOptions): Promise<PairResult> {
  const started = Date.now();
  const results: (1 | 0.5 | 0)[] = [];
  const plies: number[] = [];
  const reasons: Record<string, number> = {};
  let next = 0;
  const lane = async () => {
    for (;;) {
      const gameNo = next++;
      if (gameNo >= opts.gamesPerPair) return;
      const upperWhite = gameNo % 2 === 0;
      const g = upperWhite ? await playGame(upper, lower, opts) : await playGame(lower, upper, opts);
      const s = (upperWhite ? g.score : 1 - g.score) as 1 | 0.5 | 0;
      results.push(s);
      plies.push(g.plies);
      reasons[g.reason] = (reasons[g.reason] ?? 0) + 1;
      opts.onGame?.([upper, lower], gameNo, s, g.plies, g.reason);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, lane));
  return {
    upper,
    lower,
    score: matchScore(results),
    avgPlies: plies.reduce((a, b) => a + b, 0) / Math.max(1, plies.length),
    reasons,
    seconds: (Date.now() - started) / 1000,
  };
}
