/**
 * A player's rating after each rated game, as an SVG line chart drawn at the width it is shown
 * at (one SVG unit is one CSS pixel), so its labels keep their size on a phone instead of being
 * scaled down with a fixed drawing.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { ratingChart } from '../../../machines/client/ratingChart';

/** The width drawn before the chart's box is measured (and where it cannot be). */
const DEFAULT_W = 600;
const H = 180;
const PAD_LEFT = 44;
const PAD_RIGHT = 8;

/** The width of `ref`'s element in CSS pixels, followed as the layout changes. */
function useBoxWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(DEFAULT_W + PAD_LEFT + PAD_RIGHT);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(160, Math.round(el.getBoundingClientRect().width)));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** `history`: the rating the first rated game started from, then the rating after each; `label` names it for screen readers. */
export function RatingChart({ history, label = 'Rating history' }: { history: readonly { at: string; rating: number }[]; label?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const width = useBoxWidth(box);
  const plotWidth = width - PAD_LEFT - PAD_RIGHT;
  const g = ratingChart(history.map((p) => ({ at: Date.parse(p.at), rating: p.rating })), plotWidth, H);
  if (!g) return <p className="empty">No rated games yet.</p>;
  return (
    <div ref={box} className="rating-chart-box">
      <svg className="rating-chart" width={width} height={H + 16} viewBox={`${-PAD_LEFT} -8 ${width} ${H + 16}`} role="img"
        aria-label={`${label}: ${history.length - 1} rated ${history.length === 2 ? 'game' : 'games'}, from ${Math.round(history[0]!.rating)} to ${Math.round(history[history.length - 1]!.rating)}`}
        data-testid="rating-chart">
        {g.gridlines.map((l) => (
          <g key={l.rating}>
            <line x1={0} x2={plotWidth} y1={l.y} y2={l.y} className="rating-grid" />
            <text x={-6} y={l.y + 4} textAnchor="end" className="rating-axis">{l.rating}</text>
          </g>
        ))}
        <path d={g.path} className="rating-line" fill="none" />
        {g.dots.map((d, i) => (
          <circle key={i} cx={d.x} cy={d.y} r={3} className="rating-dot">
            <title>{`${Math.round(d.rating)} on ${new Date(d.at).toLocaleDateString()}`}</title>
          </circle>
        ))}
      </svg>
    </div>
  );
}
