/** A player's rating after each rated game, as an SVG line chart. */
import { ratingChart } from '../../../machines/client/ratingChart';

const W = 600;
const H = 180;
const PAD_LEFT = 44;

export function RatingChart({ history }: { history: readonly { at: string; rating: number }[] }) {
  const g = ratingChart(history.map((p) => ({ at: Date.parse(p.at), rating: p.rating })), W, H);
  if (!g) return <p className="empty">No rated games yet.</p>;
  return (
    <svg className="rating-chart" viewBox={`${-PAD_LEFT} -8 ${W + PAD_LEFT + 8} ${H + 16}`} role="img"
      aria-label={`Rating history: ${history.length} rated games, from ${Math.round(history[0]!.rating)} to ${Math.round(history[history.length - 1]!.rating)}`}
      data-testid="rating-chart">
      {g.gridlines.map((l) => (
        <g key={l.rating}>
          <line x1={0} x2={W} y1={l.y} y2={l.y} className="rating-grid" />
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
  );
}
