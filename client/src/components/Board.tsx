/**
 * The chess board: @lichess-org/chessground with its cburnett pieces bundled
 * (embedded SVGs in the CSS, no outside host). Legal destinations come from
 * machines/chess; opponent moves animate over 300 ms; drags start after 5 px.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
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
  /** the move handed to the app early, so the deferred chessground callback skips it */
  const handedOver = useRef<string | null>(null);
  /** the board placement as the app last set it */
  const boardFen = useRef(props.fen.split(' ')[0]);

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
      movable: {
        ...configFor(props).movable,
        events: {
          // chessground calls this in a setTimeout, i.e. after it has painted the move; the
          // listeners below usually hand the move over earlier, in the input event itself
          after: (from, to) => {
            if (handedOver.current === `${from}${to}`) {
              handedOver.current = null;
              return;
            }
            handedOver.current = null;
            performance.mark('board:user-move');
            onMove.current(from, to);
          },
        },
      },
    });
    api.current = cg;
    // Runs after chessground's own mousedown/mouseup/touch handlers (registered earlier, and
    // these listen on the document): if the user just moved, hand the move to the app now so the
    // app's state (turn, clocks, status) is drawn in the same frame as the piece.
    const handOver = () => {
      const lm = cg.state.lastMove;
      if (!lm || lm.length !== 2 || handedOver.current !== null) return;
      if (cg.getFen() === boardFen.current) return; // nothing moved since the app last set the board
      handedOver.current = `${lm[0]}${lm[1]}`;
      boardFen.current = cg.getFen();
      performance.mark('board:user-move');
      onMove.current(lm[0], lm[1]);
    };
    const inputEvents = ['mousedown', 'mouseup', 'touchstart', 'touchend'] as const;
    for (const type of inputEvents) document.addEventListener(type, handOver);
    const ro = new ResizeObserver(() => cg.redrawAll());
    ro.observe(el.current);
    return () => {
      for (const type of inputEvents) document.removeEventListener(type, handOver);
      ro.disconnect();
      cg.destroy();
      api.current = null;
    };
    // created once; later props go through set()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // layout effect: the board follows the app's state in the same frame as the rest of the screen
  useLayoutEffect(() => {
    api.current?.set(configFor(props));
    boardFen.current = props.fen.split(' ')[0];
    performance.mark('board:synced');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.fen, props.orientation, props.movableColor, props.lastMove?.[0], props.lastMove?.[1], props.version]);

  return (
    <div className="board-frame">
      <div ref={el} className="board" role="img" aria-label={props.label} data-testid="board" data-orientation={props.orientation} />
    </div>
  );
}
