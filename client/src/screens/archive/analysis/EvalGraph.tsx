/**
 * The evaluation graph of the whole game as SVG: White's winning chance by ply (top = White
 * winning), a dot on each inaccuracy, mistake and blunder, the shown ply marked; a click shows
 * the ply under the pointer.
 */
import type { MouseEvent } from 'react';
import { graphPath, graphPoints, type JudgedMove, type Score } from '../../../../../machines/client/analysis';

const WIDTH = 600;
const HEIGHT = 120;

export interface EvalGraphProps {
  evals: readonly (Score | null)[];
  judged: readonly JudgedMove[];
  current: number;
  onView: (ply: number) => void;
}

export function EvalGraph({ evals, judged, current, onView }: EvalGraphProps) {
  const points = graphPoints(evals, WIDTH, HEIGHT);
  const at = new Map(points.map((p) => [p.ply, p]));
  const step = evals.length > 1 ? WIDTH / (evals.length - 1) : 0;
  const click = (e: MouseEvent<SVGSVGElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (step === 0 || box.width === 0) return;
    onView(Math.round((((e.clientX - box.left) / box.width) * WIDTH) / step));
  };
  return (
    <svg className="eval-graph" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img"
      aria-label="Evaluation graph of the game" data-testid="eval-graph" onClick={click}>
      <line x1={0} x2={WIDTH} y1={HEIGHT / 2} y2={HEIGHT / 2} className="eval-graph-mid" />
      <line x1={current * step} x2={current * step} y1={0} y2={HEIGHT} className="eval-graph-now" />
      <path d={graphPath(points)} className="eval-graph-line" vectorEffect="non-scaling-stroke" />
      {judged.map((m) => {
        const p = at.get(m.ply);
        return p ? (
          <circle key={m.ply} cx={p.x} cy={p.y} r={4} className={`eval-mark eval-${m.judgement}`} data-testid="eval-mark"
            data-judgement={m.judgement} data-ply={m.ply}>
            <title>{`Move ${Math.ceil(m.ply / 2)}${m.mover === 'black' ? '...' : ''}: ${m.judgement} (−${m.loss} cp)`}</title>
          </circle>
        ) : null;
      })}
    </svg>
  );
}
