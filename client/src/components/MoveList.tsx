/**
 * The game's moves in SAN, two to a row, with buttons to step through them. Looking back only
 * changes what the board shows; the game goes on and the list returns to the last move with ».
 */
import { useEffect, useRef } from 'react';
import { moveRows, navigatePly } from '../../../machines/client/moveHistory';

export type NavKey = 'first' | 'prev' | 'next' | 'last';

const KEYS: Record<string, NavKey> = { ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'first', ArrowDown: 'last', Home: 'first', End: 'last' };

/** Arrow keys (and Home/End) step through the moves unless the player is typing somewhere. */
export function useMoveKeys(plyCount: number, viewPly: number | null, onView: (ply: number | null) => void): void {
  const state = useRef({ plyCount, viewPly, onView });
  state.current = { plyCount, viewPly, onView };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const key = KEYS[e.key];
      const target = e.target as HTMLElement | null;
      if (!key || e.altKey || e.ctrlKey || e.metaKey || target?.closest('input, textarea, select, [role="dialog"]')) return;
      e.preventDefault();
      const s = state.current;
      s.onView(navigatePly(s.viewPly, key, s.plyCount));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** An annotation shown after a move: its glyph (?!, ?, ??), the centipawns it lost, and what it is called. */
export interface MoveNote { glyph: string; loss: number; name: string; judgement: string }

export function MoveList({ sans, viewPly, onView, notes }: {
  sans: readonly string[];
  viewPly: number | null;
  onView: (ply: number | null) => void;
  /** annotations by move index (0 = the first move) */
  notes?: ReadonlyMap<number, MoveNote>;
}) {
  const list = useRef<HTMLOListElement>(null);
  const shown = viewPly ?? sans.length - 1;
  // after the frame: reading the layout here would force it while the move is being drawn
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const rows = list.current;
      const active = rows?.querySelector<HTMLElement>('[aria-current="true"]');
      if (rows && active) rows.scrollTop = Math.max(0, active.offsetTop - rows.clientHeight / 2);
    });
    return () => cancelAnimationFrame(frame);
  }, [shown, sans.length]);
  const step = (key: NavKey) => onView(navigatePly(viewPly, key, sans.length));
  const cell = (m: { ply: number; san: string } | null) => {
    if (!m) return <span className="play-move" />;
    const note = notes?.get(m.ply);
    return (
      <button type="button" className="play-move" aria-current={m.ply === shown} onClick={() => onView(m.ply === sans.length - 1 ? null : m.ply)}
        title={note ? `${note.name}: ${note.loss} centipawns lost` : undefined}>
        {m.san}
        {note && <span className={`move-glyph glyph-${note.judgement}`}>{note.glyph}</span>}
        {note && <span className="move-loss">−{note.loss}</span>}
      </button>
    );
  };
  return (
    <div className="play-movelist" aria-label="Moves">
      <ol ref={list} className="play-moverows" data-testid="move-list">
        {moveRows(sans).map((row) => (
          <li key={row.number} className="play-moverow">
            <span className="play-movenumber">{row.number}.</span>
            {cell(row.white)}
            {cell(row.black)}
          </li>
        ))}
      </ol>
      <div className="play-movenav">
        <button type="button" className="btn btn-icon" aria-label="First move" onClick={() => step('first')} disabled={shown < 0}>«</button>
        <button type="button" className="btn btn-icon" aria-label="Previous move" onClick={() => step('prev')} disabled={shown < 0}>‹</button>
        <button type="button" className="btn btn-icon" aria-label="Next move" onClick={() => step('next')} disabled={viewPly === null}>›</button>
        <button type="button" className="btn btn-icon" aria-label="Last move" onClick={() => step('last')} disabled={viewPly === null}>»</button>
      </div>
    </div>
  );
}
