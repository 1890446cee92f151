/**
 * The chess board: @lichess-org/chessground with its cburnett pieces bundled
 * (embedded SVGs in the CSS, no outside host). Legal destinations come from
 * machines/chess; opponent moves animate over 300 ms; drags start after 5 px.
 */
import { useEffect, useRef } from 'react';
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import type { Key } from '@lichess-org/chessground/types';
import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import type { Color } from '../../../machines/protocol/messages';
import { positionOf } from '../../../machines/client/engine';

export const ANIMATION_MS = 300;
export const DRAG_THRESHOLD_PX = 5;

export interface BoardProps {
  fen: string;
  orientation: Color;
  /** the colour the user may move now, or null when the board is read-only */
  movableColor: Color | null;
  lastMove: [string, string] | null;
  /** changes force a redraw from `fen` (e.g. after an illegal drop) */
  version: number;
  onMove: (from: string, to: string) => void;
  label: string;
}

function configFor(p: BoardProps): Config {
  const game = positionOf(p.fen);
  const turn = game.turn();
  const canMove = p.movableColor !== null && p.movableColor === turn;
  return {
    fen: p.fen,
    orientation: p.orientation,
    turnColor: turn,
    check: game.checkedKingSquare() ? turn : false,
    lastMove: p.lastMove ? (p.lastMove as Key[]) : undefined,
    movable: {
      free: false,
      color: canMove ? turn : undefined,
      dests: canMove ? (game.dests() as Map<Key, Key[]>) : new Map(),
      showDests: true,
    },
  };
}

export function Board(props: BoardProps) {
  const el = useRef<HTMLDivElement>(null);
  const api = useRef<Api | null>(null);
  const onMove = useRef(props.onMove);
  onMove.current = props.onMove;

  useEffect(() => {
    if (!el.current) return;
    const cg = Chessground(el.current, {
      ...configFor(props),
      coordinates: true,
      autoCastle: true,
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: ANIMATION_MS },
      draggable: { enabled: true, distance: DRAG_THRESHOLD_PX, showGhost: true },
      selectable: { enabled: true },
      premovable: { enabled: false },
      drawable: { enabled: false },
      movable: { ...configFor(props).movable, events: { after: (from, to) => onMove.current(from, to) } },
    });
    api.current = cg;
    const ro = new ResizeObserver(() => cg.redrawAll());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      cg.destroy();
      api.current = null;
    };
    // created once; later props go through set()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    api.current?.set(configFor(props));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.fen, props.orientation, props.movableColor, props.lastMove?.[0], props.lastMove?.[1], props.version]);

  return (
    <div className="board-frame">
      <div ref={el} className="board" role="img" aria-label={props.label} data-testid="board" data-orientation={props.orientation} />
    </div>
  );
}
