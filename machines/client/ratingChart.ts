/** Geometry of a profile's rating chart: pure, so the plot is tested without a browser. */

export interface ChartPoint {
  /** ms since the epoch */
  at: number;
  rating: number;
}

export interface ChartGeometry {
  /** SVG path of the rating line, in a width x height box */
  path: string;
  /** the dots, one per rated game */
  dots: { x: number; y: number; rating: number; at: number }[];
  /** the rating range shown, rounded out to 50s with a margin */
  min: number;
  max: number;
  /** horizontal grid lines (ratings) */
  gridlines: { y: number; rating: number }[];
}

const STEP = 50;

/**
 * Places the points by game order (not by date: a burst of games on one evening should not
 * collapse into one column) in the box, with the rating axis rounded out to multiples of 50.
 */
export function ratingChart(points: readonly ChartPoint[], width: number, height: number): ChartGeometry | null {
  if (points.length === 0) return null;
  const ratings = points.map((p) => p.rating);
  const min = Math.floor((Math.min(...ratings) - STEP / 2) / STEP) * STEP;
  const max = Math.ceil((Math.max(...ratings) + STEP / 2) / STEP) * STEP;
  const y = (r: number) => height - ((r - min) / (max - min)) * height;
  const x = (i: number) => (points.length === 1 ? width / 2 : (i / (points.length - 1)) * width);
  const dots = points.map((p, i) => ({ x: x(i), y: y(p.rating), rating: p.rating, at: p.at }));
  const path = dots.map((d, i) => `${i === 0 ? 'M' : 'L'}${d.x.toFixed(1)},${d.y.toFixed(1)}`).join(' ');
  const every = Math.max(STEP, Math.ceil((max - min) / 4 / STEP) * STEP);
  const gridlines: ChartGeometry['gridlines'] = [];
  for (let r = Math.ceil(min / every) * every; r <= max; r += every) gridlines.push({ y: y(r), rating: r });
  return { path, dots, min, max, gridlines };
}
