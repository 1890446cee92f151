/**
 * The analysis panel of /game/:id, loaded only when "Analyse" is pressed: Stockfish in the
 * browser first evaluates every position of the game (GAME_DEPTH) for the graph and the move
 * judgements (handed to the page for the move list), then follows the position shown (up to
 * LIVE_DEPTH): its evaluation (handed to the page for the bar beside the board), best line in
 * SAN, and the best move handed to the board as an arrow. A position with no legal move reads
 * "#" and the result (or the draw) instead of a number.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReplayPly } from '../../../../../machines/client/replay';
import {
  formatScore, judgeGame, lineToSan, terminalScore, terminalVerdict, whiteScore, type EngineInfo, type JudgedMove, type Score,
} from '../../../../../machines/client/analysis';
import { BrowserEngine } from './browserEngine';
import { EvalGraph } from './EvalGraph';
import './analysis.css';

/** Depth of each position's evaluation for the graph: a whole game in well under a minute here. */
export const GAME_DEPTH = 10;
/** Depth the shown position is searched to. */
export const LIVE_DEPTH = 40;

const PLURAL = { inaccuracy: 'Inaccuracies', mistake: 'Mistakes', blunder: 'Blunders' } as const;

interface Live { ply: number; depth: number; score: Score; line: string[] }

export interface AnalysisPanelProps {
  plies: readonly ReplayPly[];
  current: number;
  onView: (ply: number) => void;
  onBestMove: (move: [string, string] | null) => void;
  /** the evaluation of the position shown (null while none) */
  onScore: (score: Score | null) => void;
  /** the game's inaccuracies, mistakes and blunders so far */
  onJudged: (judged: readonly JudgedMove[]) => void;
}

function scoreOf(ply: ReplayPly, info: EngineInfo | null): Score | null {
  return terminalScore(ply.fen) ?? (info ? whiteScore(info.score, ply.turn) : null);
}

export default function AnalysisPanel({ plies, current, onView, onBestMove, onScore, onJudged }: AnalysisPanelProps) {
  const engine = useRef<BrowserEngine | null>(null);
  const [evals, setEvals] = useState<(Score | null)[]>(() => plies.map(() => null));
  const [graphDone, setGraphDone] = useState(false);
  const [live, setLive] = useState<Live | null>(null);

  // the game, position by position, once
  useEffect(() => {
    const e = new BrowserEngine();
    engine.current = e;
    let cancelled = false;
    void (async () => {
      for (const ply of plies) {
        const info = terminalScore(ply.fen) ? null : await e.search(ply.fen, GAME_DEPTH);
        if (cancelled) return;
        setEvals((prev) => prev.map((s, i) => (i === ply.ply ? scoreOf(ply, info) : s)));
      }
      setGraphDone(true);
    })();
    return () => {
      cancelled = true;
      e.terminate();
      engine.current = null;
    };
  }, [plies]);

  // then the position shown, deeper, restarted whenever another position is shown
  useEffect(() => {
    const e = engine.current;
    const ply = plies[current];
    if (!graphDone || !e || !ply) return;
    const search = new AbortController();
    setLive(null);
    if (!terminalScore(ply.fen)) {
      void e.search(ply.fen, LIVE_DEPTH, (info) => {
        setLive({ ply: current, depth: info.depth, score: whiteScore(info.score, ply.turn), line: info.pv });
      }, search.signal);
    }
    return () => search.abort();
  }, [graphDone, current, plies]);

  const ply = plies[current]!;
  const shown = live && live.ply === current ? live : null;
  const score = shown?.score ?? evals[current] ?? null;
  const best = shown?.line[0] ?? null;
  useEffect(() => {
    onBestMove(best ? [best.slice(0, 2), best.slice(2, 4)] : null);
  }, [best, onBestMove]);
  useEffect(() => () => onBestMove(null), [onBestMove]);

  useEffect(() => { onScore(score); }, [score, onScore]);
  useEffect(() => () => onScore(null), [onScore]);
  const judged = useMemo(() => judgeGame(evals, plies[0]?.turn), [evals, plies]);
  useEffect(() => { onJudged(judged); }, [judged, onJudged]);
  useEffect(() => () => onJudged([]), [onJudged]);
  const verdict = terminalVerdict(ply.fen);
  const sanLine = useMemo(() => (shown ? lineToSan(ply.fen, shown.line.slice(0, 10)) : []), [shown, ply.fen]);
  const done = evals.filter((s) => s !== null).length;
  const counts = (mover: 'white' | 'black', j: string) => judged.filter((m) => m.mover === mover && m.judgement === j).length;

  return (
    <section className="analysis card" aria-label="Analysis" data-testid="analysis" data-depth={shown?.depth ?? 0}
      data-graph={graphDone ? 'done' : 'running'}>
      <div className="analysis-head">
        <div className="analysis-numbers">
          <strong data-testid="analysis-score">{verdict ? verdict.score : score ? formatScore(score) : '…'}</strong>
          <span className="analysis-depth" data-testid="analysis-depth">
            {verdict ? verdict.text : shown ? `depth ${shown.depth}` : graphDone ? 'thinking…' : `game ${done}/${plies.length}`}
          </span>
          <p className="analysis-line" data-testid="analysis-line">{sanLine.join(' ')}</p>
        </div>
      </div>
      <EvalGraph evals={evals} judged={judged} current={current} onView={onView} />
      <table className="analysis-summary" data-testid="analysis-summary">
        <thead><tr><th /><th>White</th><th>Black</th></tr></thead>
        <tbody>
          {(['inaccuracy', 'mistake', 'blunder'] as const).map((j) => (
            <tr key={j}><th>{PLURAL[j]}</th><td>{counts('white', j)}</td><td>{counts('black', j)}</td></tr>
          ))}
        </tbody>
      </table>
      <p className="analysis-note">Stockfish 19 (lite) in your browser. Centipawn loss: inaccuracy ≥ 50, mistake ≥ 100, blunder ≥ 300.</p>
    </section>
  );
}
